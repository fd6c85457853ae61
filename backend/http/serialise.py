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
    return entity("booking", b, {"property": {"data": {"id": b["property_id"], "type": "property"}},
                                 "channel": {"data": {"id": b["channel_id"], "type": "channel"}}})


def revision_entity(r: dict[str, Any]) -> dict[str, Any]:
    return entity("booking_revision", r, {"booking": {"data": {"id": r["booking_id"], "type": "booking"}}})
