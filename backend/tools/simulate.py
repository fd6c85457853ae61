"""Realistic guest traffic for a live inbox: OTA bookings whose guests write, follow-ups, files, Airbnb
inquiries, and guests' reviews of their stays (scored out of 10 on Booking.com, in stars on Airbnb), at a chosen
pace, into a database (through the engine) or a running server (through the channels' inbound API, as a real
adapter would). It plays the channels' side of staff's replies too: before each event, each channel takes the
replies waiting in its outbox (the feed real adapters pull) and acknowledges them, so that they show delivered;
a channel that pulls ARI reads its feed and acks it the same way, so its events out do not pile up.

The traffic is a seeded random walk over what the channels sell, so a run can be repeated.
"""

from __future__ import annotations

import base64
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any, Protocol, cast

from backend.bookings.store import ended_stays
from backend.channels.store import channel_row, chatting_ota_channels
from backend.core.errors import NotSupported
from backend.core.listing import ListQuery
from backend.properties.store import properties_with_app
from storage import Row

if TYPE_CHECKING:
    import httpx

    from backend.engine import Engine

OPENERS = [
    "Hello! What time can we check in?", "Bonjour, y a-t-il un parking près de chez vous ?",
    "Hallo, ist das Frühstück im Preis inbegriffen?", "Hola, ¿podemos dejar las maletas antes?",
    "Olá! Há berço disponível para um bebé?", "Ciao, è possibile un check-out tardivo?",
    "こんにちは、空港からの行き方を教えてください。", "Hi, we are celebrating an anniversary — any chance of a room with a view?",
]
FOLLOW_UPS = ["Thank you!", "Merci beaucoup !", "Danke, bis bald!", "¡Perfecto, gracias!", "Obrigado!",
              "One more question: is there a lift?", "We will arrive around 22:00.", "Can we pay by card on arrival?"]
INQUIRIES = ["Is the place free for these dates?", "Do you accept dogs?", "Is there a crib for our toddler?",
             "Could we arrive a day earlier?"]
NAMES = [("Ava", "Hall"), ("Felix", "Koch"), ("Inès", "Laurent"), ("Mateo", "Díaz"), ("Leonor", "Pereira"),
         ("Riccardo", "Conti"), ("Ren", "Takahashi"), ("Grace", "Wood"), ("Elias", "Lang"), ("Zoé", "Moreau")]
# Guests' reviews: (words, how pleased, from 0 to 1), in several languages.
REVIEWS = [("Wonderful stay, spotless room and the kindest staff.", 0.95),
           ("Très bon séjour, emplacement idéal. Le petit-déjeuner pourrait être plus varié.", 0.75),
           ("Sehr sauber und ruhig, aber das WLAN war langsam.", 0.7), ("¡Todo perfecto, volveremos seguro!", 1.0),
           ("Casa linda, mas o check-in demorou muito.", 0.55), ("Posizione ottima, camera un po' rumorosa.", 0.6),
           ("部屋が清潔で、スタッフがとても親切でした。", 0.9),
           ("The photos were out of date and the heating did not work.", 0.25)]
REVIEW_CATEGORIES = {"BookingCom": ("clean", "comfort", "facilities", "location", "services", "staff", "value"),
                     "AirBNB": ("cleanliness", "accuracy", "checkin", "communication", "location", "value")}
