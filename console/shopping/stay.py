"""The stay a shopping preview asks about, shared by the property list and one property's page."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from console.kit.words import party


@dataclass(frozen=True)
class StayQuery:
    """What the preview asks the channel for. Immutable, so workers can read it while the UI changes it."""

    channel_id: str | None
    checkin: str
    checkout: str
    adults: str = "2"
    children: str = "0"
    available_only: bool = False

    def params(self) -> dict[str, str]:
        return {"checkin_date": self.checkin, "checkout_date": self.checkout, "adults": self.adults,
                "children": self.children}

    def party(self) -> str:
        return party({"adults": self.adults, "children": self.children})

    def dates(self) -> tuple[date, date] | None:
        try:
            return date.fromisoformat(self.checkin), date.fromisoformat(self.checkout)
        except ValueError:
            return None
