"""Full sync, as the service's "Full Sync" button: every mapped rate plan and room type of a channel over its
property's whole window (today to today + state_length), queued as `ari` events for that channel alone, in one
transaction. They go as any change does (pull or push, values read when they leave), after what was queued before."""

from __future__ import annotations

from backend.distribution.collapse import ONE_DAY
from backend.distribution.mapped import Mapped
from backend.inventory.window import Window
from backend.outbox.record import record
from storage import Connection


def queue(conn: Connection, mapped: Mapped, windows: dict[str, Window]) -> int:
    """The events of a full sync; how many ranges were queued."""
    queued = 0
    for key, targets in (("room_type_id", mapped.rooms), ("rate_plan_id", mapped.plans)):
        for target in targets.values():
            window = windows.get(target.property_id)
            if window is not None:
                record(conn, "ari", target.property_id, {
                    "property_id": target.property_id, key: target.id, "date_from": window.today.isoformat(),
                    "date_to": (window.end - ONE_DAY).isoformat()}, channel_id=mapped.channel_id)
                queued += 1
    return queued
