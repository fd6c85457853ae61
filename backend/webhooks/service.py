"""Webhooks as the service's Webhooks API has them, per property: whoever reaches the property manages its
webhooks (someone else's is a 401, as every object). Beyond the service: a signing secret, shown once in the
create answer and never again (kept sealed: backend/outbox/signing_secrets.py); each webhook's delivery state, its
delivery log, redelivery and resume; and a test call that reports how the receiver answered (backend/webhooks/trials.py
runs it)."""

from __future__ import annotations

import builtins
import json
from collections.abc import Callable
from concurrent.futures import Future
from functools import cached_property
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import httpx

from backend.core.addresses import host_problem
from backend.core.errors import BadRequest, Errors, NotFound, Unauthorized, ValidationFailed
from backend.core.events import EventBus
from backend.core.listing import ListQuery
from backend.core.validation import validate
from backend.identity.models import Actor
from backend.inventory.ari import Ari
from backend.outbox import deliverer
from backend.outbox.deliverer import Event
from backend.outbox.sending import Sender, SendFailed, new_secret
from backend.outbox.signing_secrets import seal
from backend.outbox.status import destination_status, every_page
from backend.properties.service import Properties
from backend.webhooks import masks, payloads
from backend.webhooks.models import WebhookInput
from backend.webhooks.route import Hook, WebhookRoute, post
from backend.webhooks.store import (
    delete_webhook,
    delivery_page,
    insert_webhook,
    property_ids_found,
    update_webhook,
    webhook,
    webhook_count,
    webhook_delivery,
    webhook_page,
)
from backend.webhooks.trials import Trials
from storage import Connection, Row, Store, new_id, utc_now

if TYPE_CHECKING:
    from backend.core.keys import Keys

PER_PROPERTY = 20
KIND = WebhookRoute.kind
EDITABLE = tuple(name for name in WebhookInput.model_fields if name != "is_global")
# Sent back by clients that PUT what they read (or what create answered); ignored.
READ_ONLY = frozenset({"id", "inserted_at", "updated_at", "state", "secret"})
TEST_PAYLOAD = {"message": "A test event from Frontdesk: your endpoint is reachable."}