# The smallest real PNG and a short menu: files a guest might send.
FILES = [("photo.png", "image/png", base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")),
    ("arrival.txt", "text/plain", b"Flight LX 1234, landing 21:40.\n")]


class Sink(Protocol):
    """Where the traffic goes: each call is one thing a channel's adapter sends."""

    def booking(self, channel: dict[str, Any], body: dict[str, Any]) -> str: ...
    def message(self, channel: dict[str, Any], body: dict[str, Any]) -> str: ...
    def inquiry(self, channel: dict[str, Any], body: dict[str, Any]) -> str: ...
    def attachment(self, channel: dict[str, Any], body: dict[str, Any]) -> str: ...
    def review(self, channel: dict[str, Any], body: dict[str, Any]) -> str: ...
    def ended_stays(self, channel: dict[str, Any], today: date) -> list[str]: ...
    def outbox(self, channel: dict[str, Any]) -> list[str]: ...
    def ack(self, channel: dict[str, Any], message_id: str) -> None: ...
    def ari_page(self, channel: dict[str, Any]) -> AriPage | None:
        """The next page of the channel's ARI feed (from its acked cursor), or None if it takes no ARI by pull."""
        ...

    def ack_ari(self, channel: dict[str, Any], cursor: int) -> None: ...


@dataclass(frozen=True)
class AriPage:
    values: int  # how many
    cursor: int  # where the page ends: what to ack
    has_more: bool


OUTBOX_PAGE = 100  # replies a channel takes at a time (the feed's largest page)
ENDED_STAYS = 200  # ended stays a channel's guests may review, per run
ARI_PAGES = 20  # pages of ARI a pull channel reads at a time, at most


@dataclass
class Traffic:
    """Chooses the next event: a new booking with its first message, a follow-up on a known booking
    (with a file now and then), a guest's review of a stay that has ended, or an inquiry when an Airbnb channel is
    there. A guest reviews only after leaving: the stays reviewed are those the sink knows to have ended before
    `today` (the run's own bookings are all in the future), each once."""

    channels: list[dict[str, Any]]  # adapter views: id, channel_code, property_ids, rate_plans
    sink: Sink
    today: date
    rng: random.Random = field(default_factory=random.Random)
    bookings: list[tuple[dict[str, Any], str]] = field(default_factory=list)
    reviewed: set[str] = field(default_factory=set)
    count: int = 0
    ended: list[tuple[dict[str, Any], str]] = field(default_factory=list)
    acked: dict[str, int] = field(default_factory=dict)  # channel id: the ARI cursor acked last

    def __post_init__(self) -> None:
        self.ended += [(channel, booking_id) for channel in self.channels
                       for booking_id in self.sink.ended_stays(channel, self.today)]

    def deliver(self) -> list[str]:
        """Each channel takes the replies waiting for it and acknowledges them, as its adapter would once the OTA
        has them; a line for each channel that had some."""
        lines = []
        for channel in self.channels:
            taken = self.sink.outbox(channel)
            for message_id in taken:
                self.sink.ack(channel, message_id)
            if taken:
                replies = "a reply" if len(taken) == 1 else f"{len(taken)} replies"
                lines.append(f"{channel['channel_code']}: {replies} from staff delivered")
            values = self.pull(channel)
            if values:
                lines.append(f"{channel['channel_code']}: read {values:,} ARI value{'s' if values > 1 else ''}")
        return lines

    def pull(self, channel: dict[str, Any]) -> int:
        """The ARI values a pull channel read and acked (0 for one that takes none by pull)."""
        read = 0
        for _ in range(ARI_PAGES):
            page = self.sink.ari_page(channel)
            if page is None:
                break
            if self.acked.get(channel["id"]) != page.cursor:  # an ack of nothing new would tell every console
                self.sink.ack_ari(channel, page.cursor)
                self.acked[channel["id"]] = page.cursor
            read += page.values
            if not page.has_more:
                break
        return read

    def step(self) -> str:
        """Plays one event and says what it was, in a line fit for a log."""
        self.count += 1
        airbnb = [c for c in self.channels if c["channel_code"] == "AirBNB" and c["property_ids"]]
        roll = self.rng.random()
        if airbnb and roll < 0.12:
            return self._inquiry(self.rng.choice(airbnb))
        if self.bookings and roll < 0.6:
            return self._follow_up(*self.rng.choice(self.bookings))
        unreviewed = [b for b in self.ended if b[1] not in self.reviewed]
        if unreviewed and roll < 0.75:
            return self._review(*self.rng.choice(unreviewed))
        return self._new_booking(self.rng.choice([c for c in self.channels if c["rate_plans"]]))

    def _new_booking(self, channel: dict[str, Any]) -> str:
        plan = self.rng.choice(channel["rate_plans"])
        name, surname = self.rng.choice(NAMES)
        arrival = self.today + timedelta(days=self.rng.randint(20, 300))
        booking_id = self.sink.booking(channel, {
            "status": "new", "reservation_id": f"SIM{self.rng.randrange(10**9):09d}", "property_id": plan["property_id"],
            "arrival_date": arrival.isoformat(), "departure_date": (arrival + timedelta(days=self.rng.randint(1, 5))).isoformat(),
            "currency": plan["currency"], "payment_collect": "ota",
            "customer": {"name": name, "surname": surname},
            "rooms": [{"room_type_code": plan["room_type_id"], "rate_plan_code": plan["id"], "occupancy": {"adults": 2}}]})
        self.bookings.append((channel, booking_id))
        self.sink.message(channel, {"booking_id": booking_id, "message": self.rng.choice(OPENERS)})
        return f"{channel['channel_code']}: new booking from {name} {surname}, and their first message"

    def _follow_up(self, channel: dict[str, Any], booking_id: str) -> str:
        body: dict[str, Any] = {"booking_id": booking_id, "message": self.rng.choice(FOLLOW_UPS)}
        if self.rng.random() < 0.2:
            file_name, file_type, content = self.rng.choice(FILES)
            body["attachments"] = [self.sink.attachment(channel, {
                "file": base64.b64encode(content).decode(), "file_name": file_name, "file_type": file_type})]
        self.sink.message(channel, body)
        return f"{channel['channel_code']}: a guest writes again" + (" with a file" if "attachments" in body else "")

    def _review(self, channel: dict[str, Any], booking_id: str) -> str:
        """The guest's review of the stay: each category near how pleased the guest is, on the channel's scale
        (Airbnb's stars, Booking.com's 10); an Airbnb review hidden now and then, until the host reviews the guest."""
        code = channel["channel_code"]
        words, pleased = self.rng.choice(REVIEWS)
        top, low = (5, 1) if code == "AirBNB" else (10, 1)

        def rated() -> float:
            value = low + (top - low) * min(1.0, max(0.0, pleased + self.rng.uniform(-0.15, 0.15)))
            return round(value) if code == "AirBNB" else round(value * 2) / 2

        name, surname = self.rng.choice(NAMES)
        self.reviewed.add(booking_id)
        self.sink.review(channel, {
            "ota_review_id": f"SIMR{self.rng.randrange(10**9):09d}", "booking_id": booking_id,
            "guest_name": f"{name} {surname}", "content": words, "overall_score": rated(),
            "scores": [{"category": c, "score": rated()} for c in REVIEW_CATEGORIES[code]],
            "is_hidden": code == "AirBNB" and self.rng.random() < 0.3,
            "expired_at": f"{(self.today + timedelta(days=30)).isoformat()}T00:00:00Z"})
        return f"{code}: {name} {surname} reviews their stay"

    def _inquiry(self, channel: dict[str, Any]) -> str:
        name, surname = self.rng.choice(NAMES)
        checkin = self.today + timedelta(days=self.rng.randint(10, 200))
        nights = self.rng.randint(2, 7)
        property_id = self.rng.choice(channel["property_ids"])
        self.sink.inquiry(channel, {"guest_name": f"{name} {surname}", "message": self.rng.choice(INQUIRIES),
                                    "booking_details": {
            "property_id": property_id, "listing_id": str(self.rng.randint(1000, 9999)), "listing_name": "Listing",
            "guest_name": f"{name} {surname}", "checkin_date": checkin.isoformat(),
            "checkout_date": (checkin + timedelta(days=nights)).isoformat(), "nights": nights, "currency": "EUR",
            "expected_payout_amount_accurate": f"{nights * self.rng.randint(80, 300)}.00",
            "non_response_at": f"{(self.today + timedelta(days=1)).isoformat()}T12:00:00Z", "number_of_adults": 2}})
        return f"AirBNB: an inquiry from {name} {surname}"


def run(traffic: Traffic, count: int, every: float, say: Callable[[str], None],
        sleep: Callable[[float], None] = time.sleep) -> None:
    """`count` events (0: until interrupted), `every` seconds apart; before each, the replies waiting are
    delivered."""
    while count == 0 or traffic.count < count:
        for line in traffic.deliver():
            say(line)
        say(traffic.step())
        if every and (count == 0 or traffic.count < count):
            sleep(every)


class EngineSink:
    """Straight into a database, through the same engine calls the inbound API makes."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def booking(self, channel: dict[str, Any], body: dict[str, Any]) -> str:
        return cast(str, self.engine.bookings.inbound(self._row(channel), body, secure=False)[0]["id"])

    def message(self, channel: dict[str, Any], body: dict[str, Any]) -> str:
        return cast(str, self.engine.chat.receive(self._row(channel), body)["id"])

    def inquiry(self, channel: dict[str, Any], body: dict[str, Any]) -> str:
        return cast(str, self.engine.chat.inquiry(self._row(channel), body)["id"])

    def attachment(self, channel: dict[str, Any], body: dict[str, Any]) -> str:
        return cast(str, self.engine.chat.attachments.upload(body, channel_id=channel["id"])["id"])

    def review(self, channel: dict[str, Any], body: dict[str, Any]) -> str:
        return cast(str, self.engine.reviews.receive(self._row(channel), body)[0]["id"])

    def ended_stays(self, channel: dict[str, Any], today: date) -> list[str]:
        return ended_stays(self.engine.store, channel["id"], today.isoformat(), ENDED_STAYS)

    def outbox(self, channel: dict[str, Any]) -> list[str]:
        return [m["id"] for m in self.engine.chat.outbox(self._row(channel), ListQuery(limit=OUTBOX_PAGE))[0]]

    def ack(self, channel: dict[str, Any], message_id: str) -> None:
        self.engine.chat.delivered(self._row(channel), message_id)

    def ari_page(self, channel: dict[str, Any]) -> AriPage | None:
        try:
            page = self.engine.distribution.feed(self._row(channel), None)
        except NotSupported:
            return None
        return AriPage(len(page.values), page.cursor, page.has_more)

    def ack_ari(self, channel: dict[str, Any], cursor: int) -> None:
        self.engine.distribution.ack(self._row(channel), cursor)

    def _row(self, channel: dict[str, Any]) -> Row:
        return cast(Row, channel_row(self.engine.store, channel["id"]))  # one of channels()

    def channels(self) -> list[dict[str, Any]]:
        """The database's OTA channels that reach a property with the chat app."""
        rows = chatting_ota_channels(self.engine.store)
        chatting = properties_with_app(self.engine.store, "chat")
        views = [self.engine.channels.adapter_view(r) for r in rows]
        return [{**v, "property_ids": [p for p in v["property_ids"] if p in chatting],
                 "rate_plans": [p for p in v["rate_plans"] if p["property_id"] in chatting]} for v in views]


class HttpSink:
    """Into a running server, through each channel's inbound API with its inbound key."""

    def __init__(self, client: httpx.Client, keys: dict[str, str]) -> None:
        self.client = client  # an httpx.Client on the server's base URL
        self.keys = keys

    def booking(self, channel: dict[str, Any], body: dict[str, Any]) -> str:
        return self._post(channel, "bookings", {"booking": body})

    def message(self, channel: dict[str, Any], body: dict[str, Any]) -> str:
        return self._post(channel, "messages", {"message": body})

    def inquiry(self, channel: dict[str, Any], body: dict[str, Any]) -> str:
        return self._post(channel, "inquiries", {"inquiry": body})

    def attachment(self, channel: dict[str, Any], body: dict[str, Any]) -> str:
        return self._post(channel, "attachments", {"attachment": body})

    def review(self, channel: dict[str, Any], body: dict[str, Any]) -> str:
        return self._post(channel, "reviews", {"review": body})

    def ended_stays(self, channel: dict[str, Any], today: date) -> list[str]:
        """None: a channel's inbound API lists no bookings, so over a server the traffic writes no reviews."""
        return []

    def outbox(self, channel: dict[str, Any]) -> list[str]:
        response = self.client.get(f"/api/v1/inbound/{channel['id']}/outbox",
                                   params={"pagination[limit]": str(OUTBOX_PAGE)},
                                   headers={"api-key": self.keys[channel["id"]]})
        response.raise_for_status()
        return [m["id"] for m in response.json()["data"]]

    def ack(self, channel: dict[str, Any], message_id: str) -> None:
        response = self.client.post(f"/api/v1/inbound/{channel['id']}/outbox/{message_id}/ack",
                                    headers={"api-key": self.keys[channel["id"]]})
        response.raise_for_status()

    def ari_page(self, channel: dict[str, Any]) -> AriPage | None:
        response = self.client.get(f"/api/v1/inbound/{channel['id']}/ari", headers={"api-key": self.keys[channel["id"]]})
        if response.status_code == 422 and response.json()["errors"]["code"] == "not_supported":
            return None
        response.raise_for_status()
        page = response.json()
        return AriPage(len(page["data"]), page["meta"]["cursor"], page["meta"]["has_more"])

    def ack_ari(self, channel: dict[str, Any], cursor: int) -> None:
        self.client.post(f"/api/v1/inbound/{channel['id']}/ari/ack", headers={"api-key": self.keys[channel["id"]]},
                         json={"cursor": cursor}).raise_for_status()

    def channels(self) -> list[dict[str, Any]]:
        return [self._get(channel_id)["data"]["attributes"] for channel_id in self.keys]

    def _get(self, channel_id: str) -> dict[str, Any]:
        response = self.client.get(f"/api/v1/inbound/{channel_id}", headers={"api-key": self.keys[channel_id]})
        response.raise_for_status()
        return cast(dict[str, Any], response.json())

    def _post(self, channel: dict[str, Any], what: str, body: dict[str, Any]) -> str:
        response = self.client.post(f"/api/v1/inbound/{channel['id']}/{what}", json=body,
                                    headers={"api-key": self.keys[channel["id"]]})
        response.raise_for_status()
        return cast(str, response.json()["data"]["id"])
