"""Webhooks as a kind of the outbox's destinations: an active webhook gets its property's events that its mask
wants, one event a call, signed with its secret (kept sealed, opened to sign: backend/outbox/signing_secrets.py); the
event's id is the `webhook-id` header. A webhook never gets the ARI of a channel's full sync (an event with a
channel), which is that channel's alone."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode, urlsplit, urlunsplit

from pydantic_core import from_json

from backend.inventory.ari import Ari
from backend.outbox.deliverer import Event, Wanted
from backend.outbox.sending import Sender, SendFailed, signature_headers
from backend.outbox.signing_secrets import unseal
from backend.webhooks import masks, payloads
from backend.webhooks.store import active_webhooks, plan_room_type, webhook
from storage import Connection, Row, Store

if TYPE_CHECKING:
    from backend.core.keys import Keys

EXCERPT = 200  # characters of a receiver's answer kept in an error; the rest is never stored or shown
USER_AGENT = "Frontdesk-Webhooks/1"


@dataclass(frozen=True)
class Hook:
    """A webhook as it sends: where, how, and what it wants."""

    id: str
    property_id: str
    callback_url: str
    mask: masks.Mask
    headers: dict[str, str]
    request_params: dict[str, str]
    send_data: bool

    @classmethod
    def of(cls, row: Row) -> Hook:
        return cls(row["id"], row["property_id"], row["callback_url"], masks.parse(row["event_mask"]),
                   from_json(row["headers"] or "{}"), from_json(row["request_params"] or "{}"),
                   bool(row["send_data"]))


def post(sender: Sender, hook: Hook, message_id: str, body: dict[str, Any], secret: str) -> int:
    """POST one message signed with `secret`; the receiver's status when it is a 2xx, else SendFailed saying what
    happened."""
    text = json.dumps(body, separators=(",", ":"), ensure_ascii=False)
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT, **hook.headers,
               **signature_headers(secret, message_id, text)}
    answer = sender.post(with_params(hook.callback_url, hook.request_params), text, headers)
    if not 200 <= answer.status < 300:
        said = excerpt(answer.text)
        raise SendFailed(f"answered {answer.status}" + (f": {said}" if said else ""), answer.status,
                         f"the endpoint answered {answer.status // 100}xx")
    return answer.status


def with_params(url: str, params: dict[str, str]) -> str:
    """The callback URL with the webhook's request_params added to its query."""
    if not params:
        return url
    parts = urlsplit(url)
    query = "&".join(filter(None, (parts.query, urlencode(params))))
    return urlunsplit(parts._replace(query=query))


def excerpt(text: str) -> str:
    """The start of a receiver's answer, on one line: enough to tell what it said, never the whole of it."""
    flat = " ".join("".join(c if c.isprintable() else " " for c in text[:EXCERPT * 2]).split())
    return flat[:EXCERPT] + ("…" if len(flat) > EXCERPT else "")


class WebhookRoute:
    kind = "webhook"
    batch = 1

    def __init__(self, store: Store, ari: Ari, sender: Sender, keys: Callable[[], Keys]) -> None:
        self.store, self.ari, self.sender, self.keys = store, ari, sender, keys

    def destinations(self) -> dict[str, str | None]:
        return active_webhooks(self.store)

    def wanted(self, destination_id: str) -> Wanted | None:
        row = self._row(destination_id)
        return None if row is None else self.wanted_by(Hook.of(row))

    def wanted_by(self, hook: Hook) -> Wanted:
        return Wanted(lambda event: self.takes(hook, event), hook.property_id)

    def takes(self, hook: Hook, event: Event) -> bool:
        """Whether the webhook gets the event: its property's, wanted by its mask, not a channel's alone (its full
        sync, what its mapping's changes tell it) nor the window's moves, which only channels are told (a webhook's
        ARI is the values of the nights a change named, never cut to the window)."""
        if event.property_id != hook.property_id:
            return False
        if event.event == "ari":
            return (event.channel_id is None and "cause" not in event.payload
                    and bool(self._ari_values(hook, event)))
        return hook.mask.wants(event.event)

    def send(self, destination_id: str, events: list[Event]) -> int | None:
        """None, without a call, when there is no one left to tell (the webhook was deleted meanwhile, and its
        destination with it) or nothing (an ARI event's rate plan or room type is gone)."""
        row, event = self._row(destination_id), events[0]
        if row is None:
            return None
        hook = Hook.of(row)
        payload: Any = event.payload  # an ARI event's is sent as its ranges, a list
        if event.event == "ari":
            payload = payloads.ari_ranges(self.ari, event, self._ari_values(hook, event))
            if not payload:
                return None
        return post(self.sender, hook, event.id, payloads.message(event, hook.send_data, payload), self.secret(row))

    def secret(self, row: Row) -> str:
        """A webhook's signing secret in clear, to sign with."""
        return unseal(self.keys(), row["secret"], row["id"])

    def failed(self, conn: Connection, destination_id: str, error: str, events: list[Event]) -> None:
        """Nothing to record: the delivery log and the webhook's state say it."""

    def _row(self, webhook_id: str) -> Row | None:
        return webhook(self.store, webhook_id)

    def _ari_values(self, hook: Hook, event: Event) -> tuple[str, ...]:
        target = masks.Target(event.payload.get("room_type_id"), event.payload.get("rate_plan_id"))
        return hook.mask.ari_values(target, self._room_of)

    def _room_of(self, rate_plan_id: str) -> str | None:
        return plan_room_type(self.store, rate_plan_id)
