"""A realistic small portfolio, built through the engine like any user would build it.

Two groups: the portfolio, properties of different types in different countries sold on its channels, and new
openings, where a hostel waits for its contact details before it can be connected (a channel sells only
properties of its own group). The chat application on some, and a demo integrator whose API token is returned
for trying `frontdesk serve`.
Every connected property has rooms, rate plans, a hotel policy and a year of availability and
rates (dearer at weekends, a few closed or restricted nights), two derived rate plans that follow the
flexible rate, and some bookings have come in: among them the front desk's day at Hotel Edelweiss (guests arriving
and leaving today and tomorrow). The portfolio has saved replies; Booking.com reads its properties' ARI (pull).
The demo has no webhook: one must point at a public address that answers, which a demo cannot give.
Dates count from the engine's clock, so a frozen clock gives the same demo every time.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from backend.core.dates import local_now
from backend.engine import Engine
from backend.identity.models import Actor, IssuedToken
from backend.inventory.store import plan_currency
from backend.properties.facilities import facility_id
from backend.tools.demo_chat import load_conversations
from backend.tools.demo_reviews import load_reviews

INTEGRATOR_EMAIL = "integrator@example.com"

PORTFOLIO = "Sea & Mountain Stays"
NEW_OPENINGS = "New openings"

PROPERTIES: list[tuple[str, dict[str, Any]]] = [
    (PORTFOLIO, {
        "title": "Hotel Edelweiss", "currency": "CHF", "property_type": "hotel", "email": "desk@edelweiss.example",
        "phone": "+41 27 966 12 00", "zip_code": "3920", "country": "CH", "state": "Valais", "city": "Zermatt",
        "address": "Bahnhofstrasse 21", "longitude": "7.7491", "latitude": "46.0207", "timezone": "Europe/Zurich",
        "website": "https://edelweiss.example", "facilities": ["Free WiFi", "Spa", "Sauna", "Restaurant", "Ski storage"],
        "settings": {"state_length": 500, "cut_off_time": "18:00:00", "min_price": "120", "max_price": "2400"},
        "content": {"description": "Family-run hotel with a view of the Matterhorn from every balcony.",
                    "important_information": "Zermatt is car-free: take the shuttle from Täsch.",
                    "photos": [{"url": "https://edelweiss.example/photos/front.jpg", "kind": "photo",
                                "author": "Edelweiss", "description": "The hotel in winter"}]},
        "chat": True}),
    (PORTFOLIO, {
        "title": "Chalet Les Aiguilles", "currency": "EUR", "property_type": "chalet", "email": "bonjour@aiguilles.example",
        "phone": "+33 4 50 53 00 11", "zip_code": "74400", "country": "FR", "state": "Haute-Savoie",
        "city": "Chamonix-Mont-Blanc", "address": "12 Chemin des Praz", "longitude": "6.8694", "latitude": "45.9237",
        "timezone": "Europe/Paris", "facilities": ["Free WiFi", "Kitchen", "Hot tub", "Free parking"],
        "content": {"description": "A wooden chalet for ten, five minutes from the Flégère lift."}, "chat": True}),
    (PORTFOLIO, {
        "title": "Pension Alpenrose", "currency": "EUR", "property_type": "guest_house", "email": "info@alpenrose.example",
        "phone": "+43 6134 8222", "zip_code": "4830", "country": "AT", "state": "Upper Austria", "city": "Hallstatt",
        "address": "Seestrasse 104", "longitude": "13.6493", "latitude": "47.5622", "timezone": "Europe/Vienna",
        "facilities": ["Breakfast", "Free WiFi", "Garden"], "chat": False}),
    (PORTFOLIO, {
        "title": "Casa do Mar", "currency": "EUR", "property_type": "villa", "email": "ola@casadomar.example",
        "phone": "+351 282 760 400", "zip_code": "8600-545", "country": "PT", "state": "Faro", "city": "Lagos",
        "address": "Rua da Praia 8", "longitude": "-8.6742", "latitude": "37.1028", "timezone": "Europe/Lisbon",
        "facilities": ["Outdoor pool", "Beachfront", "Free WiFi", "BBQ facilities"],
        "content": {"description": "Whitewashed villa above Praia Dona Ana, sleeps eight."}, "chat": True}),
    (PORTFOLIO, {
        "title": "Harbour Lights Apartments", "currency": "AUD", "property_type": "apartment",
        "email": "stay@harbourlights.example", "phone": "+61 3 6234 5500", "zip_code": "7000", "country": "AU",
        "state": "Tasmania", "city": "Hobart", "address": "3 Hunter Street", "longitude": "147.3353",
        "latitude": "-42.8826", "timezone": "Australia/Hobart", "facilities": ["Kitchen", "Laundry", "Paid parking"],
        "chat": True}),
    (PORTFOLIO, {
        "title": "Riad Yasmine", "currency": "MAD", "property_type": "riad", "email": "salam@riadyasmine.example",
        "phone": "+212 524 38 90 00", "zip_code": "40000", "country": "MA", "state": "Marrakesh-Safi",
        "city": "Marrakesh", "address": "17 Derb Sidi Bouloukat", "longitude": "-7.9892", "latitude": "31.6258",
        "timezone": "Africa/Casablanca", "facilities": ["Terrace", "Breakfast", "Airport shuttle"], "chat": False}),
    (PORTFOLIO, {
        "title": "Ryokan Hanabi", "currency": "JPY", "property_type": "ryokan", "email": "yoyaku@hanabi.example",
        "phone": "+81 75 561 0000", "zip_code": "605-0862", "country": "JP", "state": "Kyoto", "city": "Kyoto",
        "address": "2-221 Kiyomizu, Higashiyama-ku", "longitude": "135.7850", "latitude": "34.9966",
        "timezone": "Asia/Tokyo", "facilities": ["Hot tub", "Breakfast", "Non-smoking rooms"], "chat": False}),
    # Contact details not filled in yet: it cannot be connected to a channel until they are.
    (NEW_OPENINGS, {
        "title": "Northern Lights Hostel", "currency": "ISK", "property_type": "hostel", "city": "Reykjavík",
        "country": "IS", "timezone": "Atlantic/Reykjavik", "is_active": False, "chat": False}),
]

# Per property: (room title, rooms, adults, children, base rate in the property's currency).
ROOMS = {
    "Hotel Edelweiss": [("Double Room Matterhorn View", 12, 2, 1, 280), ("Junior Suite", 4, 3, 1, 460),
                        ("Single Room", 6, 1, 0, 160)],
    "Chalet Les Aiguilles": [("Whole Chalet", 1, 10, 4, 1200)],
    "Pension Alpenrose": [("Lake View Double", 5, 2, 1, 135), ("Family Room", 2, 4, 2, 190)],
    "Casa do Mar": [("Whole Villa", 1, 8, 2, 650)],
    "Harbour Lights Apartments": [("Studio", 6, 2, 0, 210), ("Two-Bedroom Apartment", 3, 4, 2, 340)],
    "Riad Yasmine": [("Patio Room", 4, 2, 1, 1400), ("Royal Suite", 1, 3, 1, 2900)],
    "Ryokan Hanabi": [("Japanese-style Room", 8, 3, 1, 38000)],
}
# Derived rate plans, per (property, room): title, modifiers of the flexible rate, and what else they hold.
DERIVED: dict[tuple[str, str], tuple[str, list[list[str]], dict[str, Any]]] = {
    ("Hotel Edelweiss", "Double Room Matterhorn View"): (
        "Member rate", [["decrease_by_percent", "10.00"]],
        {"inherit_stop_sell": True, "inherit_closed_to_arrival": True, "inherit_min_stay_arrival": True}),
    ("Harbour Lights Apartments", "Studio"): (
        "Weekly stay", [["decrease_by_percent", "15.00"], ["decrease_by_amount", "5.00"]],
        {"inherit_stop_sell": True, "min_stay_arrival": 7}),
}
POLICY = {"checkin_from_time": "15:00", "checkin_to_time": "22:00", "checkout_from_time": "07:00",
          "checkout_to_time": "11:00", "internet_access_type": "wifi", "parking_type": "location_nearby",
          "parking_reservation": "needed", "pets_policy": "by_arrangements", "smoking_policy": "no_smoking"}
GUESTS = [("Müller", "Anna", "DE", "en"), ("Dubois", "Léa", "FR", "fr"), ("Smith", "Oliver", "GB", "en"),
          ("Tanaka", "Yui", "JP", "ja"), ("Rossi", "Marco", "IT", "it"), ("García", "Lucía", "ES", "es")]
NOTES = ["Arriving late, around 22:00.", None, "Celebrating an anniversary: a quiet room with a view, please.", None,
         "Travelling with a small dog.", None, "Needs breakfast before 7:00 on the day of departure."]
# The front desk's day at Hotel Edelweiss, as (first night from today, nights): two arrive today and one tomorrow,
# one leaves today and one tomorrow, and one is half-way through a week.
DAY = [(0, 2), (0, 3), (1, 2), (-2, 2), (-1, 2), (-3, 7)]
DAY_RATE = "295.00"  # CHF a night, as Booking.com priced them
# A public test card number (Visa): demo bookings never hold a real one.
TEST_CARD = {"card_number": "4111111111111111", "cardholder_name": "Demo Guest", "card_type": "visa",
             "expiration_date": "12/2031", "cvv": "123"}

# The portfolio's saved replies (ctrl+r in the reply box), filled in for each guest.
SAVED_REPLIES = [
    ("Check-in times", "Hello {guest_first_name}, check-in at {property} is from {checkin_time}; check-out is until "
                       "{checkout_time}. Let us know when you expect to arrive."),
    ("Booking confirmed", "Dear {guest_name}, thank you for booking {property}: {nights} nights from {arrival_date} "
                          "(booking {booking_id}). We look forward to welcoming you."),
    ("Thanks for staying", "Thank you for staying with us, {guest_first_name}! We hope to see you again at {property}."),
]

# Booking.com comes to read the ARI of its properties (`_pull_ari`); Airbnb and OpenShopping take none from Frontdesk
# (OpenShopping shops live through the shopping API).
CHANNELS = [
    ("Booking.com", "BookingCom", ["Hotel Edelweiss", "Chalet Les Aiguilles", "Pension Alpenrose", "Casa do Mar",
                                   "Riad Yasmine", "Ryokan Hanabi"]),
    ("Airbnb", "AirBNB", ["Chalet Les Aiguilles", "Casa do Mar", "Harbour Lights Apartments"]),
    ("OpenShopping", "OpenShopping", ["Hotel Edelweiss", "Casa do Mar", "Harbour Lights Apartments"]),
]


def load_demo_if_empty(engine: Engine) -> IssuedToken | None:
    """The demo portfolio, if the database holds no property: looked for and loaded in one transaction, so that of
    two consoles opening an empty database at once, one loads it. The demo integrator's new API token, or None."""
    with engine.store.transaction():
        return load_demo(engine) if engine.is_empty() else None


