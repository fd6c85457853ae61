"""A realistic small portfolio, built through the engine like any user would build it.

Two groups, properties of different types in different countries, channels connected, the chat
application on some, and a demo integrator whose API token is returned for trying `frontdesk serve`.
"""

from __future__ import annotations

from backend.engine import Engine
from backend.facilities import facility_id
from backend.identity import IssuedToken

INTEGRATOR_EMAIL = "integrator@example.com"

ALPINE = "Alpine Collection"
SEASIDE = "Sea & City Stays"

PROPERTIES = [
    (ALPINE, {
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
    (ALPINE, {
        "title": "Chalet Les Aiguilles", "currency": "EUR", "property_type": "chalet", "email": "bonjour@aiguilles.example",
        "phone": "+33 4 50 53 00 11", "zip_code": "74400", "country": "FR", "state": "Haute-Savoie",
        "city": "Chamonix-Mont-Blanc", "address": "12 Chemin des Praz", "longitude": "6.8694", "latitude": "45.9237",
        "timezone": "Europe/Paris", "facilities": ["Free WiFi", "Kitchen", "Hot tub", "Free parking"],
        "content": {"description": "A wooden chalet for ten, five minutes from the Flégère lift."}, "chat": True}),
    (ALPINE, {
        "title": "Pension Alpenrose", "currency": "EUR", "property_type": "guest_house", "email": "info@alpenrose.example",
        "phone": "+43 6134 8222", "zip_code": "4830", "country": "AT", "state": "Upper Austria", "city": "Hallstatt",
        "address": "Seestrasse 104", "longitude": "13.6493", "latitude": "47.5622", "timezone": "Europe/Vienna",
        "facilities": ["Breakfast", "Free WiFi", "Garden"], "chat": False}),
    (SEASIDE, {
        "title": "Casa do Mar", "currency": "EUR", "property_type": "villa", "email": "ola@casadomar.example",
        "phone": "+351 282 760 400", "zip_code": "8600-545", "country": "PT", "state": "Faro", "city": "Lagos",
        "address": "Rua da Praia 8", "longitude": "-8.6742", "latitude": "37.1028", "timezone": "Europe/Lisbon",
        "facilities": ["Outdoor pool", "Beachfront", "Free WiFi", "BBQ facilities"],
        "content": {"description": "Whitewashed villa above Praia Dona Ana, sleeps eight."}, "chat": True}),
    (SEASIDE, {
        "title": "Harbour Lights Apartments", "currency": "AUD", "property_type": "apartment",
        "email": "stay@harbourlights.example", "phone": "+61 3 6234 5500", "zip_code": "7000", "country": "AU",
        "state": "Tasmania", "city": "Hobart", "address": "3 Hunter Street", "longitude": "147.3353",
        "latitude": "-42.8826", "timezone": "Australia/Hobart", "facilities": ["Kitchen", "Laundry", "Paid parking"],
        "chat": True}),
    (SEASIDE, {
        "title": "Riad Yasmine", "currency": "MAD", "property_type": "riad", "email": "salam@riadyasmine.example",
        "phone": "+212 524 38 90 00", "zip_code": "40000", "country": "MA", "state": "Marrakesh-Safi",
        "city": "Marrakesh", "address": "17 Derb Sidi Bouloukat", "longitude": "-7.9892", "latitude": "31.6258",
        "timezone": "Africa/Casablanca", "facilities": ["Terrace", "Breakfast", "Airport shuttle"], "chat": False}),
    (SEASIDE, {
        "title": "Ryokan Hanabi", "currency": "JPY", "property_type": "ryokan", "email": "yoyaku@hanabi.example",
        "phone": "+81 75 561 0000", "zip_code": "605-0862", "country": "JP", "state": "Kyoto", "city": "Kyoto",
        "address": "2-221 Kiyomizu, Higashiyama-ku", "longitude": "135.7850", "latitude": "34.9966",
        "timezone": "Asia/Tokyo", "facilities": ["Hot tub", "Breakfast", "Non-smoking rooms"], "chat": False}),
    # Contact details not filled in yet: it cannot be connected to a channel until they are.
    (SEASIDE, {
        "title": "Northern Lights Hostel", "currency": "ISK", "property_type": "hostel", "city": "Reykjavík",
        "country": "IS", "timezone": "Atlantic/Reykjavik", "is_active": False, "chat": False}),
]

CHANNELS = [
    ("Booking.com", "BookingCom", ["Hotel Edelweiss", "Chalet Les Aiguilles", "Pension Alpenrose", "Casa do Mar",
                                   "Riad Yasmine", "Ryokan Hanabi"]),
    ("Airbnb", "AirBNB", ["Chalet Les Aiguilles", "Casa do Mar", "Harbour Lights Apartments"]),
    ("OpenShopping", "OpenShopping", ["Hotel Edelweiss", "Casa do Mar", "Harbour Lights Apartments"]),
]


def load_demo(engine: Engine) -> IssuedToken:
    """Fill an empty database with the demo portfolio; returns the demo integrator's new API token."""
    operator = engine.identity.operator()
    _, token = engine.identity.add_user(INTEGRATOR_EMAIL)
    groups = {title: engine.identity.add_group(title, [operator.email, INTEGRATOR_EMAIL]) for title in (ALPINE, SEASIDE)}
    operator = engine.identity.operator()
    ids: dict[str, str] = {}
    for group, spec in PROPERTIES:
        data = {k: v for k, v in spec.items() if k != "chat"}
        data["facilities"] = [facility_id(title) for title in data.get("facilities", [])]
        created = engine.properties.create(operator, {**data, "group_id": groups[group]})
        ids[created["title"]] = created["id"]
        if spec["chat"]:
            engine.applications.install(operator, {"property_id": created["id"], "application_code": "chat"})
    for title, code, titles in CHANNELS:
        engine.channels.create(operator, {"title": title, "channel_code": code, "group_id": groups[SEASIDE],
                                          "property_ids": [ids[t] for t in titles]})
    return token
