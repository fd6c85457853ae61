"""The outbox's status route: for staff who manage webhooks or channels, how far behind deliveries are, theirs
alone; nothing for anyone else."""

from __future__ import annotations

from backend.core.scopes import property_scope
from backend.outbox.record import record
from tests.conftest import property_body
from tests.shopping.shop import check
from tests.webhooks.hooks import make_hook

STATUS = "/api/v1/outbox/status"


def test_only_staff_with_webhooks_or_channels_see_the_status_and_only_theirs(live_engine, make_user, anonymous,
                                                                              receiver):
    assert anonymous.get(STATUS).status_code == 401
    desk, other = make_user(), make_user()
    assert check(desk.client.get(STATUS), 403)["errors"]["code"] == "forbidden"  # nothing of theirs goes out
    hotel = check(desk.client.post("/api/v1/properties", json=property_body()), 201)["data"]["id"]
    hook = make_hook(desk.client, hotel, receiver.url)
    up_to_date = check(desk.client.get(STATUS))["data"]["attributes"]
    assert up_to_date["oldest_waiting_at"] is None and up_to_date["destinations"][0]["waiting"] == 0
    assert up_to_date["read_replicas"] == []  # a server without --read-db

    # A change the webhook wants, and no deliverer running on this server: it is held up.
    with live_engine.store.transaction(property_scope(hotel)) as conn:
        record(conn, "booking_new", hotel, {"booking_id": "b-1"})
    held = check(desk.client.get(STATUS))["data"]["attributes"]
    assert held["oldest_waiting_for"] == {"type": "webhook", "id": hook["id"], "name": "to 127.0.0.1"}
    assert isinstance(held["oldest_waiting_age"], int) and held["oldest_waiting_age"] >= 0
    [line] = held["destinations"]
    assert (line["waiting"], line["oldest_waiting_at"], line["is_active"]) == (1, held["oldest_waiting_at"], True)

    # Another group's staff see their own webhook alone, up to date: nothing of the first hotel.
    theirs = check(other.client.post("/api/v1/properties", json=property_body(title="Elsewhere")), 201)["data"]["id"]
    make_hook(other.client, theirs, receiver.url)
    seen = check(other.client.get(STATUS))["data"]["attributes"]
    assert seen["oldest_waiting_for"] is None and [d["id"] for d in seen["destinations"]] != [hook["id"]]
    assert hook["id"] not in str(seen) and hotel not in str(seen)
