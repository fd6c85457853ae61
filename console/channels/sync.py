"""A channel's ARI as staff read it: how it gets it (pushed or pulled), its state, and its delivery log with each
range named by its rate plan or room type and its nights."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from rich.text import Text

from backend.engine import Engine
from backend.identity.models import Actor
from console.channels.delivery_log import Entry, Log
from console.channels.words import event_words, nights, state_lines, warning_words
from console.kit.fit_table import Fitted

FORMATS = {"json": "JSON", "ota": "OpenTravel XML"}
NOUN = "change"  # what a channel waits for


def sent_word(channel: dict[str, Any]) -> str:
    """A pushed channel is sent its changes; a pulling one reads them (and says so by acknowledging them)."""
    return "last read" if channel["settings"].get("ari_distribution") == "pull" else "last sent"


def distribution_words(channel: dict[str, Any]) -> str:
    settings = channel["settings"]
    if settings.get("ari_distribution") == "pull":
        return "Its adapter pulls ARI from Frontdesk and acknowledges what it applied."
    return f"Frontdesk pushes ARI to {settings['ari_url']} as {FORMATS[settings.get('ari_format', 'json')]}."


def channel_log(engine: Engine, actor: Actor, channel_id: str) -> Log:
    """The channel's log (runs in a worker)."""
    channel = engine.channels.get(actor, channel_id)
    state = engine.distribution.sync_of(channel)
    if state is None:
        return Log([f"“{channel['title']}” gets no ARI: choose push or pull in its dialog (e) first."], [], "")
    now = engine.config.clock()
    deliveries = engine.distribution.deliveries(actor, channel_id)
    names = target_names(engine, actor, {d["payload"]["property_id"] for d in deliveries if d["payload"]})
    about = [distribution_words(channel), *state_lines(state, NOUN, sent_word(channel))]
    empty = ("Nothing is pushed to a channel that pulls: its adapter reads the changes itself."
             if state["ari_distribution"] == "pull" else "Nothing sent yet.")
    return Log(about, [entry(d, names, now) for d in deliveries], empty)


def target_names(engine: Engine, actor: Actor, property_ids: set[str]) -> dict[str, str]:
    """Property, room type and rate plan titles by ID, for the properties the log names; a rate plan with its
    room type's, since plans of different room types share titles."""
    names = {p["id"]: p["title"] for p in engine.properties.options(actor)} if property_ids else {}
    for property_id in property_ids:
        rooms = {room["id"]: room["title"] for room in engine.inventory.room_types.for_property(actor, property_id)}
        plans = engine.inventory.rate_plans.for_property(actor, property_id)
        names |= rooms | {plan["id"]: f"{plan['title']}, {rooms.get(plan['room_type_id'], '?')}" for plan in plans}
    return names


def entry(delivery: dict[str, Any], names: dict[str, str], now: datetime) -> Entry:
    return Entry(delivery["id"], delivery["updated_at"], what(delivery, names, now), delivery["status"],
                 delivery["attempts"], delivery["last_error"], delivery["next_retry_at"],
                 warning_words(delivery.get("warnings")))


def what(delivery: dict[str, Any], names: dict[str, str], now: datetime) -> Fitted:
    """A range: its nights and its rate plan (or its room type's availability), with the property after them; "closed"
    after a range the channel was told to stop selling."""
    payload = delivery["payload"]
    if delivery["event"] != "ari" or not payload:
        return Fitted(Text(event_words(delivery["event"])), None)
    plan = payload.get("rate_plan_id")
    target = names.get(plan, "a rate plan gone since") if plan else \
        f"{names.get(payload['room_type_id'], 'a room type gone since')}: availability"
    closed = ", closed" if payload.get("closed") else ""
    return Fitted(Text(f"{nights(payload['date_from'], payload['date_to'], now.date())} {target}{closed}"),
                  names.get(payload["property_id"]))
