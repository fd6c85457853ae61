"""Engine records as API entities (`id`, `type`, `attributes`, `relationships`)."""

from __future__ import annotations

from typing import Any

from backend.http.responses import entity
from backend.inventory.rooms import with_service_names
from backend.properties import facilities


def property_entity(p: dict[str, Any]) -> dict[str, Any]:
    """The service's relationships: `groups` and `facilities`, each with its attributes (`group` is ours)."""
    attributes = {k: v for k, v in p.items() if k != "groups"}
    return entity("property", attributes, {
        "group": {"data": {"id": p["group_id"], "type": "group"}},
        "groups": {"data": [{"id": g["id"], "type": "group", "attributes": g} for g in p["groups"]]},
        "facilities": {"data": [facility_entity(facilities.by_id()[f]) for f in p["facilities"]]}})


def group_entity(g: dict[str, Any]) -> dict[str, Any]:
    """The service's group: its properties as relationships that carry their attributes."""
    attributes = {k: v for k, v in g.items() if k != "properties"}
    return entity("group", attributes, {"properties": {"data": [{"id": p["id"], "type": "property", "attributes": p}
                                                                for p in g["properties"]]}})


def hotel_policy_entity(p: dict[str, Any]) -> dict[str, Any]:
    """Also under the service's documented names `checkin_time` and `checkout_time`; `property` null while no
    property names it."""
    prop = p["property_id"]
    return entity("hotel_policy", with_service_names(p),
                  {"property": {"data": {"id": prop, "type": "property"} if prop else None}})


def facility_entity(f: dict[str, Any]) -> dict[str, Any]:
    return entity("facility", f)


def room_type_entity(r: dict[str, Any]) -> dict[str, Any]:
    """The service's relationships. A room's facilities are titles: each is given the ID the catalogue gives
    that title (a name-based UUID), so "Free WiFi" is the same facility on a room as on a property."""
    return entity("room_type", r, {
        "property": {"data": {"id": r["property_id"], "type": "property"}},
        "facilities": {"data": [facility_entity({"id": facilities.facility_id(t), "title": t})
                                for t in r["facilities"]]}})


def rate_plan_entity(p: dict[str, Any]) -> dict[str, Any]:
    """The service's relationships: its room type, property and tax set (null data: none)."""
    tax_set = None if p["tax_set_id"] is None else {"id": p["tax_set_id"], "type": "tax_set"}
    return entity("rate_plan", p, {"room_type": {"data": {"id": p["room_type_id"], "type": "room_type"}},
                                   "property": {"data": {"id": p["property_id"], "type": "property"}},
                                   "tax_set": {"data": tax_set}})


def channel_entity(c: dict[str, Any]) -> dict[str, Any]:
    return entity("channel", c, {"group": {"data": {"id": c["group_id"], "type": "group"}},
                                 "properties": {"data": [{"id": p, "type": "property"} for p in c["properties"]]}})


def mapping_entity(m: dict[str, Any], channel_id: str) -> dict[str, Any]:
    return entity("mapping", m, {"channel": {"data": {"id": channel_id, "type": "channel"}},
                                 "rate_plan": {"data": {"id": m["rate_plan_id"], "type": "rate_plan"}},
                                 "room_type": {"data": {"id": m["room_type_id"], "type": "room_type"}},
                                 "property": {"data": {"id": m["property_id"], "type": "property"}}})


def installation_entity(i: dict[str, Any]) -> dict[str, Any]:
    return entity("application_installation", i)


def booking_entity(b: dict[str, Any]) -> dict[str, Any]:
    """`relationships.message_thread` as the service shows it (its channel-iframe page reads the thread's ID
    there), `{"data": null}` until the booking has a conversation; and the plural `properties`, `rate_plans` and
    `room_types` that clients of the service read (reference §15): each a list of `{id, type}`, the rooms' mapped
    ones once each, in the rooms' order."""
    attributes = {k: v for k, v in b.items() if k != "message_thread_id"}
    thread = b.get("message_thread_id")
    return entity("booking", attributes, {
        "property": {"data": {"id": b["property_id"], "type": "property"}},
        "channel": {"data": {"id": b["channel_id"], "type": "channel"}},
        "message_thread": {"data": {"id": thread, "type": "message_thread"} if thread else None},
        "properties": {"data": [{"id": b["property_id"], "type": "property"}]},
        "rate_plans": {"data": _linked(b["rooms"], "rate_plan_id", "rate_plan")},
        "room_types": {"data": _linked(b["rooms"], "room_type_id", "room_type")}})


def _linked(rooms: list[dict[str, Any]], key: str, kind: str) -> list[dict[str, str]]:
    return [{"id": item, "type": kind} for item in dict.fromkeys(r[key] for r in rooms if r.get(key))]


def revision_entity(r: dict[str, Any]) -> dict[str, Any]:
    return entity("booking_revision", r, {"booking": {"data": {"id": r["booking_id"], "type": "booking"}},
                                          "property": {"data": {"id": r["property_id"], "type": "property"}}})


def report_entity(r: dict[str, Any]) -> dict[str, Any]:
    return entity("booking_report", r, {"booking": {"data": {"id": r["booking_id"], "type": "booking"}}})


MESSAGE_WRITER = ("thread_id", "user_id", "author_email", "via_api", "message_rule_id",
                  "message_rule_title")  # relationships, or the console's alone


