"""Putting a range edit back: what a write replaced, night by night, and the rule for restoring it.

A night's stored row holds only the values the night has of its own: a NULL restriction reads the plan's weekday
default, and a night without a row has no availability, no rate and the weekday's restrictions. `Undo` keeps, for
each room type or rate plan and night a write touched, the stored row before the write and after it. Restoring
writes the row from before back exactly — a NULL stays NULL, a row that did not exist is deleted — on the nights
that still hold what the write left. A night changed since (a booking took a room, someone set another rate), a
night now past, and a room type or rate plan deleted since are left as they are, and counted. What a restore
replaced is an `Undo` itself, so that the undo can be undone in turn.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from backend.inventory.ranges import TABLES, Planned
from backend.inventory.store import night_rows, put_nights, target_exists
from storage import Connection

Row = tuple[Any, ...] | None  # a night's stored columns; None: the night has no row


@dataclass(frozen=True)
class Nights:
    """One room type's or rate plan's nights in an undo: ISO date → (row before, row after)."""

    kind: str
    target_id: str
    property_id: str
    title: str
    rows: dict[str, tuple[Row, Row]]


@dataclass(frozen=True)
class Undo:
    nights: tuple[Nights, ...] = ()

    @property
    def property_ids(self) -> set[str]:
        return {n.property_id for n in self.nights}

    @property
    def dates(self) -> list[str]:
        return sorted({day for n in self.nights for day in n.rows})

    def titles(self, kind: str) -> list[str]:
        return [n.title for n in self.nights if n.kind == kind]


@dataclass
class Restored:
    """What a restore did: the undo of it, the nights put back per table and target, and those left alone."""

    undo: Undo
    written: list[Nights] = field(default_factory=list)
    changed: int = 0  # nights that no longer held what the edit left
    past: int = 0
    gone: list[str] = field(default_factory=list)  # titles of room types and rate plans deleted since


def rows(conn: Connection, kind: str, target_id: str, days: list[str]) -> dict[str, Row]:
    """The stored rows of these nights (None where a night has none)."""
    if not days:
        return {}
    found = night_rows(conn, TABLES[kind], target_id, min(days), max(days))
    return {day: found.get(day) for day in days}


def before(conn: Connection, planned: Iterable[Planned]) -> dict[tuple[str, str], dict[str, Row]]:
    """Per (kind, target id), the stored rows of the nights these values are about to write."""
    taken: dict[tuple[str, str], dict[str, Row]] = {}
    for value in planned:
        key = (value.kind, value.target["id"])
        missing = [day for day in value.days if day not in taken.get(key, {})]
        taken.setdefault(key, {}).update(rows(conn, value.kind, value.target["id"], missing))
    return taken


def after(conn: Connection, planned: list[Planned], taken: dict[tuple[str, str], dict[str, Row]]) -> Undo:
    """The undo of a write that has just run in this transaction, from the rows `before` took."""
    targets: dict[tuple[str, str], dict[str, Any]] = {(value.kind, value.target["id"]): value.target for value in planned}
    nights = []
    for (kind, target_id), old in taken.items():
        new = rows(conn, kind, target_id, list(old))
        target = targets[(kind, target_id)]
        nights.append(Nights(kind, target_id, target["property_id"], target["title"],
                             {day: (old[day], new[day]) for day in sorted(old)}))
    return Undo(tuple(nights))


def restore(conn: Connection, undo: Undo, today: dict[str, date]) -> Restored:
    """Every night of the undo back to its row from before, where it still holds the row from after and is not past
    at its property (`today`, by property id)."""
    redo, done = [], Restored(Undo())
    for nights in undo.nights:
        if not target_exists(conn, TABLES[nights.kind], nights.target_id):
            done.gone.append(nights.title)
            continue
        now = rows(conn, nights.kind, nights.target_id, list(nights.rows))
        back: dict[str, tuple[Row, Row]] = {}
        for day, (old, new) in nights.rows.items():
            if day < today[nights.property_id].isoformat():
                done.past += 1
            elif now[day] != new:
                done.changed += 1
            else:
                back[day] = (new, old)
        put_nights(conn, TABLES[nights.kind], nights.target_id, {day: old for day, (_, old) in back.items()})
        if back:
            kept = Nights(nights.kind, nights.target_id, nights.property_id, nights.title, back)
            redo.append(kept)
            done.written.append(kept)
    done.undo = Undo(tuple(redo))
    return done
