"""Reviews over real HTTP, from the shapes of reference §8: the list and its meta, filters, pages and order; one
review; the one reply and the host's review of an Airbnb guest, each taken by the channel's adapter from its feed;
the property's scores; the error table; and the channels' side: reviews in, idempotent by the channel's review id."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from backend.core.listing import ListQuery
from tests.shopping.shop import Shop, booking, check, day, make_shop

TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$")
# The attributes reference §8 shows on a review, and those its changelog and clients add.
DOCUMENTED = {"id", "content", "guest_name", "inserted_at", "updated_at", "received_at", "is_hidden", "is_replied",
              "ota", "ota_reservation_id", "overall_score", "reply", "scores", "tags"}
ALSO_SEEN = {"listing_id", "is_expired", "raw_content", "public_review", "private_feedback"}
BOOKING_SCORES = [{"category": "clean", "score": 10}, {"category": "comfort", "score": 7.5},
                  {"category": "staff", "score": 9}]


def ago(**delta: float) -> str:
    return (datetime.now(UTC) - timedelta(**delta)).strftime("%Y-%m-%dT%H:%M:%SZ")


def later(**delta: float) -> str:
    return (datetime.now(UTC) + timedelta(**delta)).strftime("%Y-%m-%dT%H:%M:%SZ")


class Stays:
    """A property on a channel of `code`, the channel's adapter, and an OTA booking it sent."""

    def __init__(self, user, live, code: str = "BookingCom") -> None:
        self.shop: Shop = make_shop(user, channel_code=code)
        self.code = code
        self.client = user.client
        self.adapter = httpx.Client(base_url=live[1].url, timeout=10, headers={"api-key": self.shop.inbound_key})
        self.inbound = f"/api/v1/inbound/{self.shop.channel_id}"
        body = booking(self.shop, day(3), day(5), property_id=self.shop.property_id, reservation_id="RES-1")
        self.booking_id = check(self.adapter.post(f"{self.inbound}/bookings", json=body), 201)["data"]["id"]
        self.made = 0

    def send(self, status: int = 201, **fields: Any) -> dict[str, Any]:
        """A review from the channel: a new one unless `ota_review_id` is given."""
        self.made += 1
        body = {"ota_review_id": f"R-{self.made}", "property_id": self.shop.property_id, "guest_name": "Jane Doe",
                "content": "Lovely stay", "received_at": ago(hours=self.made), **fields}
        if self.code == "BookingCom":
            body.setdefault("scores", BOOKING_SCORES)
            body.setdefault("overall_score", 9.0)
        else:
            body.setdefault("scores", [{"category": "cleanliness", "rating": 5}, {"category": "checkin", "rating": 4}])
        return check(self.adapter.post(f"{self.inbound}/reviews", json={"review": body}), status)

    def reply(self, review_id: str, text: str = "Thank you!", status: int = 200) -> dict[str, Any]:
        return check(self.client.post(f"/api/v1/reviews/{review_id}/reply", json={"reply": {"reply": text}}), status)

    def review(self, review_id: str) -> dict[str, Any]:
        return check(self.client.get(f"/api/v1/reviews/{review_id}"))["data"]

    def feed(self) -> list[dict[str, Any]]:
        return check(self.adapter.get(f"{self.inbound}/reviews/outbox"))["data"]

    def close(self) -> None:
        self.adapter.close()


@pytest.fixture
def hotel(user, live):
    made = Stays(user, live)
    yield made
    made.close()


@pytest.fixture
def flat(user, live):
    made = Stays(user, live, "AirBNB")
    yield made
    made.close()


def guest_review_body(**fields: Any) -> dict[str, Any]:
    return {"review": {"scores": [{"category": "respect_house_rules", "rating": 5},
                                  {"category": "communication", "rating": 5}, {"category": "cleanliness", "rating": 4}],
                       "public_review": "A lovely guest", "private_review": "Thanks for the wine",
                       "is_reviewee_recommended": True, "tags": ["host_review_guest_positive_neat_and_tidy"],
                       **fields}}


