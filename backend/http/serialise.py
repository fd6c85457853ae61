"""Engine records as API entities (`id`, `type`, `attributes`, `relationships`)."""

from __future__ import annotations

from typing import Any

from backend.http.responses import entity


def property_entity(p: dict[str, Any]) -> dict[str, Any]:
    return entity("property", p, {"group": {"data": {"id": p["group_id"], "type": "group"}},
                                  "facilities": {"data": [{"id": f, "type": "property_facility"}
                                                          for f in p["facilities"]]}})


def channel_entity(c: dict[str, Any]) -> dict[str, Any]:
    return entity("channel", c, {"properties": {"data": [{"id": p, "type": "property"} for p in c["property_ids"]]}})


def installation_entity(i: dict[str, Any]) -> dict[str, Any]:
    return entity("application_installation", i)


def booking_entity(b: dict[str, Any]) -> dict[str, Any]:
    """`relationships.message_thread` once the booking has a conversation."""
    attributes = {k: v for k, v in b.items() if k != "message_thread_id"}
    relationships = {"property": {"data": {"id": b["property_id"], "type": "property"}},
                     "channel": {"data": {"id": b["channel_id"], "type": "channel"}}}
    if b.get("message_thread_id"):
        relationships["message_thread"] = {"data": {"id": b["message_thread_id"], "type": "message_thread"}}
    return entity("booking", attributes, relationships)


def revision_entity(r: dict[str, Any]) -> dict[str, Any]:
    return entity("booking_revision", r, {"booking": {"data": {"id": r["booking_id"], "type": "booking"}}})


def message_entity(m: dict[str, Any]) -> dict[str, Any]:
    """The spec's message: attachments are links."""
    attributes = {k: v for k, v in m.items() if k != "thread_id"}
    attributes["attachments"] = [a["url"] for a in m["attachments"]]
    return entity("message", attributes, {"message_thread": {"data": {"id": m["thread_id"], "type": "message_thread"}}})


def thread_entity(t: dict[str, Any]) -> dict[str, Any]:
    attributes = {k: t[k] for k in ("id", "title", "is_closed", "provider", "message_count", "unread_count",
                                    "last_message_received_at", "inserted_at", "updated_at")}
    attributes["last_message"] = message_entity(t["last_message"]) if t["last_message"] else None
    relationships: dict[str, Any] = {
        "property": {"data": {"id": t["property_id"], "type": "property", "title": t["property_title"]}},
        "channel": {"data": {"id": t["channel_id"], "type": "channel"} if t["channel_id"] else None}}
    if t["booking_id"]:
        relationships["booking"] = {"data": {"id": t["booking_id"], "type": "booking"}}
    return entity("message_thread", attributes, relationships)
