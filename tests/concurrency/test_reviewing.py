"""What must hold when staff answer reviews and channels send them at once, on every store. Review writes are
scoped to their property (backend/core/scopes.py): on PostgreSQL two properties' reviews are written beside each
other, so what they share must be guarded by the write itself; a review's one reply is guarded by its conditional
UPDATE, and a channel's review by the unique index of its id."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.concurrency.test_selling import _at_once
from tests.conftest import serve_site
from tests.reviews.test_reviews_api import Stays
from tests.shopping.shop import check


@pytest.fixture
def site(new_db):
    with serve_site(new_db()) as served:
        yield served


def test_staff_replying_at_once_store_exactly_one_reply(site):
    stays = Stays(site.user(), (site.engine, site.main))
    review_id = stays.send()["data"]["id"]
    statuses = _at_once(8, lambda n: stays.client.post(f"/api/v1/reviews/{review_id}/reply", json={
        "reply": {"reply": f"Reply {n}"}}).status_code)
    assert Counter(statuses) == {200: 1, 422: 7}
    [waiting] = stays.feed()
    assert waiting["attributes"]["reply"] == stays.review(review_id)["attributes"]["reply"]
    assert site.engine.store.scalar("SELECT unreplied FROM review_counts WHERE property_id = ?",
                                    (stays.shop.property_id,)) == 0
    stays.close()


def test_the_same_review_sent_at_once_is_one_review(site):
    stays = Stays(site.user(), (site.engine, site.main))
    body = {"review": {"ota_review_id": "R-once", "property_id": stays.shop.property_id, "overall_score": 8.0,
                       "received_at": "2026-02-01T09:00:00Z", "scores": [{"category": "staff", "score": 8}]}}
    statuses = _at_once(8, lambda n: stays.adapter.post(f"{stays.inbound}/reviews", json=body).status_code)
    assert Counter(statuses) == {201: 1, 200: 7}
    store = site.engine.store
    assert store.scalar("SELECT count(*) FROM reviews WHERE channel_id = ?", (stays.shop.channel_id,)) == 1
    assert store.scalar("SELECT reviews FROM review_counts WHERE property_id = ?", (stays.shop.property_id,)) == 1
    score = check(stays.client.get(f"/api/v1/scores/{stays.shop.property_id}"))["data"]["attributes"]
    assert (score["count"], score["overall_score"], score["scores"]) == (1, 8.0, {"staff": {"count": 1, "score": 8.0}})
    stays.close()


def test_scores_are_right_after_reviews_of_two_properties_come_in_at_once(site):
    user = site.user()
    both = [Stays(user, (site.engine, site.main)), Stays(user, (site.engine, site.main), "AirBNB")]

    def send(n: int) -> int:
        stays = both[n % 2]
        score = {"score": 1 + n % 10} if stays.code == "BookingCom" else {"rating": 1 + n % 5}
        return stays.adapter.post(f"{stays.inbound}/reviews", json={"review": {
            "ota_review_id": f"R-{n}", "property_id": stays.shop.property_id,
            "scores": [{"category": "clean", **score}, {"category": "location", **score}]}}).status_code

    assert Counter(_at_once(24, send)) == {201: 24}
    for stays in both:
        scale = 1 if stays.code == "BookingCom" else 2
        given = [(1 + n % (10 if scale == 1 else 5)) * scale for n in range(24) if both[n % 2] is stays]
        mean = round(sum(given) / len(given), 2)
        score = check(stays.client.get(f"/api/v1/scores/{stays.shop.property_id}"))["data"]["attributes"]
        assert (score["count"], score["overall_score"]) == (12, mean)
        assert score["scores"] == {"clean": {"count": 12, "score": mean}, "location": {"count": 12, "score": mean}}
        listed = check(stays.client.get("/api/v1/reviews", params={"filter[property_id]": stays.shop.property_id,
                                                                    "filter[is_replied]": "false",
                                                                    "pagination[limit]": 5}))
        assert listed["meta"]["total"] == 12
        stays.close()