def test_a_review_comes_in_and_reads_as_the_reference_shows_it(hotel):
    sent = hotel.send(booking_id=hotel.booking_id, property_id=None, ota_reservation_id="RES-1")["data"]
    assert sent["type"] == "review"
    listed = check(hotel.client.get("/api/v1/reviews", params={"filter[property_id]": hotel.shop.property_id}))
    assert listed["meta"] == {"limit": 10, "order_by": "received_at", "order_direction": "desc", "page": 1, "total": 1}
    [review] = listed["data"]
    attributes = review["attributes"]
    assert DOCUMENTED | ALSO_SEEN <= attributes.keys()
    assert attributes["id"] == review["id"] == sent["id"]
    assert attributes["ota"] == "BookingCom" and attributes["guest_name"] == "Jane Doe"
    assert attributes["content"] == "Lovely stay" and attributes["ota_reservation_id"] == "RES-1"
    assert attributes["overall_score"] == 9.0 and isinstance(attributes["overall_score"], float)
    assert attributes["scores"] == [{"category": "clean", "score": 10.0}, {"category": "comfort", "score": 7.5},
                                    {"category": "staff", "score": 9.0}]
    assert attributes["reply"] is None and attributes["is_replied"] is False and attributes["is_hidden"] is False
    assert attributes["tags"] == [] and attributes["is_expired"] is False
    for stamp in ("inserted_at", "updated_at", "received_at"):
        assert TIMESTAMP.match(attributes[stamp]), stamp
    assert review["relationships"] == {
        "booking": {"data": {"id": hotel.booking_id, "type": "booking"}},
        "channel": {"data": {"id": hotel.shop.channel_id, "type": "channel"}},
        "property": {"data": {"id": hotel.shop.property_id, "type": "property"}}}  # no title in a list
    one = hotel.review(review["id"])
    assert one["attributes"] == attributes
    title = check(hotel.client.get(f"/api/v1/properties/{hotel.shop.property_id}"))["data"]["attributes"]["title"]
    assert one["relationships"]["property"]["data"] == {"id": hotel.shop.property_id, "type": "property",
                                                        "title": title}


def test_the_reservation_number_links_the_channels_booking(hotel):
    review = hotel.send(ota_reservation_id="RES-1")["data"]
    assert review["relationships"]["booking"]["data"]["id"] == hotel.booking_id
    unknown = hotel.send(ota_reservation_id="RES-404")["data"]
    assert unknown["relationships"]["booking"]["data"] is None


def test_the_same_review_sent_twice_is_one_and_sent_changed_is_updated(hotel, live):
    first = hotel.send(ota_review_id="R-twice")["data"]
    body = first["attributes"]
    again = hotel.send(200, ota_review_id="R-twice", received_at=None)
    # received_at left out is "now": a different body, so send the same one for the idempotency check.
    same = hotel.send(200, ota_review_id="R-twice", received_at=body["received_at"] + "Z")["data"]
    assert again["data"]["id"] == same["id"] == first["id"]
    assert check(hotel.client.get("/api/v1/reviews", params={
        "filter[property_id]": hotel.shop.property_id}))["meta"]["total"] == 1
    unchanged = hotel.review(first["id"])["attributes"]["updated_at"]
    assert hotel.send(200, ota_review_id="R-twice", received_at=body["received_at"] + "Z")["data"]["attributes"][
        "updated_at"] == unchanged
    changed = hotel.send(200, ota_review_id="R-twice", received_at=body["received_at"] + "Z", overall_score=6.0,
                         scores=[{"category": "clean", "score": 6}], content="Changed my mind")["data"]["attributes"]
    assert changed["overall_score"] == 6.0 and changed["scores"] == [{"category": "clean", "score": 6.0}]
    assert changed["content"] == "Changed my mind" and changed["updated_at"] > unchanged
    score = check(hotel.client.get(f"/api/v1/scores/{hotel.shop.property_id}"))["data"]["attributes"]
    assert score["count"] == 1 and score["overall_score"] == 6.0
    assert score["scores"] == {"clean": {"count": 1, "score": 6.0}}
    assert live[0].store.scalar("SELECT count(*) FROM reviews WHERE channel_id = ?", (hotel.shop.channel_id,)) == 1


