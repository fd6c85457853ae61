"""The nights a property sells: from its first open night (today, or later after the cut-off) up to, not
including, today + state_length, all by the property's own clock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from pydantic_core import from_json

from backend.core.dates import local_now
from storage import Row


@dataclass(frozen=True)
class Window:
    today: date
    first: date
    end: date


def window_of(prop: Row | dict[str, Any], now: datetime) -> Window:
    settings = from_json(prop["settings"])
    local = local_now(prop["timezone"], now)
    today = local.date()
    first = today
    # 00:00:00 is the "no cut-off" default: at midnight every day would otherwise close itself.
    cut_off = settings["cut_off_time"]
    if cut_off != "00:00:00" and local.strftime("%H:%M:%S") >= cut_off:
        first = today + timedelta(days=settings["cut_off_days"] + 1)
    return Window(today, first, today + timedelta(days=settings["state_length"]))
