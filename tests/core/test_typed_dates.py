"""Dates as staff type them into the calendar's jump prompt (backend.core.typed_dates.py)."""

from __future__ import annotations

from datetime import date

import pytest

from backend.core.typed_dates import NotADate, typed_date, typed_iso

TODAY = date(2026, 11, 22)


@pytest.mark.parametrize(("typed", "meant"), [
    ("2026-12-24", date(2026, 12, 24)),
    ("24 Dec", date(2026, 12, 24)),
    ("Dec 24", date(2026, 12, 24)),
    ("24th December 2027", date(2027, 12, 24)),
    ("dec 24, 2027", date(2027, 12, 24)),
    ("24/12", date(2026, 12, 24)),
    ("24.12.2026", date(2026, 12, 24)),
    ("1/1/27", date(2027, 1, 1)),
    ("5 jan", date(2027, 1, 5)),  # the nearest 5 January is next year's
    ("20 nov", date(2027, 11, 20)),  # always forward: 20 November two days ago means next year's
    ("Jul 14", date(2027, 7, 14)),  # not July of this year, in the past
    ("22 Nov", TODAY),  # today is not the past
    ("29 feb", date(2028, 2, 29)),  # the next one there is
    ("+7", date(2026, 11, 29)),
    ("-3", date(2026, 11, 19)),
    ("  Today ", TODAY),
    ("tomorrow", date(2026, 11, 23)),
])
def test_the_ways_staff_type_a_date(typed: str, meant: date) -> None:
    assert typed_date(typed, TODAY) == meant


@pytest.mark.parametrize(("typed", "why"), [
    ("", "Type a date: 2026-12-24, 24 Dec, 24/12 or +7"),
    ("next week", "“next week” is not a date: type 2026-12-24, 24 Dec, 24/12 or +7"),
    ("31/02", "There is no 31 Feb 2026"),
    ("2026-02-30", "There is no 30 Feb 2026"),
    ("12/24", "“12/24” has no month 24: day first, then month (24/12)"),
    ("de 4", "“de” is not a month: type one as Jan, Feb, … or January, February, …"),
    ("+99999", "“+99999” is more than five years away"),
    ("9999-12-31", "“9999-12-31” is more than five years away"),
])
def test_nonsense_is_refused_saying_why(typed: str, why: str) -> None:
    with pytest.raises(NotADate) as refused:
        typed_date(typed, TODAY)
    assert str(refused.value) == why


def test_a_form_field_goes_to_the_engine_as_an_iso_date_or_as_typed() -> None:
    assert typed_iso("24 Dec", TODAY) == "2026-12-24"
    assert typed_iso(" +3 ", TODAY) == "2026-11-25"
    assert typed_iso("", TODAY) == ""
    assert typed_iso("someday", TODAY) == "someday"  # refused by the engine, beside its field