def test_airbnb_stars_are_scored_out_of_ten_and_kept_as_sent(flat):
    review = flat.send(scores=[{"category": "cleanliness", "rating": 5}, {"category": "accuracy", "rating": 4},
                               {"category": "checkin", "rating": 3.5}], tags=["guest_review_host_positive_cozy"],
                       private_feedback="The shower was cold", listing_id="L-77")["data"]["attributes"]
    assert review["ota"] == "AirBNB"
    assert review["scores"] == [{"category": "accuracy", "score": 8.0}, {"category": "checkin", "score": 7.0},
                                {"category": "clean", "score": 10.0}]
    assert review["overall_score"] == 8.33  # the categories' mean, Airbnb sending no overall here
    assert review["raw_content"]["scores"] == [{"category": "cleanliness", "score": 5.0},
                                               {"category": "accuracy", "score": 4.0},
                                               {"category": "checkin", "score": 3.5}]
    assert review["private_feedback"] == "The shower was cold" and review["listing_id"] == "L-77"
    assert review["tags"] == ["guest_review_host_positive_cozy"]
    assert flat.send(overall_score=4.5)["data"]["attributes"]["overall_score"] == 9.0


def test_filters_pages_and_order(hotel, flat, user):
    hotel.send(overall_score=9.5, received_at=ago(days=1))
    hotel.send(overall_score=6.0, received_at=ago(days=3), booking_id=hotel.booking_id, property_id=None)
    low = hotel.send(overall_score=4.0, received_at=ago(days=2))["data"]
    flat.send(overall_score=5.0, received_at=ago(days=4))
    flat.send(overall_score=3.0, received_at=ago(days=5))
    hotel.reply(low["id"])

    def listed(**params: Any) -> tuple[list[float], dict]:
        body = check(user.client.get("/api/v1/reviews", params=params))
        return [r["attributes"]["overall_score"] for r in body["data"]], body["meta"]

    assert listed() == ([9.5, 4.0, 6.0, 10.0, 6.0], {"limit": 10, "order_by": "received_at",
                                                    "order_direction": "desc", "page": 1, "total": 5})
    assert listed(**{"pagination[limit]": 2, "pagination[page]": 2}) == (
        [6.0, 10.0], {"limit": 2, "order_by": "received_at", "order_direction": "desc", "page": 2, "total": 5})
    assert listed(**{"filter[ota]": "AirBNB"})[0] == [10.0, 6.0]
    assert listed(**{"filter[property_id]": hotel.shop.property_id})[0] == [9.5, 4.0, 6.0]
    assert listed(**{"filter[channel_id]": flat.shop.channel_id})[0] == [10.0, 6.0]
    assert listed(**{"filter[is_replied]": "true"}) == ([4.0], {"limit": 10, "order_by": "received_at",
                                                               "order_direction": "desc", "page": 1, "total": 1})
    assert listed(**{"filter[is_replied]": "false", "pagination[limit]": 1})[1]["total"] == 4
    assert listed(**{"filter[overall_score][gte]": "6", "filter[overall_score][lte]": "9.5"})[0] == [9.5, 6.0, 6.0]
    assert listed(**{"filter[booking_id]": hotel.booking_id})[0] == [6.0]
    ordered, meta = listed(**{"order[overall_score]": "asc"})
    assert ordered == [4.0, 6.0, 6.0, 9.5, 10.0] and (meta["order_by"], meta["order_direction"]) == (
        "overall_score", "asc")
    for bad in ({"filter[overall_score][gte]": "high"}, {"filter[nope]": "1"}, {"order[content]": "asc"},
                {"pagination[limit]": "101"}, {"filter[is_replied]": "maybe"}):
        assert check(user.client.get("/api/v1/reviews", params=bad), 422)["errors"]["code"] == "validation_error"


def test_a_review_takes_one_reply_which_the_adapter_takes_once(hotel):
    review_id = hotel.send()["data"]["id"]
    replied = hotel.reply(review_id, "Thank you, come back soon!")["data"]["attributes"]
    assert replied["reply"] == "Thank you, come back soon!" and replied["is_replied"] is True
    assert replied["reply_state"] == "pending" and replied["reply_sent_at"] is None
    again = hotel.reply(review_id, "Another", status=422)["errors"]
    assert again["code"] == "validation_error" and "reply" in again["details"]
    assert hotel.review(review_id)["attributes"]["reply"] == "Thank you, come back soon!"
    [waiting] = hotel.feed()
    assert waiting["type"] == "review_reply" and waiting["id"] == review_id
    assert waiting["attributes"]["reply"] == "Thank you, come back soon!"
    assert waiting["attributes"]["ota_review_id"] == hotel.review(review_id)["attributes"]["ota_review_id"]
    check(hotel.adapter.post(f"{hotel.inbound}/reviews/{review_id}/reply/ack"))
    check(hotel.adapter.post(f"{hotel.inbound}/reviews/{review_id}/reply/ack"))  # a repeat changes nothing
    assert hotel.feed() == []
    delivered = hotel.review(review_id)["attributes"]
    assert delivered["reply_state"] == "delivered" and TIMESTAMP.match(delivered["reply_sent_at"])
    assert check(hotel.adapter.post(f"{hotel.inbound}/reviews/{review_id}/reply/fail"), 422)
    assert check(hotel.adapter.post(f"{hotel.inbound}/reviews/{review_id}/guest_review/ack"), 404)