def message_entity(m: dict[str, Any]) -> dict[str, Any]:
    """The spec's message: attachments are links; a property reply's writer is its `user` relationship (reference
    §5: "appears only on messages sent by the property"; null when the writer was not recorded)."""
    attributes = {k: v for k, v in m.items() if k not in MESSAGE_WRITER}
    attributes["attachments"] = [a["url"] for a in m["attachments"]]
    relationships: dict[str, Any] = {"message_thread": {"data": {"id": m["thread_id"], "type": "message_thread"}}}
    if m["sender"] == "property":
        relationships["user"] = {"data": {"id": m["user_id"], "type": "user"} if m.get("user_id") else None}
    if m.get("message_rule_id"):  # sent by a message rule (backend/message_rules/)
        relationships["message_rule"] = {"data": {"id": m["message_rule_id"], "type": "message_rule"}}
    return entity("message", attributes, relationships)


def last_message(m: dict[str, Any] | None) -> dict[str, Any] | None:
    """A thread's last message as the service shows it (https://docs.channex.io/api-v.1-documentation/
    messages-collection, the message thread): the message itself, flat, not a nested resource."""
    if m is None:
        return None
    return {"message": m["message"], "sender": m["sender"], "attachments": [a["url"] for a in m["attachments"]],
            "inserted_at": m["inserted_at"]}


def thread_entity(t: dict[str, Any]) -> dict[str, Any]:
    """The service's thread, with who answers it: `assignee_id` and `assignee_email` (ours)."""
    attributes = {k: t[k] for k in ("id", "title", "is_closed", "provider", "message_count", "unread_count",
                                    "last_message_received_at", "inserted_at", "updated_at", "assignee_id",
                                    "assignee_email")}
    attributes["last_message"] = last_message(t["last_message"])
    if "search_snippet" in t:  # a search's row (ours): its best message's words around the matches, marked
        attributes["search_snippet"] = t["search_snippet"]
    relationships: dict[str, Any] = {
        "property": {"data": {"id": t["property_id"], "type": "property", "title": t["property_title"]}},
        "channel": {"data": {"id": t["channel_id"], "type": "channel"} if t["channel_id"] else None},
        "assignee": {"data": {"id": t["assignee_id"], "type": "user"} if t["assignee_id"] else None}}
    if t["booking_id"]:
        relationships["booking"] = {"data": {"id": t["booking_id"], "type": "booking"}}
    return entity("message_thread", attributes, relationships)


def note_entity(n: dict[str, Any]) -> dict[str, Any]:
    """A staff note on a thread, with its author as a message's `user` relationship."""
    attributes = {k: v for k, v in n.items() if k != "thread_id"}
    return entity("note", attributes, {
        "message_thread": {"data": {"id": n["thread_id"], "type": "message_thread"}},
        "user": {"data": {"id": n["user_id"], "type": "user"} if n["user_id"] else None}})


def rule_entity(r: dict[str, Any]) -> dict[str, Any]:
    relationships: dict[str, Any] = {"message_template": {"data": {"id": r["message_template_id"],
                                                                   "type": "message_template"}}}
    if r["property_id"]:
        relationships["property"] = {"data": {"id": r["property_id"], "type": "property"}}
    else:
        relationships["group"] = {"data": {"id": r["group_id"], "type": "group"}}
    return entity("message_rule", r, relationships)


def template_entity(t: dict[str, Any]) -> dict[str, Any]:
    relationships: dict[str, Any] = {}
    if t["property_id"]:
        relationships["property"] = {"data": {"id": t["property_id"], "type": "property"}}
    if t["group_id"]:
        relationships["group"] = {"data": {"id": t["group_id"], "type": "group"}}
    return entity("message_template", t, relationships)


REVIEW_LINKS = ("property_id", "property_title", "channel_id", "booking_id")


def review_entity(r: dict[str, Any], titled: bool = False) -> dict[str, Any]:
    """The service's review (reference §8): `reply` the text; `public_review` and `private_feedback` as its clients
    read them; the property's `title` in its relationship when one review is read (`titled`)."""
    attributes = {k: v for k, v in r.items() if k not in REVIEW_LINKS}
    attributes["public_review"] = r["content"]
    attributes["private_feedback"] = r["raw_content"].get("private_feedback")
    prop: dict[str, Any] = {"id": r["property_id"], "type": "property"}
    if titled:
        prop["title"] = r["property_title"]
    return entity("review", attributes, {
        "booking": {"data": {"id": r["booking_id"], "type": "booking"} if r["booking_id"] else None},
        "channel": {"data": {"id": r["channel_id"], "type": "channel"} if r["channel_id"] else None},
        "property": {"data": prop}})


def review_feed_entity(item: dict[str, Any]) -> dict[str, Any]:
    """A reply (`review_reply`) or a host's review of a guest (`guest_review`) waiting for a channel."""
    return entity("review_reply" if item["kind"] == "reply" else "guest_review", item,
                  {"review": {"data": {"id": item["review_id"], "type": "review"}}})


def score_entity(s: dict[str, Any]) -> dict[str, Any]:
    """The service's score: `scores` a map of category to `{count, score}`; `/detailed` adds `ota_scores`, one
    `{"data": ota_score}` per channel."""
    attributes = {k: s[k] for k in ("id", "count", "overall_score", "scores", "inserted_at", "updated_at")}
    relationships: dict[str, Any] = {
        "property": {"data": {"id": s["property_id"], "title": s["property_title"], "type": "property"}}}
    if "ota_scores" in s:
        relationships["ota_scores"] = [{"data": {"type": "ota_score", "id": o["id"], "attributes": o}}
                                       for o in s["ota_scores"]]
    return entity("score", attributes, relationships)
