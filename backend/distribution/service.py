"""ARI to channels, as the engine offers it (`engine.distribution`): the pull feed to a channel's adapter, and to
its operators the channel's sync state, its delivery log, full sync, resuming a failing channel and a new signing
secret. Every operator call checks access as the channel itself does (401 for someone else's)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any

from pydantic_core import from_json

from backend.core.errors import NotSupported
from backend.core.events import EventBus
from backend.distribution import full_sync, pull, settings
from backend.distribution.mapped import Mapped, MappedChannels
from backend.distribution.reading import Reader, windows_of
from backend.distribution.route import ChannelRoute
from backend.distribution.store import acked_cursor, channel_deliveries
from backend.identity.models import Actor
from backend.inventory.calendar import Calendar
from backend.outbox import deliverer
from backend.outbox.sending import Sender
from backend.outbox.status import destination_status, every_page
from storage import Row, Store

if TYPE_CHECKING:
    from backend.channels.service import Channels  # handed in by the engine: the channels' access checks
    from backend.core.keys import Keys

RECENT = 50  # deliveries a channel's log shows by default


class Distribution:
    def __init__(self, store: Store, events: EventBus, channels: Channels, calendar: Calendar,
                 clock: Callable[[], datetime], keys: Callable[[], Keys], private_addresses: bool) -> None:
        self.store, self.events, self.channels, self.clock, self.keys = store, events, channels, clock, keys
        self.private_addresses = private_addresses
        self.mapped = MappedChannels(store)
        self.reader = Reader(store, calendar, clock)

    @cached_property
    def route(self) -> ChannelRoute:
        return ChannelRoute(self.store, self.mapped, self.reader, Sender(self.private_addresses), self.keys)

    # --- the pull feed, to the channel's adapter ---------------------------------------------------

    def feed(self, channel: Row, cursor: int | None) -> pull.Page:
        """What changed since `cursor` (default: where the channel acked up to)."""
        mapped = self._taking(channel["id"], "pull")
        start = pull.checked(self.store, cursor) if cursor is not None else acked_cursor(self.store, channel["id"]) or 0
        return pull.page(self.store, self.reader, mapped, start)

    def ack(self, channel: Row, cursor: Any) -> int:
        self._taking(channel["id"], "pull")
        return pull.ack(self.store, channel["id"], cursor, self.clock())

    # --- to operators --------------------------------------------------------------------------------

    def sync_of(self, channel: dict[str, Any]) -> dict[str, Any] | None:
        """A channel's sync state (a channel read with access): its distribution, events waiting, last delivered,
        failing since, last error; None for a channel that takes no ARI."""
        found = self._state(channel)
        mode = settings.mode_of(channel["settings"])
        if mode == "none" or found is None:
            return None
        return {"ari_distribution": mode, "waiting": found["waiting"], "last_delivered_at": found["last_delivered_at"],
                "failing_since": found["failing_since"], "last_error": found["last_error"],
                "attempts": found["attempts"], "next_attempt_at": found["next_attempt_at"], "cursor": found["cursor"]}

    def _state(self, channel: dict[str, Any]) -> dict[str, Any] | None:
        mapped = self.mapped.get(channel["id"])
        return deliverer.state(self.store, channel["id"], deliverer.Wanted(mapped.takes) if mapped else None)

    def statuses(self, actor: Actor) -> list[dict[str, Any]]:
        """Each channel of the actor's groups that takes ARI, as the outbox's status shows it
        (backend/outbox/status.py)."""
        return [destination_status("channel", channel["id"], f"“{channel['title']}”", bool(channel["is_active"]),
                                   self._state(channel))
                for channel in every_page(lambda query: self.channels.list(actor, query))
                if settings.mode_of(channel["settings"]) != "none"]

    def state(self, actor: Actor, channel_id: str) -> dict[str, Any] | None:
        return self.sync_of(self.channels.get(actor, channel_id))

    def deliveries(self, actor: Actor, channel_id: str, limit: int = RECENT) -> list[dict[str, Any]]:
        """The channel's delivery log, newest first: each event sent (or being retried) with its status, attempts,
        the channel's answer, what it warned of (an OTA answer's Warnings) and the last error; an event already
        pruned shows without its range."""
        self.channels.get(actor, channel_id)
        rows = channel_deliveries(self.store, channel_id, limit)
        return [{**{k: row[k] for k in row.keys() if k != "payload"},
                 "warnings": from_json(row["warnings"]) if row["warnings"] else None,
                 "payload": from_json(row["payload"]) if row["payload"] else None} for row in rows]

    def full_sync(self, actor: Actor, channel_id: str) -> int:
        """Queue the whole window of every mapped plan and room type for the channel, and resume it if it was
        failing; how many ranges were queued."""
        self.channels.get(actor, channel_id)
        mapped = self._taking(channel_id)
        windows = windows_of(self.store, {t.property_id for t in mapped.plans.values()}, self.clock())
        with self.store.transaction() as conn:
            queued = full_sync.queue(conn, mapped, windows)
            deliverer.resume(conn, channel_id)
        self.events.publish("channel.changed", channel_id, action="full_sync")
        return queued

    def resume(self, actor: Actor, channel_id: str) -> None:
        """A failing channel is tried again at once, from the event it stopped at."""
        self.channels.get(actor, channel_id)
        self._taking(channel_id)
        with self.store.transaction() as conn:
            deliverer.resume(conn, channel_id)
        self.events.publish("channel.changed", channel_id, action="resumed")

    def rotate_secret(self, actor: Actor, channel_id: str) -> str:
        """A new signing secret for a push channel (the old one stops at once); shown this once."""
        self.channels.get(actor, channel_id)
        self._taking(channel_id, "push")
        with self.store.transaction() as conn:
            secret = settings.rotate_secret(conn, channel_id, self.keys)
        self.events.publish("channel.changed", channel_id, action="secret")
        return secret

    def _taking(self, channel_id: str, mode: str | None = None) -> Mapped:
        """The channel's mapping, if it takes ARI (by `mode`, when given); else 422 not_supported."""
        mapped = self.mapped.get(channel_id)
        if mapped is None or mapped.mode == "none" or mode not in (None, mapped.mode):
            wanted = mode or "pull or push"
            raise NotSupported(f"this channel does not take ARI by {wanted}: set settings.ari_distribution first")
        return mapped