def test_a_reply_the_channel_refuses_shows_failed_and_may_be_written_again(hotel):
    review_id = hotel.send()["data"]["id"]
    hotel.reply(review_id, "First try")
    check(hotel.adapter.post(f"{hotel.inbound}/reviews/{review_id}/reply/fail",
                             json={"failure": {"error": "reply window closed"}}))
    failed = hotel.review(review_id)["attributes"]
    assert failed["reply_state"] == "failed" and failed["is_replied"] is False
    assert failed["reply_error"] == "reply window closed"
    assert hotel.feed() == []
    assert hotel.reply(review_id, "Second try")["data"]["attributes"]["reply_state"] == "pending"
    assert [w["attributes"]["reply"] for w in hotel.feed()] == ["Second try"]


def test_no_reply_while_hidden_or_once_expired(hotel, flat):
    hidden = flat.send(is_hidden=True)["data"]["id"]
    assert "hidden" in flat.reply(hidden, status=422)["errors"]["details"]["reply"][0]
    expired = hotel.send(received_at=ago(days=40), expired_at=ago(days=5))["data"]
    assert expired["attributes"]["is_expired"] is True and TIMESTAMP.match(expired["attributes"]["expired_at"])
    assert "expired" in hotel.reply(expired["id"], status=422)["errors"]["details"]["reply"][0]
    assert hotel.send(expired_at=later(days=30))["data"]["attributes"]["is_expired"] is False
    assert flat.feed() == [] and hotel.feed() == []


def test_an_airbnb_host_reviews_the_guest_once_and_the_guests_review_shows(flat, hotel):
    review_id = flat.send(is_hidden=True)["data"]["id"]
    given = check(flat.client.post(f"/api/v1/reviews/{review_id}/guest_review", json=guest_review_body()))["data"]
    guest = given["attributes"]["guest_review"]
    assert guest["public_review"] == "A lovely guest" and guest["is_reviewee_recommended"] is True
    assert guest["scores"][0] == {"category": "respect_house_rules", "rating": 5} and guest["state"] == "pending"
    assert given["attributes"]["is_hidden"] is True  # until Airbnb has the host's review
    again = check(flat.client.post(f"/api/v1/reviews/{review_id}/guest_review", json=guest_review_body()), 422)
    assert "review" in again["errors"]["details"]
    [waiting] = flat.feed()
    assert waiting["type"] == "guest_review"
    assert waiting["attributes"]["guest_review"]["public_review"] == "A lovely guest"
    check(flat.adapter.post(f"{flat.inbound}/reviews/{review_id}/guest_review/ack"))
    shown = flat.review(review_id)["attributes"]
    assert shown["is_hidden"] is False and shown["guest_review"]["state"] == "delivered"
    assert flat.reply(review_id)["data"]["attributes"]["reply_state"] == "pending"
    booking_com = hotel.send()["data"]["id"]
    refused = check(hotel.client.post(f"/api/v1/reviews/{booking_com}/guest_review", json=guest_review_body()), 422)
    assert refused["errors"]["code"] == "not_supported"


