"""The deliverer's route to push channels (destinations of kind `channel`; backend/outbox/deliverer.py).

It serves the active channels whose `ari_distribution` is push. A channel wants the `ari` events of its mapped rate
plans and their room types (a derived plan's own events included: its parent's change records one for it), and
those recorded for it alone (its full sync) — never another channel's. Up to `batch` events go in one delivery:
their ranges are merged per plan and room type, read as they are now, collapsed, and sent in calls of at most
`PER_CALL` values each, every call signed with the channel's secret (Standard Webhooks headers; kept sealed, opened
to sign: backend/outbox/signing_secrets.py). A call that fails
fails the delivery, which the deliverer retries whole: values are read again, so a retry is never stale.

An OTA answer's `Warnings` are kept in the delivery log (`warnings`), and logged. A failed delivery records a
`sync_error` event (one per property of the channel, `channel_id` set) on the first
failure after a success and when the channel is marked failing, not on every retry in between.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from itertools import count
from typing import TYPE_CHECKING, cast

from pydantic_core import from_json

from backend.distribution import json_format, ota_format
from backend.distribution.mapped import MappedChannels
from backend.distribution.reading import Changes, Reader
from backend.distribution.settings import KIND
from backend.distribution.store import active_channel_destinations, ari_secret, channel_failure, channel_property_ids
from backend.outbox.deliverer import Delivered, Event, Wanted
from backend.outbox.record import record
from backend.outbox.sending import Sender, SendFailed, signature_headers
from backend.outbox.signing_secrets import unseal
from storage import Connection, Store

if TYPE_CHECKING:
    from backend.core.keys import Keys

log = logging.getLogger("frontdesk.distribution")
FORMATS = {"json": json_format, "ota": ota_format}


class ChannelRoute:
    kind = KIND
    batch = 100  # events in one delivery: a 365-day change of 50 rate plans is one

    def __init__(self, store: Store, mapped: MappedChannels, reader: Reader, sender: Sender,
                 keys: Callable[[], Keys]) -> None:
        self.store, self.mapped, self.reader, self.sender, self.keys = store, mapped, reader, sender, keys

    def destinations(self) -> dict[str, str | None]:
        return {row[0]: None for row in active_channel_destinations(self.store)
                if from_json(row[1]).get("ari_distribution") == "push"}

    def wanted(self, destination_id: str) -> Wanted | None:
        mapped = self.mapped.get(destination_id)
        return None if mapped is None else Wanted(mapped.takes)

    def send(self, destination_id: str, events: list[Event]) -> Delivered:
        mapped = self.mapped.get(destination_id)
        if mapped is None or mapped.mode != "push":
            raise SendFailed("the channel no longer takes ARI by push")
        read = self.reader.read(mapped, Changes.of(events, mapped))
        sealed = ari_secret(self.store.conn, destination_id)
        secret = unseal(self.keys(), cast(str, sealed), destination_id)  # a push channel always has one
        form = FORMATS[mapped.settings.get("ari_format", "json")]
        status, warnings = None, []  # no call: every night already past, nothing to tell
        for call in form.calls(read, mapped, _ids(events[-1].id)):
            headers = {"content-type": call.content_type, **signature_headers(secret, call.id, call.body)}
            answer = self.sender.post(mapped.settings["ari_url"], call.body, headers)
            for warning in form.check(answer):
                log.warning("channel %s took ARI with a warning: %s", destination_id, warning)
                warnings.append(warning)
            status = answer.status
        return Delivered(status, tuple(warnings))

    def failed(self, conn: Connection, destination_id: str, error: str, events: list[Event]) -> None:
        row = channel_failure(conn, destination_id)
        if row is None or (row["attempts"] != 1 and row["failing_since"] is None):
            return
        properties = channel_property_ids(conn, destination_id)
        payload = {"channel_id": destination_id, "channel_title": row["title"], "property_ids": properties,
                   "error": error, "attempts": row["attempts"], "failing": row["failing_since"] is not None}
        owners: list[str | None] = [*properties] or [None]
        for property_id in owners:
            record(conn, "sync_error", property_id, payload, channel_id=destination_id)


def _ids(base: str) -> Iterator[str]:
    """The ids of a delivery's calls: the last event's id and the call's number, the same on a retry."""
    return (f"{base}-{number}" for number in count(1))