def load_demo(engine: Engine) -> IssuedToken:
    """Fill an empty database with the demo portfolio; returns the demo integrator's new API token."""
    operator = engine.identity.operator()
    _, token = engine.identity.add_user(INTEGRATOR_EMAIL)
    groups = {title: engine.identity.add_group(title, [operator.email, INTEGRATOR_EMAIL])
              for title in (PORTFOLIO, NEW_OPENINGS)}
    operator = engine.identity.operator()
    ids: dict[str, str] = {}
    for group, spec in PROPERTIES:
        data = {k: v for k, v in spec.items() if k != "chat"}
        data["facilities"] = [facility_id(title) for title in data.get("facilities", [])]
        created = engine.properties.create(operator, {**data, "group_id": groups[group]})
        ids[created["title"]] = created["id"]
        if spec["chat"]:
            engine.applications.install(operator, {"property_id": created["id"], "application_code": "chat"})
    plans = {title: _inventory(engine, operator, ids[title], title) for title in ROOMS}
    channels = {}
    for title, code, titles in CHANNELS:
        channels[code] = engine.channels.create(operator, {
            "title": title, "channel": code, "group_id": groups[PORTFOLIO], "properties": [ids[t] for t in titles],
            "rate_plans": [{"rate_plan_id": plan} for t in titles for plan, _ in plans[t]]})
    _bookings(engine, channels, ids, plans)
    for title, message in SAVED_REPLIES:
        engine.message_templates.create(operator, {"title": title, "message": message, "group_id": groups[PORTFOLIO]})
    load_conversations(engine, channels, ids, plans)
    load_reviews(engine, channels, ids)
    _pull_ari(engine, channels["BookingCom"])
    return token