@pytest.mark.parametrize("fields, field", [
    ({"scores": [{"category": "respect_house_rules", "rating": 5}]}, "scores"),
    ({"scores": [{"category": c, "rating": 6} for c in ("respect_house_rules", "communication", "cleanliness")]},
     "scores.0.rating"),
    ({"scores": [{"category": c, "rating": 5} for c in ("respect_house_rules", "communication", "location")]},
     "scores"),
    ({"public_review": ""}, "public_review"),
    ({"public_review": "x" * 5_001}, "public_review"),
    ({"is_reviewee_recommended": "yes"}, "is_reviewee_recommended"),
    ({"tags": ["Not A Tag!"]}, "tags"),
])
def test_a_bad_guest_review_is_refused_naming_its_field(flat, fields, field):
    review_id = flat.send()["data"]["id"]
    refused = check(flat.client.post(f"/api/v1/reviews/{review_id}/guest_review", json=guest_review_body(**fields)),
                    422)["errors"]
    assert refused["code"] == "validation_error" and field in refused["details"], refused
    assert flat.review(review_id)["attributes"]["guest_review"] is None


def test_the_propertys_scores_and_per_channel_scores(user, live):
    hotel = Stays(user, live)
    other = check(user.client.post("/api/v1/channels", json={"channel": {
        "title": "Airbnb", "channel_code": "AirBNB", "property_ids": [hotel.shop.property_id],
        "rate_plan_ids": [hotel.shop.plan_id]}}), 201)["data"]["attributes"]
    airbnb = httpx.Client(base_url=live[1].url, timeout=10, headers={"api-key": other["inbound_key"]})
    hotel.send(overall_score=9.0, scores=[{"category": "clean", "score": 10}, {"category": "staff", "score": 8}])
    hotel.send(overall_score=7.0, scores=[{"category": "clean", "score": 7}])
    check(airbnb.post(f"/api/v1/inbound/{other['id']}/reviews", json={"review": {
        "ota_review_id": "A-1", "property_id": hotel.shop.property_id, "overall_score": 4,
        "scores": [{"category": "cleanliness", "rating": 4}, {"category": "communication", "rating": 5}]}}), 201)
    body = check(user.client.get(f"/api/v1/scores/{hotel.shop.property_id}"))["data"]
    assert body["type"] == "score" and body["id"] == body["attributes"]["id"]
    score = body["attributes"]
    assert score["count"] == 3 and score["overall_score"] == 8.0
    assert score["scores"] == {"clean": {"count": 3, "score": 8.33}, "communication": {"count": 1, "score": 10.0},
                               "staff": {"count": 1, "score": 8.0}}
    assert TIMESTAMP.match(score["inserted_at"]) and TIMESTAMP.match(score["updated_at"])
    title = check(user.client.get(f"/api/v1/properties/{hotel.shop.property_id}"))["data"]["attributes"]["title"]
    assert body["relationships"] == {"property": {"data": {"id": hotel.shop.property_id, "title": title,
                                                           "type": "property"}}}
    detailed = check(user.client.get(f"/api/v1/scores/{hotel.shop.property_id}/detailed"))["data"]
    assert detailed["attributes"] == score
    per_channel = {o["data"]["attributes"]["ota"]: o["data"] for o in detailed["relationships"]["ota_scores"]}
    assert {o["type"] for o in per_channel.values()} == {"ota_score"}
    booking_com, stars = per_channel["BookingCom"]["attributes"], per_channel["AirBNB"]["attributes"]
    assert (booking_com["channel_id"], booking_com["count"], booking_com["overall_score"]) == (
        hotel.shop.channel_id, 2, 8.0)
    assert booking_com["scores"] == {"clean": {"count": 2, "score": 8.5}, "staff": {"count": 1, "score": 8.0}}
    assert (stars["channel_id"], stars["count"], stars["overall_score"]) == (other["id"], 1, 8.0)
    assert per_channel["AirBNB"]["id"] == stars["id"]
    empty = Stays(user, live)
    assert check(user.client.get(f"/api/v1/scores/{empty.shop.property_id}"))["data"]["attributes"] == {
        "id": empty.shop.property_id, "count": 0, "overall_score": None, "scores": {}, "inserted_at": None,
        "updated_at": None}
    for made in (hotel, empty):
        made.close()
    airbnb.close()


