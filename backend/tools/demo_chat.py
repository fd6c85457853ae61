"""Demo conversations: guests writing in several languages through Booking.com and Airbnb, some answered,
some waiting, some closed, and Airbnb inquiries. Times count back from the engine's clock."""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import cycle
from typing import Any, cast

from backend.chat.store import booking_thread
from backend.engine import Engine
from backend.inventory.store import plan_currency
from storage import Row

# (sender, minutes before now, text); "g" the guest, "p" the property.
SCRIPTS = [
    ("en", [("g", 600, "Hi! We land at 21:40. Is a late check-in possible?"),
            ("p", 560, "Of course: the night porter will have your keys ready."),
            ("g", 30, "Perfect, thank you! Could we also get a baby cot?")]),
    ("de", [("g", 1500, "Guten Tag, gibt es in der Nähe einen Parkplatz?"),
            ("p", 1440, "Ja, die Garage gegenüber, 18 € pro Nacht. Wir reservieren gern einen Platz."),
            ("g", 1400, "Bitte ja, für ein Auto. Danke!")]),
    ("fr", [("g", 45, "Bonjour, le petit-déjeuner est-il inclus dans notre tarif ?")]),
    ("pt", [("g", 3000, "Olá! Podemos deixar as malas antes do check-in?"),
            ("p", 2900, "Claro, temos um depósito de bagagem a partir das 8h.")]),
    ("es", [("g", 12, "Hola, ¿hay cuna disponible para un bebé de 8 meses?"),
            ("g", 10, "¡Y gracias por adelantado!")]),
    ("it", [("g", 4300, "Buongiorno, è possibile avere una camera al piano alto?"),
            ("p", 4200, "Certamente, abbiamo annotato la vostra richiesta."),
            ("g", 4100, "Grazie mille!")]),
    ("ja", [("g", 200, "こんにちは。駅からの行き方を教えていただけますか？")]),
    ("en", [("g", 90, "Our flight was cancelled — can we arrive a day later without a fee?"),
            ("p", 75, "So sorry to hear that. Let me check with the manager and come back to you within the hour.")]),
]
# In the order of SCRIPTS' languages (en, de, fr, pt, es, it, ja, en), three times over.
GUESTS = [("Emma", "Clarke"), ("Lukas", "Becker"), ("Camille", "Martin"), ("João", "Silva"), ("Sofía", "López"),
          ("Giulia", "Ricci"), ("Haruto", "Sato"), ("Noah", "Williams"),
          ("Liam", "Brown"), ("Mia", "Wagner"), ("Hugo", "Bernard"), ("Ana", "Costa"), ("Pablo", "Ruiz"),
          ("Chiara", "Bianchi"), ("Yuna", "Kobayashi"), ("Olivia", "Taylor"),
          ("Jack", "Evans"), ("Lena", "Schulz"), ("Louis", "Dubois"), ("Beatriz", "Santos"), ("Diego", "Moreno"),
          ("Marco", "Greco"), ("Aoi", "Suzuki"), ("Chloe", "Hughes")]
# Property and channel of each conversation, in turn.
PLACES = [("Hotel Edelweiss", "BookingCom"), ("Chalet Les Aiguilles", "AirBNB"), ("Casa do Mar", "BookingCom"),
          ("Harbour Lights Apartments", "AirBNB"), ("Casa do Mar", "AirBNB"), ("Chalet Les Aiguilles", "BookingCom")]
INQUIRIES = [("Harbour Lights Apartments", "Maya Lin", "Is the two-bedroom free over New Year? We are 2 adults and a child.", 20),
             ("Casa do Mar", "Tom Becker", "Would you take a small, quiet dog?", 185),
             ("Chalet Les Aiguilles", "Ingrid Olsen", "Bonjour ! Le chalet a-t-il un sauna ?", 2000)]


def load_conversations(engine: Engine, channels: dict[str, Any], ids: dict[str, str], plans: dict[str, Any]) -> None:
    operator = engine.identity.operator()
    now = engine.config.clock()
    adapters = {code: engine.bookings.channel_by_key(c["id"], c["inbound_key"]) for code, c in channels.items()
                if code in ("BookingCom", "AirBNB")}
    places, scripts = cycle(PLACES), cycle(SCRIPTS)
    for number, (name, surname) in enumerate(GUESTS):
        title, code = next(places)
        language, lines = next(scripts)
        plan, room = plans[title][0]
        arrival = now.date() + timedelta(days=75 + number * 3)  # after the stays the other demo bookings hold
        booking, _ = engine.bookings.inbound(adapters[code], {
            "status": "new", "reservation_id": f"{70 + number}{number:03d}45", "property_id": ids[title],
            "arrival_date": arrival.isoformat(), "departure_date": (arrival + timedelta(days=2)).isoformat(),
            "currency": plan_currency(engine.store, plan),
            "payment_collect": "ota", "customer": {"name": name, "surname": surname, "language": language},
            "rooms": [{"room_type_code": room, "rate_plan_code": plan, "occupancy": {"adults": 2}}]}, secure=False)
        age = number * 7  # later guests wrote earlier: the inbox fills its whole list
        for sender, minutes, text in lines:
            at = _stamp(now - timedelta(minutes=minutes + age))
            if sender == "g":
                engine.chat.receive(adapters[code], {"booking_id": booking["id"], "message": text, "sent_at": at})
            else:
                engine.chat.send_to_booking(operator, booking["id"], {"message": text}, at=at)
        thread = cast(Row, booking_thread(engine.store, booking["id"]))["id"]  # the messages above made it
        if lines[-1][0] == "p" or number % 5 == 4:
            engine.chat.mark_read(operator, thread)
        if number % 6 == 5:
            engine.chat.close(operator, thread)
    for title, guest, text, minutes in INQUIRIES:
        start = now.date() + timedelta(days=40)
        engine.chat.inquiry(adapters["AirBNB"], {"guest_name": guest, "message": text,
                                                 "sent_at": _stamp(now - timedelta(minutes=minutes)),
                                                 "booking_details": {
            "property_id": ids[title], "listing_id": str(4400 + minutes), "listing_name": title, "guest_name": guest,
            "checkin_date": start.isoformat(), "checkout_date": (start + timedelta(days=4)).isoformat(), "nights": 4,
            "currency": "EUR" if title != "Harbour Lights Apartments" else "AUD",
            "expected_payout_amount_accurate": "1240.00",
            "non_response_at": (now + timedelta(hours=20)).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "number_of_adults": 2, "number_of_children": 1 if "child" in text else 0}})


def _stamp(moment: datetime) -> str:
    return moment.replace(tzinfo=None, microsecond=0).isoformat(timespec="microseconds")
