"""Today at the demo's Pension Alpenrose, as Booking.com sent it: guests arriving (one of them on a night the
hotel had closed, so overbooked), one leaving, one in house on a rate the hotel no longer has (unmapped), and an
arrival that was cancelled. Dates come from the engine's clock, in the hotel's own time zone."""

from __future__ import annotations

from datetime import timedelta

from backend.core.dates import local_now
from backend.engine import Engine

HOTEL = "Pension Alpenrose"
ARRIVING = ["BDC-5550102", "BDC-5550101"]  # newest first, as the list shows them
LEAVING = "BDC-5550103"
IN_HOUSE = "BDC-5550104"
CANCELLED = "BDC-5550105"
OVERBOOKED = "BDC-5550102"  # and unmapped: its second room's rate
UNMAPPED = IN_HOUSE
# The demo's own day at Hotel Edelweiss (backend/tools/demo.py DAY), older than the scene's, so listed after them.
DEMO_ARRIVING = ["BDC-40082290", "BDC-40072290"]
DEMO_LEAVING = ["BDC-40102290"]
DEMO_IN_HOUSE = ["BDC-40122290", "BDC-40112290", *DEMO_ARRIVING]


def stage_today(engine: Engine) -> None:
    operator = engine.identity.operator()
    property_id = engine.store.scalar("SELECT id FROM properties WHERE title = ?", (HOTEL,))
    room, plan = engine.store.one("SELECT r.id, p.id FROM room_types r JOIN rate_plans p ON p.room_type_id = r.id "
                                  "WHERE r.property_id = ? ORDER BY r.title, p.title LIMIT 1", (property_id,))
    channel = engine.store.one("SELECT * FROM channels WHERE channel_code = 'BookingCom'")
    today = local_now(engine.properties.get(operator, property_id)["timezone"], engine.config.clock()).date()

    def book(number: str, arrival: int, nights: int, guests: list[tuple[str, str]], *, status: str = "new",
             rates: tuple[str | None, ...] = (None,)) -> None:
        """One room for each of `rates`: the hotel's own rate plan (None), or a code it has none of; at the
        prices Booking.com sends."""
        start = today + timedelta(days=arrival)
        nightly = {(start + timedelta(days=n)).isoformat(): "120.00" for n in range(nights)}
        rooms = [{"room_type_code": room, "rate_plan_code": rate or plan, "occupancy": {"adults": len(guests)},
                  "guests": [{"name": name, "surname": surname} for name, surname in guests] if index == 0 else [],
                  "days": nightly} for index, rate in enumerate(rates)]
        engine.bookings.inbound(channel, {
            "status": status, "reservation_id": number, "property_id": property_id, "currency": "EUR",
            "arrival_date": start.isoformat(), "departure_date": (start + timedelta(days=nights)).isoformat(),
            "arrival_hour": "15:00", "customer": {"name": guests[0][0], "surname": guests[0][1], "country": "DE"},
            "rooms": rooms}, secure=False)

    # The nights before today, as they stood when the guests in house booked them (the demo's year starts today).
    with engine.store.transaction() as conn:
        conn.executemany("INSERT INTO availability (room_type_id, date, availability) VALUES (?, ?, 3)",
                         [(room, (today - timedelta(days=n)).isoformat()) for n in range(1, 4)])
    book("5550103", -3, 3, [("Maria", "Novak")])
    book("5550104", -2, 5, [("Tomás", "Ferreira"), ("Inês", "Ferreira")], rates=("BDC-WINTER-2025",))
    book("5550105", 0, 1, [("Eva", "Lind")])
    book("5550105", 0, 1, [("Eva", "Lind")], status="cancelled")
    book("5550101", 0, 2, [("Sofia", "Brandt"), ("Jonas", "Brandt")])
    # Tonight the hotel closed its last room of this kind: Booking.com sold it all the same, with a second room on a
    # rate the hotel no longer has.
    engine.inventory.ari.set_availability(operator, [{"property_id": property_id, "room_type_id": room,
                                                      "date": today.isoformat(), "availability": 0}])
    book("5550102", 0, 1, [("Kenji", "Watanabe"), ("Aiko", "Watanabe")], rates=(None, "BDC-WINTER-2025"))