def test_the_error_table(hotel, make_user, anonymous):
    review_id = hotel.send()["data"]["id"]
    unknown = "00000000-0000-4000-8000-000000000000"
    assert check(hotel.client.get(f"/api/v1/reviews/{unknown}"), 404)["errors"] == {
        "code": "not_found", "title": "Not Found", "details": f"review {unknown} does not exist"}
    for path, body in ((f"/api/v1/reviews/{unknown}/reply", {"reply": {"reply": "Hi"}}),
                       (f"/api/v1/reviews/{unknown}/guest_review", guest_review_body())):
        errors = check(hotel.client.post(path, json=body), 404)["errors"]
        assert (errors["code"], errors["title"]) == ("not_found", "Resouce Not Found")
    for path in (f"/api/v1/scores/{unknown}", f"/api/v1/scores/{unknown}/detailed"):
        errors = check(hotel.client.get(path), 404)["errors"]
        assert (errors["code"], errors["title"]) == ("not_found", "Resouce Not Found")
    stranger = make_user().client  # another group's: 401, as for every other object of someone else
    assert check(stranger.get(f"/api/v1/reviews/{review_id}"), 401)["errors"]["code"] == "unauthorized"
    check(stranger.post(f"/api/v1/reviews/{review_id}/reply", json={"reply": {"reply": "Mine"}}), 401)
    check(stranger.post(f"/api/v1/reviews/{review_id}/guest_review", json=guest_review_body()), 401)
    check(stranger.get(f"/api/v1/scores/{hotel.shop.property_id}/detailed"), 401)
    check(stranger.get("/api/v1/reviews", params={"filter[property_id]": hotel.shop.property_id}), 401)
    assert check(stranger.get("/api/v1/reviews"))["meta"]["total"] == 0
    check(anonymous.get("/api/v1/reviews"), 401)
    assert hotel.review(review_id)["attributes"]["reply"] is None


def test_bad_replies_change_nothing(hotel):
    review_id = hotel.send()["data"]["id"]
    for body, status in (({"reply": {"reply": ""}}, 422), ({"reply": {"reply": "   "}}, 422),
                         ({"reply": {"reply": "x" * 5_001}}, 422), ({"reply": {"reply": 5}}, 422),
                         ({"reply": {"reply": "Hi", "extra": 1}}, 422), ({"reply": "Hi"}, 400), ({"text": "Hi"}, 400)):
        assert check(hotel.client.post(f"/api/v1/reviews/{review_id}/reply", json=body), status)["errors"]
    attributes = hotel.review(review_id)["attributes"]
    assert attributes["reply"] is None and attributes["is_replied"] is False and hotel.feed() == []


@pytest.mark.parametrize("fields, field", [
    ({"content": "x" * 10_001}, "content"),
    ({"guest_name": "x" * 201}, "guest_name"),
    ({"ota_review_id": "x" * 101}, "ota_review_id"),
    ({"ota_review_id": ""}, "ota_review_id"),
    ({"overall_score": 11}, "overall_score"),
    ({"overall_score": -1}, "overall_score"),
    ({"overall_score": "9"}, "overall_score"),
    ({"scores": [{"category": "clean", "score": 10.5}]}, "scores.0.score"),
    ({"scores": [{"category": "checkin", "score": 8}]}, "scores.0.category"),  # Booking.com rates no check-in
    ({"scores": [{"category": "clean", "score": 8}, {"category": "clean", "score": 9}]}, "scores.1.category"),
    ({"scores": [{"category": "clean"}]}, "scores.0.score"),
    ({"scores": [{"category": "clean", "score": 8}] * 21}, "scores"),
    ({"tags": ["x"] * 51}, "tags"),
    ({"received_at": "yesterday"}, "received_at"),
    ({"received_at": later(days=1)}, "received_at"),
    ({"is_hidden": "no"}, "is_hidden"),
    ({"property_id": None}, "property_id"),
    ({"property_id": "00000000-0000-4000-8000-000000000000"}, "property_id"),
    ({"booking_id": "00000000-0000-4000-8000-000000000000"}, "booking_id"),
    ({"rating_of_the_moon": 3}, "rating_of_the_moon"),
])
def test_a_bad_review_from_a_channel_is_refused_and_stores_nothing(hotel, live, fields, field):
    refused = hotel.send(422, **fields)["errors"]
    assert refused["code"] == "validation_error" and field in refused["details"], refused
    assert live[0].store.scalar("SELECT count(*) FROM reviews WHERE channel_id = ?", (hotel.shop.channel_id,)) == 0


def test_airbnb_scores_are_stars(flat):
    for rating, status in ((0, 422), (5.5, 422), (1, 201), (5, 201)):
        flat.send(status, scores=[{"category": "value", "rating": rating}])