class Webhooks:
    def __init__(self, store: Store, events: EventBus, properties: Properties, ari: Ari, keys: Callable[[], Keys],
                 private_addresses: bool, trials: Trials) -> None:
        self.store, self.events, self.properties, self.ari, self.keys = store, events, properties, ari, keys
        self.private_addresses = private_addresses  # may a callback URL point to a private address
        self.trials = trials  # where test calls run, and how many a user may start

    @cached_property
    def route(self) -> WebhookRoute:
        """The deliverer's route, and its one pooled client, which the test calls share."""
        return WebhookRoute(self.store, self.ari, Sender(self.private_addresses), self.keys)

    # --- reading -----------------------------------------------------------------------------

    def list(self, actor: Actor, query: ListQuery) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        rows, meta = webhook_page(self.store, query, actor)
        return [self._attributes(row) for row in rows], meta

    def statuses(self, actor: Actor) -> builtins.list[dict[str, Any]]:
        """Each webhook of the actor's properties as the outbox's status shows it (backend/outbox/status.py)."""
        rows = every_page(lambda query: webhook_page(self.store, query, actor))
        return [destination_status("webhook", row["id"], f"to {urlsplit(row['callback_url']).hostname}",
                                   bool(row["is_active"]), self._state(row)) for row in rows]

    def get(self, actor: Actor, webhook_id: str) -> dict[str, Any]:
        return self._attributes(self._row(actor, webhook_id))

    def deliveries(self, actor: Actor, webhook_id: str,
                   query: ListQuery) -> tuple[builtins.list[dict[str, Any]], dict[str, Any]]:
        """The delivery log, latest first: each event sent or being retried, with its attempts and the last answer."""
        self._row(actor, webhook_id)
        rows, meta = delivery_page(self.store, query, webhook_id)
        return [_delivery(row) for row in rows], meta

    def _row(self, actor: Actor, webhook_id: str) -> Row:
        row = webhook(self.store, webhook_id)
        if row is None:
            raise NotFound(f"webhook {webhook_id} does not exist")
        self.properties.require(actor, row["property_id"])
        return row

    def _attributes(self, row: Row) -> dict[str, Any]:
        state = self._state(row) or {}
        return {
            "id": row["id"],
            "property_id": row["property_id"],
            "callback_url": row["callback_url"],
            "event_mask": row["event_mask"],
            "headers": _json(row["headers"]),
            "request_params": _json(row["request_params"]),
            "is_active": bool(row["is_active"]),
            "send_data": bool(row["send_data"]),
            "state": {name: state.get(name) for name in ("waiting", "last_delivered_at", "failing_since",
                                                         "last_error", "attempts", "next_attempt_at")},
            "inserted_at": row["inserted_at"],
            "updated_at": row["updated_at"],
        }

    def _state(self, row: Row) -> dict[str, Any] | None:
        return deliverer.state(self.store, row["id"], self.route.wanted_by(Hook.of(row)))

    # --- writing -----------------------------------------------------------------------------

    def create(self, actor: Actor, data: Any) -> dict[str, Any]:
        model = validate(WebhookInput, data)
        self._check(actor, model, set(EDITABLE))
        webhook_id, secret, now = new_id(), new_secret(), utc_now()
        with self.store.transaction() as conn:
            self._room_for_one_more(conn, model.property_id)
            insert_webhook(conn, webhook_id, model.property_id, actor.user_id, _columns(model),
                           seal(self.keys(), secret, webhook_id), now)
            deliverer.add_destination(conn, webhook_id, KIND)
        self.events.publish("webhook.changed", webhook_id, action="created")
        return {**self.get(actor, webhook_id), "secret": secret}

    def update(self, actor: Actor, webhook_id: str, data: Any) -> dict[str, Any]:
        """Only the fields sent change. `is_active: true` sent resumes a failing webhook too. Checked first outside
        the write lock (a callback's host is resolved then), and again inside it on the webhook as it is by then,
        which the write starts from: a change made meanwhile is kept, and a move into a full property refused."""
        if not isinstance(data, dict):
            raise BadRequest(["the webhook must be a JSON object"])
        changes = {name: value for name, value in data.items() if name not in READ_ONLY}
        self._merged(actor, webhook_id, changes, resolve=True)
        with self.store.transaction() as conn:
            current, model = self._merged(actor, webhook_id, changes, resolve=False)
            if model.property_id != current["property_id"]:
                self._room_for_one_more(conn, model.property_id)
            update_webhook(conn, webhook_id, model.property_id, _columns(model), utc_now())
            if changes.get("is_active") is True:
                deliverer.resume(conn, webhook_id)
        self.events.publish("webhook.changed", webhook_id, action="updated")
        return self.get(actor, webhook_id)

    def _merged(self, actor: Actor, webhook_id: str, changes: dict[str, Any],
                *, resolve: bool) -> tuple[dict[str, Any], WebhookInput]:
        current = self._attributes(self._row(actor, webhook_id))
        model = validate(WebhookInput, {**{name: current[name] for name in EDITABLE}, **changes})
        self._check(actor, model, set(changes), resolve=resolve)
        return current, model

    def delete(self, actor: Actor, webhook_id: str) -> None:
        """Its place in the outbox and its delivery log go with it (a trigger of storage/0014_webhooks.sql)."""
        self._row(actor, webhook_id)
        with self.store.transaction() as conn:
            delete_webhook(conn, webhook_id)
        self.events.publish("webhook.changed", webhook_id, action="deleted")

    def resume(self, actor: Actor, webhook_id: str) -> dict[str, Any]:
        """A failing webhook is tried again at once, from the event it stopped at."""
        self._row(actor, webhook_id)
        with self.store.transaction() as conn:
            deliverer.resume(conn, webhook_id)
        self.events.publish("webhook.changed", webhook_id, action="resumed")
        return self.get(actor, webhook_id)

    def redeliver(self, actor: Actor, webhook_id: str, delivery_id: str) -> None:
        """The delivery's event is sent again, once, as soon as the webhook is active and not failing; the log says
        how it went."""
        with self.store.transaction() as conn:  # a webhook deleted meanwhile leaves no redelivery behind
            self._row(actor, webhook_id)
            row = webhook_delivery(conn, webhook_id, delivery_id)
            if row is None:
                raise NotFound(f"delivery {delivery_id} of this webhook does not exist")
            if row["seq"] is None:
                raise ValidationFailed.one("delivery_id", "its event is no longer kept, so it can't be sent again")
            deliverer.redeliver(conn, webhook_id, row["event_seq"])
        self.events.publish("webhook.changed", webhook_id, action="redelivery")

    def _check(self, actor: Actor, model: WebhookInput, sent: set[str], *, resolve: bool = True) -> None:
        """What takes the database or the network: the property is the caller's, the rooms and plans the mask
        names are the property's, the callback is on a public address. Only for the fields sent (and those that
        depend on them): a stored mask whose plan has since gone does not block a change of something else."""
        errors = Errors()
        try:
            self.properties.require(actor, model.property_id)
        except (NotFound, Unauthorized):
            errors.add("property_id", "is not a property of yours")
        if sent & {"event_mask", "property_id"}:
            for message in self._unknown_ids(model):
                errors.add("event_mask", message)
        problem = self._address_problem(model.callback_url) if resolve and "callback_url" in sent else None
        if problem:
            errors.add("callback_url", problem)
        errors.raise_if_any()

    def _address_problem(self, url: str) -> str | None:
        """Why the sender could not POST to it: a host the HTTP client can't encode, or one on a private address
        (checked again by the sender at every call, since a name may resolve elsewhere later)."""
        try:
            host = httpx.URL(url).host
        except httpx.InvalidURL:
            return "is not an address an HTTP client can reach"
        problem = host_problem(host, self.private_addresses)
        return problem and f"its host {problem}"

    def _unknown_ids(self, model: WebhookInput) -> builtins.list[str]:
        rooms, plans = masks.parse(model.event_mask).named_ids()
        found = property_ids_found(self.store, model.property_id, rooms, plans)
        return [f"names {item[:40]!r}, which is not a {noun} of this property"
                for noun, ids in (("room type", rooms), ("rate plan", plans)) for item in sorted(ids - found)]

    @staticmethod
    def _room_for_one_more(conn: Connection, property_id: str) -> None:
        if webhook_count(conn, property_id) >= PER_PROPERTY:
            raise ValidationFailed.one("property_id", f"has {PER_PROPERTY} webhooks, the most a property may have")

    # --- testing -----------------------------------------------------------------------------

    def test(self, actor: Actor, data: Any) -> Future[dict[str, Any]]:
        """A test event to a webhook not yet made (the create body), signed with a secret made for it, which the
        answer shows so that the receiver's check of the signature can be tried. Started on the test calls' own
        threads (a 429 or 503 here when it may not start); the body is checked there too, since checking its
        callback resolves a name."""
        def run() -> dict[str, Any]:
            model = validate(WebhookInput, data)
            self._check(actor, model, set(EDITABLE))
            hook = Hook(new_id(), model.property_id, model.callback_url, masks.parse(model.event_mask),
                        model.headers or {}, model.request_params or {}, model.send_data)
            secret = new_secret()
            return {**self._try(hook, secret), "secret": secret}

        return self.trials.start(actor.user_id, run)

    def test_saved(self, actor: Actor, webhook_id: str) -> Future[dict[str, Any]]:
        """A test event to a webhook as it is, signed with its own secret; started as `test` is."""
        def run() -> dict[str, Any]:
            row = self._row(actor, webhook_id)
            return self._try(Hook.of(row), self.route.secret(row))

        return self.trials.start(actor.user_id, run)

    def _try(self, hook: Hook, secret: str) -> dict[str, Any]:
        """One `test` event, sent now, not retried and not logged; a receiver that does not take it is a 422 on
        callback_url saying how it went, never what the receiver said (a test call must not be a probe that reads
        other servers' answers): the status class, "timed out" or "could not connect"."""
        event = Event(0, 0, new_id(), "test", hook.property_id, None, TEST_PAYLOAD, utc_now())
        try:
            status = post(self.route.sender, hook, event.id, payloads.message(event, hook.send_data, event.payload),
                          secret)
        except SendFailed as failed:
            raise ValidationFailed.one("callback_url", f"did not take the test event: {failed.outline}") from None
        return {"id": event.id, "event": event.event, "status": status}


def _columns(model: WebhookInput) -> tuple[Any, ...]:
    return (model.callback_url, model.event_mask, _dumps(model.headers), _dumps(model.request_params),
            int(model.is_active), int(model.send_data))


def _dumps(value: dict[str, str] | None) -> str | None:
    return None if value is None else json.dumps(value)


def _json(text: str | None) -> dict[str, str] | None:
    return None if text is None else json.loads(text)


def _delivery(row: Row) -> dict[str, Any]:
    return {"id": row["id"], "event_id": row["event_id"], "event": row["event"], "event_at": row["event_at"],
            "status": row["status"], "attempts": row["attempts"], "response_status": row["response_status"],
            "warnings": json.loads(row["warnings"]) if row["warnings"] else None, "last_error": row["last_error"],
            "next_retry_at": row["next_retry_at"], "updated_at": row["updated_at"]}
