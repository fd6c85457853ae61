"""A checked ARI value as it is about to be written: the room type or rate plan, the nights it keeps, and the
columns it sets there in their stored form (minor units, 0/1 flags). Writing, reviewing and undoing a range
edit all read these, and the two tables they go to."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Literal, cast

from backend.inventory.stays import ROW_FIELDS

Kind = Literal["availability", "restrictions"]


@dataclass(frozen=True)
class Table:
    name: str
    key: str  # the column naming the room type or rate plan
    columns: tuple[str, ...]  # what a night's row holds besides key and date, in this order
    targets: str  # the table of what it is for


TABLES: dict[str, Table] = {
    "availability": Table("availability", "room_type_id", ("availability",), "room_types"),
    "restrictions": Table("restrictions", "rate_plan_id", ROW_FIELDS, "rate_plans"),
}


@dataclass(frozen=True)
class Planned:
    kind: Kind
    index: int  # in its list of values, for warnings
    target: Any  # the room type's or rate plan's row
    dates: tuple[date, ...]  # the nights written, in order
    fields: dict[str, Any]  # column → stored value

    @property
    def table(self) -> Table:
        return TABLES[self.kind]

    @property
    def property_id(self) -> str:
        return cast(str, self.target["property_id"])

    @property
    def days(self) -> list[str]:
        return [d.isoformat() for d in self.dates]
