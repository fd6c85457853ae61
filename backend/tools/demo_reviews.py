"""Demo reviews: guests of past stays reviewing on Booking.com (out of 10) and Airbnb (stars), in their languages;
some answered (delivered to the channel, or still waiting for it), some not, an Airbnb review hidden until the host
reviews the guest, one the host has reviewed, and one too old to answer. Times count back from the engine's
clock."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from backend.engine import Engine

# (property, channel, guest, days ago, overall, {category: score}, words, tags)
REVIEWS: list[tuple[str, str, str, int, float | None, dict[str, float], str, list[str]]] = [
    ("Hotel Edelweiss", "BookingCom", "Anna Müller", 2, 9.6,
     {"clean": 10, "comfort": 9.5, "facilities": 9, "location": 10, "services": 9.5, "staff": 10, "value": 8.5},
     "Traumhafter Blick aufs Matterhorn, sehr herzliches Personal. Das Frühstück war ausgezeichnet.", []),
    ("Hotel Edelweiss", "BookingCom", "Oliver Smith", 6, 7.9,
     {"clean": 9, "comfort": 7.5, "facilities": 7, "location": 9.5, "services": 7.5, "staff": 8.5, "value": 6.5},
     "Great location near the station. The room was small for the price and the wifi kept dropping.", []),
    ("Hotel Edelweiss", "BookingCom", "Marco Rossi", 11, 8.8,
     {"clean": 9.5, "comfort": 8.5, "facilities": 8, "location": 9.5, "services": 8.5, "staff": 9.5, "value": 8},
     "Hotel accogliente, spa piccola ma curata. Torneremo!", []),
    ("Chalet Les Aiguilles", "AirBNB", "Léa Dubois", 3, None,
     {"cleanliness": 5, "accuracy": 5, "checkin": 5, "communication": 5, "location": 4, "value": 4},
     "Chalet magnifique, très bien équipé. Le jacuzzi face au Mont-Blanc, un rêve !",
     ["guest_review_host_positive_spotless_furniture_and_linens"]),
    ("Chalet Les Aiguilles", "BookingCom", "Yui Tanaka", 20, 9.2,
     {"clean": 9.5, "comfort": 9, "facilities": 9.5, "location": 9, "services": 9, "staff": 9.5, "value": 8.5},
     "とても清潔で広いシャレーでした。スキーリフトまで歩いて行けます。", []),
    ("Casa do Mar", "AirBNB", "Lucía García", 1, None,
     {"cleanliness": 4, "accuracy": 4, "checkin": 5, "communication": 4, "location": 5, "value": 4},
     "La villa es preciosa y la piscina perfecta, pero faltaban toallas de playa.", []),
    ("Casa do Mar", "AirBNB", "Noah Williams", 9, None,
     {"cleanliness": 5, "accuracy": 5, "checkin": 5, "communication": 5, "location": 5, "value": 5},
     "Best holiday we've had in years. The host thought of everything.",
     ["guest_review_host_positive_great_hospitality"]),
    ("Casa do Mar", "BookingCom", "João Silva", 40, 6.3,
     {"clean": 6, "comfort": 6.5, "facilities": 6, "location": 9, "services": 5.5, "staff": 7, "value": 5},
     "Vista incrível, mas a casa precisava de limpeza à chegada.", []),
    ("Harbour Lights Apartments", "AirBNB", "Grace Wood", 4, None,
     {"cleanliness": 5, "accuracy": 4, "checkin": 5, "communication": 5, "location": 5, "value": 4},
     "Spotless studio, two minutes from Salamanca Market. Would stay again.", []),
    ("Pension Alpenrose", "BookingCom", "Felix Koch", 5, 9.0,
     {"clean": 9.5, "comfort": 8.5, "facilities": 8, "location": 10, "services": 9, "staff": 9.5, "value": 9},
     "Direkt am See, ruhig und sehr sauber. Parken ist etwas umständlich.", []),
    ("Riad Yasmine", "BookingCom", "Inès Laurent", 8, 9.4,
     {"clean": 9.5, "comfort": 9, "facilities": 9, "location": 9.5, "services": 9.5, "staff": 10, "value": 9},
     "Un havre de paix au cœur de la médina, le thé sur la terrasse au coucher du soleil était inoubliable.", []),
    ("Ryokan Hanabi", "BookingCom", "Ren Takahashi", 13, 8.3,
     {"clean": 9.5, "comfort": 8, "facilities": 8, "location": 9, "services": 8.5, "staff": 9, "value": 6.5},
     "Wonderful kaiseki dinner and a peaceful onsen. Futons were a little thin for us.", []),
]
# Answers, by the guest whose review they answer: delivered to the channel unless marked as waiting.
REPLIES = {
    "Anna Müller": ("Vielen Dank, liebe Frau Müller! Wir freuen uns auf Ihren nächsten Besuch.", True),
    "Oliver Smith": ("Thank you, Oliver. We have replaced the wifi access points on your floor since your stay.", True),
    "Yui Tanaka": ("ありがとうございました！またのお越しをお待ちしております。", True),
    "Noah Williams": ("Thank you Noah, you were wonderful guests!", True),
    "Felix Koch": ("Danke, Herr Koch! Für Ihren nächsten Aufenthalt reservieren wir Ihnen gern einen Parkplatz.",
                   False),
    "Inès Laurent": ("Merci infiniment, Inès ! Au plaisir de vous accueillir à nouveau.", False),
}
HIDDEN = {"Lucía García"}  # an Airbnb review hidden until the host reviews the guest
GUEST_REVIEWED = {"Noah Williams": "Noah and his family left the villa spotless. Welcome back any time!"}
EXPIRED = {"João Silva"}  # too old to answer now


def load_reviews(engine: Engine, channels: dict[str, Any], ids: dict[str, str]) -> None:
    operator = engine.identity.operator()
    now = engine.config.clock()
    adapters = {code: engine.bookings.channel_by_key(c["id"], c["inbound_key"]) for code, c in channels.items()
                if code in ("BookingCom", "AirBNB")}
    for number, (title, code, guest, days, overall, scores, words, tags) in enumerate(REVIEWS):
        received = now - timedelta(days=days, hours=number)
        expires = received + timedelta(days=35 if guest in EXPIRED else 60)
        review, _ = engine.reviews.receive(adapters[code], {
            "ota_review_id": f"{code[:3].upper()}-R{58_210 + number}", "property_id": ids[title], "guest_name": guest,
            "ota_reservation_id": f"{4_300_000 + number * 7}", "content": words, "overall_score": overall,
            "scores": [{"category": name, "score": value} for name, value in scores.items()], "tags": tags,
            "received_at": received.isoformat(), "expired_at": expires.isoformat(), "is_hidden": guest in HIDDEN})
        if guest in GUEST_REVIEWED:
            engine.reviews.guest_review(operator, review["id"], {
                "scores": [{"category": c, "rating": 5} for c in ("respect_house_rules", "communication",
                                                                  "cleanliness")],
                "public_review": GUEST_REVIEWED[guest], "is_reviewee_recommended": True,
                "tags": ["host_review_guest_positive_neat_and_tidy"]})
            engine.reviews.delivered(adapters[code], review["id"], "guest_review")
        if guest in REPLIES:
            text, delivered = REPLIES[guest]
            engine.reviews.reply(operator, review["id"], {"reply": text})
            if delivered:
                engine.reviews.delivered(adapters[code], review["id"], "reply")
