"""A property's direct channel: where the bookings the property takes itself are kept (POST /api/v1/bookings,
the service's Booking CRS API, https://docs.channex.io/api-v.1-documentation/booking-crs-api, whose
bookings come from `ota_name` "Offline" with numbers `OFL-<code>`).

One per property, made the first time the property takes a booking, in the property's group. Nobody
connects it or maps rate plans to it: it sells every rate plan of its property, under the rules of a
shopping channel's push_booking, and the channels list leaves it out (backend/channels.py). It goes when
its property goes (storage/0009).
"""

from __future__ import annotations

import secrets

from backend.identity import hash_secret
from storage import Connection, new_id, utc_now

DIRECT = "Offline"  # its channel code and title: the bookings' `ota_name`


def direct_channel(conn: Connection, prop) -> str:
    """The ID of the property's direct channel, made now if it has none, in the caller's transaction."""
    found = conn.execute("SELECT channel_id FROM direct_channels WHERE property_id = ?", (prop["id"],)).fetchone()
    if found:
        return found[0]
    channel_id, now = new_id(), utc_now()
    # No adapter ever calls in for it: its inbound key is one nobody is given.
    conn.execute("INSERT INTO channels (id, group_id, title, channel_code, inbound_key_hash, is_active, inserted_at, "
                 "updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?)",
                 (channel_id, prop["group_id"], DIRECT, DIRECT, hash_secret(secrets.token_urlsafe(32)), now, now))
    conn.execute("INSERT INTO direct_channels (property_id, channel_id) VALUES (?, ?)", (prop["id"], channel_id))
    return channel_id
