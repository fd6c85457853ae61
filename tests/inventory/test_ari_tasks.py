"""ARI writes answer as the service does (reference §4.4): `POST /restrictions` is
`200 {"data":[{"id":"<uuid>","type":"task"}],"meta":{"message":"Success","warnings":[]}}`, and the PMS
certification's answers quote "the returned task id" (§18): each id is a stored task. `POST /availability` stays
`200 {"meta":{"message":"Success"}}`. The reference shows no way to read a task: there is none."""

from __future__ import annotations

from tests.shopping.shop import check, day, make_shop


def _tasks(engine, task_ids: list[str]) -> list[tuple]:
    rows = engine.store.query(f"SELECT id, property_id, kind, user_id, value_count FROM ari_tasks WHERE id IN "
                              f"({', '.join('?' for _ in task_ids)}) ORDER BY property_id", task_ids)
    return [tuple(row) for row in rows]


def test_a_restrictions_write_answers_a_stored_task_per_property(user, live_engine):
    first, second = make_shop(user), make_shop(user)
    values = [{"property_id": shop.property_id, "rate_plan_id": shop.plan_id, "date_from": day(1), "date_to": day(3),
               "rate": "120.00"} for shop in (first, second)]
    values.append({"property_id": first.property_id, "rate_plan_id": first.plan_id, "date": day(5), "stop_sell": True})
    answer = check(user.client.post("/api/v1/restrictions", json={"values": values}))
    assert answer["meta"] == {"message": "Success", "warnings": []}
    assert [task["type"] for task in answer["data"]] == ["task", "task"]
    ids = [task["id"] for task in answer["data"]]
    assert sorted(_tasks(live_engine, ids)) == sorted([
        (ids[0], first.property_id, "restrictions", user.actor.user_id, 2),
        (ids[1], second.property_id, "restrictions", user.actor.user_id, 1)])
    assert check(user.client.post("/api/v1/restrictions", json={"values": values[:1]}))["data"][0]["id"] not in ids


def test_an_availability_write_keeps_its_meta_only_answer(user):
    shop = make_shop(user)
    answer = shop.available(day(1), day(2), 1)
    assert "data" not in answer and answer["meta"]["message"] == "Success"


def test_a_refused_write_stores_no_task(user, live_engine):
    shop = make_shop(user)
    before = live_engine.store.scalar("SELECT count(*) FROM ari_tasks WHERE property_id = ?", (shop.property_id,))
    bad = {"property_id": shop.property_id, "rate_plan_id": shop.plan_id, "date": day(1), "rate": "ten"}
    assert "values.0.rate" in check(user.client.post("/api/v1/restrictions", json={"values": [bad]}), 422)[
        "errors"]["details"]
    after = live_engine.store.scalar("SELECT count(*) FROM ari_tasks WHERE property_id = ?", (shop.property_id,))
    assert after == before
    assert user.client.get("/api/v1/tasks/anything").status_code == 404