def test_only_the_channels_own_adapter_sends_reviews(hotel, user, live):
    body = {"review": {"ota_review_id": "X", "property_id": hotel.shop.property_id}}
    wrong = httpx.post(f"{live[1].url}{hotel.inbound}/reviews", json=body, headers={"api-key": "nope"})
    assert wrong.status_code == 401
    shopping = make_shop(user)
    with httpx.Client(base_url=live[1].url, headers={"api-key": shopping.inbound_key}) as meta:
        refused = check(meta.post(f"/api/v1/inbound/{shopping.channel_id}/reviews", json=body), 422)
    assert refused["errors"]["code"] == "not_supported"
    elsewhere = Stays(user, live)  # a property of the same group on another channel
    assert "property_id" in hotel.send(422, property_id=elsewhere.shop.property_id)["errors"]["details"]
    elsewhere.close()


def test_the_engine_lists_scores_and_counts_the_unanswered(hotel, live, user):
    for _ in range(3):
        hotel.send()
    engine = live[0]
    items, meta = engine.reviews.list(user.actor, ListQuery(limit=2))
    assert meta["total"] == 3 and len(items) == 2
    assert engine.reviews.unanswered(user.actor) == 3
    engine.reviews.reply(user.actor, items[0]["id"], {"reply": "Thanks"})
    assert engine.reviews.unanswered(user.actor) == 2
    assert engine.reviews.get(user.actor, items[0]["id"])["reply_state"] == "pending"


def test_the_unanswered_count_leaves_out_the_reviews_no_reply_can_reach(flat, hotel, live, user):
    """What the Reviews tab counts: the reviews a reply can be written to now, as set_reply takes them."""
    engine = live[0]
    hotel.send(expired_at=later(days=30))
    hotel.send(received_at=ago(days=40), expired_at=ago(days=5))  # too late to answer
    flat.send(is_hidden=True)  # until the host reviews the guest
    assert engine.reviews.unanswered(user.actor) == 1
    flat.send()
    assert engine.reviews.unanswered(user.actor) == 2
    check(user.client.delete(f"/api/v1/channels/{flat.shop.channel_id}"))  # its reviews stay, unanswerable
    assert engine.reviews.unanswered(user.actor) == 1
    assert engine.reviews.unanswered(engine.identity.operator()) >= 1


def test_the_reviews_area_offers_every_property_the_actor_reaches(hotel, live, user):
    """Its property filter: every property of the account, by title, none of another's; no application needed."""
    engine = live[0]
    reached = engine.reviews.properties(user.actor)
    assert [p["id"] for p in reached] == [p["id"] for p in engine.properties.options(user.actor)]
    assert hotel.shop.property_id in {p["id"] for p in reached} and set(reached[0]) == {"id", "title"}
    assert [p["title"] for p in reached] == sorted(p["title"] for p in reached)


def test_a_refused_guest_review_may_be_given_again_and_a_failure_taken_back_counts_the_reply(flat, hotel, live, user):
    review_id = flat.send()["data"]["id"]
    check(flat.client.post(f"/api/v1/reviews/{review_id}/guest_review", json=guest_review_body()))
    check(flat.adapter.post(f"{flat.inbound}/reviews/{review_id}/guest_review/fail",
                            json={"failure": {"error": "review period over"}}))
    failed = flat.review(review_id)["attributes"]["guest_review"]
    assert (failed["state"], failed["error"]) == ("failed", "review period over")
    again = check(flat.client.post(f"/api/v1/reviews/{review_id}/guest_review", json=guest_review_body(
        public_review="Second go")))["data"]["attributes"]["guest_review"]
    assert (again["state"], again["public_review"], again["error"]) == ("pending", "Second go", None)
    answered = hotel.send()["data"]["id"]
    hotel.reply(answered)
    check(hotel.adapter.post(f"{hotel.inbound}/reviews/{answered}/reply/fail"))
    assert live[0].reviews.unanswered(user.actor) == 2
    check(hotel.adapter.post(f"{hotel.inbound}/reviews/{answered}/reply/ack"))  # the adapter got it through after all
    shown = hotel.review(answered)["attributes"]
    assert (shown["reply_state"], shown["is_replied"], shown["reply_error"]) == ("delivered", True, None)
    assert live[0].reviews.unanswered(user.actor) == 1
    assert check(hotel.adapter.post(f"{hotel.inbound}/reviews/{answered}/comment/ack"), 404)
