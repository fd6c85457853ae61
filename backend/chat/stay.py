"""What sits beside a conversation: the stay of the thread's booking, or what an Airbnb inquiry asks for and what
that stay would cost today.

A thread of a booking shows the booking's latest revision: dates, rooms with their rate plans, guests, amount,
status, channel, unique id and notes. An inquiry shows the guest's dates and party, the payout Airbnb quoted, and
the price the inquiry's channel sells that stay at now — the shopping API's best offer, from the same code
(`Shopping.cheapest`) — or why it can't be sold. Access is the thread's: whoever may read it may read this.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from backend.bookings.service import Bookings
from backend.chat.service import Chat
from backend.chat.store import titles_by_id
from backend.core.money import format_minor, parse_money
from backend.identity.models import Actor
from backend.shopping.service import Shopping
from backend.shopping.stay_query import Party, Stay
from storage import Store


class ThreadStays:
    def __init__(self, store: Store, chat: Chat, bookings: Bookings, shopping: Shopping) -> None:
        self.store = store
        self.chat = chat
        self.bookings = bookings
        self.shopping = shopping

    def of(self, actor: Actor, thread_id: str) -> dict[str, Any] | None:
        """The thread's booking (`kind` "booking") or inquiry (`kind` "inquiry"); None for a thread with neither."""
        thread = self.chat.thread(actor, thread_id)
        if thread["booking_id"]:
            return self.booking(actor, thread["booking_id"])
        details = self.chat.inquiry_details(actor, thread_id)
        if details is None or thread["channel_id"] is None:
            return None
        return self._inquiry(thread, details)

    def booking(self, actor: Actor, booking_id: str) -> dict[str, Any]:
        """A booking's stay as a thread of it shows it (`kind` "booking"); also beside a review of it."""
        booking = self.bookings.get(actor, booking_id)
        rooms = booking["rooms"]
        titles = self._titles("room_types", [r["room_type_id"] for r in rooms if r["room_type_id"]])
        titles |= self._titles("rate_plans", [r["rate_plan_id"] for r in rooms if r["rate_plan_id"]])
        customer = booking["customer"] or {}
        return {
            "kind": "booking", "booking_id": booking["id"], "unique_id": booking["unique_id"],
            "status": booking["status"], "channel": booking["ota_name"],
            "guest": " ".join(p for p in (customer.get("name"), customer.get("surname")) if p) or None,
            "arrival_date": booking["arrival_date"], "departure_date": booking["departure_date"],
            "nights": _nights(booking["arrival_date"], booking["departure_date"]),
            "arrival_hour": booking["arrival_hour"], "occupancy": booking["occupancy"],
            "rooms": [{"room_type": titles.get(r["room_type_id"] or "", f"unmapped code {r['room_type_code']}"),
                       "rate_plan": titles.get(r["rate_plan_id"] or "", f"unmapped code {r['rate_plan_code']}"),
                       "occupancy": r["occupancy"]} for r in rooms],
            "amount": booking["amount"], "currency": booking["currency"], "notes": booking["notes"],
            "is_overbooked": booking["is_overbooked"], "is_unmapped": booking["is_unmapped"],
        }

    def _inquiry(self, thread: dict[str, Any], details: dict[str, Any]) -> dict[str, Any]:
        arrival, departure = date.fromisoformat(details["checkin_date"]), date.fromisoformat(details["checkout_date"])
        adults = details.get("number_of_adults")
        party = Party(adults, details.get("number_of_children") or 0, details.get("number_of_infants") or 0) \
            if adults else None  # an inquiry without its party is priced as the shopping API prices one
        today = self.shopping.cheapest(thread["channel_id"], thread["property_id"],
                                       Stay(arrival, departure, party, None), details.get("room_type_id"))
        payout, currency = details.get("expected_payout_amount_accurate"), details.get("currency")
        difference = None
        if payout is not None and today["price"] is not None and today["currency"] == currency:
            minor = parse_money(today["price"], currency) - parse_money(payout, currency)
            difference = ("+" if minor > 0 else "") + format_minor(minor, currency)
        return {
            "kind": "inquiry", "checkin_date": details["checkin_date"], "checkout_date": details["checkout_date"],
            "nights": _nights(details["checkin_date"], details["checkout_date"]),
            "occupancy": {"adults": adults, "children": details.get("number_of_children") or 0,
                          "infants": details.get("number_of_infants") or 0, "pets": details.get("number_of_pets") or 0},
            "listing": details.get("listing_name"), "payout": payout, "currency": currency, "today": today,
            "difference": difference,
        }

    def _titles(self, table: str, ids: list[str]) -> dict[str, str]:
        return titles_by_id(self.store, table, ids)


def _nights(arrival: str, departure: str) -> int:
    return (date.fromisoformat(departure) - date.fromisoformat(arrival)).days