def _inventory(engine: Engine, operator: Actor, property_id: str, title: str) -> list[tuple[str, str]]:
    """Rooms, two rate plans each, a policy and a year of ARI; returns (rate plan id, room type id) pairs.
    The year starts on the property's own today: in Hobart that is tomorrow for the last 11 hours of a UTC
    day, and ARI for a night already past there is refused."""
    today = local_now(engine.properties.get(operator, property_id)["timezone"], engine.config.clock()).date()
    inventory, made = engine.inventory, []
    engine.inventory.hotel_policies.put(operator, property_id, {"title": f"{title} house rules", **POLICY})
    for room_title, count, adults, children, base in ROOMS[title]:
        room = inventory.room_types.create(operator, {
            "property_id": property_id, "title": room_title, "count_of_rooms": count, "occ_adults": adults,
            "occ_children": children, "occ_infants": 1, "bed_options": [{"title": "Double bed", "count": 1}],
            "facilities": ["Private bathroom", "Free WiFi"]})
        options = [{"occupancy": n, "is_primary": n == adults, "rate": str(base - (adults - n) * base // 10)}
                   for n in range(1, adults + 1)]
        flexible = inventory.rate_plans.create(operator, {
            "property_id": property_id, "room_type_id": room["id"], "title": "Best Available Rate",
            "meal_type": "room_only", "options": options,
            "cancellation_policy": {"title": "Free cancellation up to 2 days before arrival",
                                    "cancellation_policy_logic": "deadline", "cancellation_policy_deadline": 2,
                                    "cancellation_policy_penalty": "100"},
            "taxes": [{"title": "City tax", "mode": "per_person_per_night", "rate": "3", "inclusive": False}]})
        saver = inventory.rate_plans.create(operator, {
            "property_id": property_id, "room_type_id": room["id"], "title": "Non-refundable with breakfast",
            "meal_type": "breakfast", "options": options,
            "cancellation_policy": {"title": "Non-refundable", "cancellation_policy_logic": "non_refundable",
                                    "cancellation_policy_penalty": "100", "guarantee_payment_policy": "prepayment"}})
        end = (today + timedelta(days=364)).isoformat()
        year = {"property_id": property_id, "date_from": today.isoformat(), "date_to": end}
        inventory.ari.set_availability(operator, [{**year, "room_type_id": room["id"], "availability": count}])
        weekend = ["fr", "sa"]
        rates = []
        for plan, factor in ((flexible, 100), (saver, 90)):
            rates += [{**year, "rate_plan_id": plan["id"], "rate": str(base * factor // 100)},
                      {**year, "rate_plan_id": plan["id"], "days": weekend, "rate": str(base * factor * 125 // 10000),
                       "min_stay_arrival": 2}]
        closed = (today + timedelta(days=40)).isoformat()
        rates.append({"property_id": property_id, "rate_plan_id": saver["id"], "date": closed, "stop_sell": True})
        rates.append({"property_id": property_id, "rate_plan_id": flexible["id"], "days": ["su"],
                      "date_from": today.isoformat(), "date_to": end, "closed_to_arrival": True})
        inventory.ari.set_restrictions(operator, rates)
        made += [(flexible["id"], room["id"]), (saver["id"], room["id"])]
        if (title, room_title) in DERIVED:  # priced from the flexible rate, live, with nothing of its own stored
            name, rules, rest = DERIVED[(title, room_title)]
            derived = inventory.rate_plans.create(operator, {
                "property_id": property_id, "room_type_id": room["id"], "title": name, "rate_mode": "derived",
                "parent_rate_plan_id": flexible["id"], "meal_type": "room_only", **rest,
                "options": [{**option, "derived_option": {"rate": rules} if option["is_primary"] else None}
                            for option in options],
                "cancellation_policy": {"title": "Free cancellation up to 2 days before arrival",
                                        "cancellation_policy_logic": "deadline", "cancellation_policy_deadline": 2,
                                        "cancellation_policy_penalty": "100"}})
            made.append((derived["id"], room["id"]))
    return made


def _bookings(engine: Engine, channels: dict[str, Any], ids: dict[str, str], plans: dict[str, Any]) -> None:
    """A few bookings from OpenShopping (through push_booking) and from Booking.com (through its adapter), one
    of whose cards the hotel has reported invalid."""
    today = engine.config.clock().date()
    shopping = [("Hotel Edelweiss", 5, 3), ("Casa do Mar", 12, 7), ("Harbour Lights Apartments", 3, 2),
                ("Hotel Edelweiss", 20, 2)]
    made = []
    for number, (title, start, nights) in enumerate(shopping):
        plan, room = plans[title][1]  # the saver plan: open on every weekday
        body = {**_booking(engine, number, today + timedelta(days=start), nights, room, plan),
                "reservation_id": f"MS-{7301 + number}"}
        booking, _ = engine.bookings.push(channels["OpenShopping"]["id"], ids[title], body, secure=True)
        made.append(booking)
    ota = [("Pension Alpenrose", 9, 4), ("Riad Yasmine", 15, 3), ("Ryokan Hanabi", 30, 2)]
    booking_com = channels["BookingCom"]
    for number, (title, start, nights) in enumerate(ota, start=len(shopping)):
        plan, room = plans[title][1]
        body = {**_booking(engine, number, today + timedelta(days=start), nights, room, plan),
                "reservation_id": f"40{number:02d}1187", "property_id": ids[title], "payment_collect": "ota",
                "payment_type": "bank_transfer"}
        declined = number == len(shopping)  # the guest pays the hotel, with a card that does not go through
        if declined:
            body.update(payment_collect="property", payment_type="credit_card")
        else:
            del body["guarantee"]
        booking, _ = engine.bookings.inbound(engine.bookings.channel_by_key(booking_com["id"], booking_com["inbound_key"]),
                                             body, secure=False)
        if declined:
            engine.bookings.reports.invalid_card(engine.identity.operator(), booking["id"])
    cancelled = made[-1]
    engine.bookings.push(channels["OpenShopping"]["id"], cancelled["property_id"],
                         {"status": "cancelled", "reservation_id": cancelled["reservation_id"]}, secure=True)
    _front_desk_day(engine, booking_com, ids, plans, len(shopping) + len(ota))


def _pull_ari(engine: Engine, channel: dict[str, Any]) -> None:
    """Booking.com reads its ARI from now on (pull): set last, it starts with nothing waiting, as a channel
    connected to a property already built does once its first full sync has been read."""
    engine.channels.update(engine.identity.operator(), channel["id"], {"settings": {"ari_distribution": "pull"}})


def _front_desk_day(engine: Engine, booking_com: dict[str, Any], ids: dict[str, str], plans: dict[str, Any],
                    first: int) -> None:
    """Guests arriving and leaving at Hotel Edelweiss today and tomorrow, and one staying on, so that the arrivals,
    departures and in-house lists, check-in and no-show have someone to act on from the first run."""
    hotel = ids["Hotel Edelweiss"]
    today = local_now(engine.properties.get(engine.identity.operator(), hotel)["timezone"], engine.config.clock()).date()
    adapter = engine.bookings.channel_by_key(booking_com["id"], booking_com["inbound_key"])
    plan, room = plans["Hotel Edelweiss"][0]  # the flexible rate of the Matterhorn doubles
    for number, (start, nights) in enumerate(DAY, start=first):
        arrival = today + timedelta(days=start)
        body = {**_booking(engine, number, arrival, nights, room, plan),
                "reservation_id": f"40{number:02d}2290", "property_id": hotel,
                "payment_collect": "ota", "payment_type": "bank_transfer"}
        del body["guarantee"]
        # Priced by the channel, as an OTA booking is: nights before today have no rate left to read.
        body["rooms"][0]["days"] = {(arrival + timedelta(days=n)).isoformat(): DAY_RATE for n in range(nights)}
        engine.bookings.inbound(adapter, body, secure=False)


def _booking(engine: Engine, number: int, arrival: date, nights: int, room: str, plan: str) -> dict[str, Any]:
    surname, name, country, language = GUESTS[number % len(GUESTS)]
    return {"status": "new", "arrival_date": arrival.isoformat(),
            "departure_date": (arrival + timedelta(days=nights)).isoformat(), "arrival_hour": "16:00",
            "currency": plan_currency(engine.store, plan), "customer": {"name": name, "surname": surname, "country": country,
                                           "language": language, "mail": f"{name.lower()}@guest.example"},
            "guarantee": TEST_CARD, "notes": NOTES[number % len(NOTES)],
            "rooms": [{"room_type_code": room, "rate_plan_code": plan, "occupancy": {"adults": 2 if number % 3 else 1},
                       "guests": [{"name": name, "surname": surname}]}]}
