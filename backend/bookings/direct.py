"""A property's direct channel: where the bookings the property takes itself are kept (POST /api/v1/bookings,
the service's Booking CRS API, https://docs.channex.io/api-v.1-documentation/booking-crs-api, whose
bookings come from `ota_name` "Offline" with numbers `OFL-<code>`).

One per property, made the first time the property takes a booking, in the property's group. Nobody
connects it or maps rate plans to it: it sells every rate plan of its property, under the rules of a
shopping channel's push_booking, and the channels list leaves it out (backend/channels/service.py). It goes when
its property goes (storage/0009).
"""

from __future__ import annotations

import secrets

from backend.bookings.store import direct_channel_id, link_direct_channel
from backend.channels.store import insert_direct_channel
from backend.identity.service import hash_secret
from storage import Connection, Row, new_id, utc_now

DIRECT = "Offline"  # its channel code and title: the bookings' `ota_name`


def direct_channel(conn: Connection, prop: Row) -> str:
    """The ID of the property's direct channel, made now if it has none, in the caller's transaction."""
    found = direct_channel_id(conn, prop["id"])
    if found is not None:
        return found
    channel_id, now = new_id(), utc_now()
    # No adapter ever calls in for it: its inbound key is one nobody is given.
    insert_direct_channel(conn, channel_id, prop["group_id"], DIRECT, DIRECT, hash_secret(secrets.token_urlsafe(32)),
                          now)
    link_direct_channel(conn, prop["id"], channel_id)
    return channel_id
