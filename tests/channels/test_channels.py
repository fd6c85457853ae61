"""Channels, connecting properties (contact fields required), inbound keys, and the chat application."""

from __future__ import annotations

import hashlib
import uuid

import pytest

from tests.conftest import CONTACT, property_body


def _property(user, **fields) -> str:
    return user.client.post("/api/v1/properties", json=property_body(**fields)).json()["data"]["id"]


def _channel(user, **fields):
    return user.client.post("/api/v1/channels", json={"channel": {"title": "Booking.com", "channel": "BookingCom",
                                                                  **fields}})


def _room_and_plan(user, property_id: str, title: str = "Flexible") -> tuple[str, str]:
    room = user.client.post("/api/v1/room_types", json={"room_type": {
        "property_id": property_id, "title": f"Double {title}", "count_of_rooms": 2, "occ_adults": 2}})
    plan = user.client.post("/api/v1/rate_plans", json={"rate_plan": {
        "property_id": property_id, "room_type_id": room.json()["data"]["id"], "title": title,
        "options": [{"occupancy": 2, "is_primary": True, "rate": "100.00"}]}})
    return room.json()["data"]["id"], plan.json()["data"]["id"]


def test_connecting_needs_every_contact_field(user, live_engine):
    bare = _property(user, city="London")

    response = _channel(user, properties=[bare])

    assert response.status_code == 422
    details = response.json()["errors"]["details"]
    missing = {key.rsplit(".", 1)[1] for key in details}
    assert missing == set(CONTACT) - {"city"}
    assert all(key.startswith("properties.0.") for key in details)
    assert live_engine.store.scalar("SELECT count(*) FROM channels WHERE group_id = ?",
                                    (user.actor.default_group_id,)) == 0


def test_connected_property_counts_its_channels(user):
    property_id = _property(user, **CONTACT)

    first = _channel(user, properties=[property_id])
    _channel(user, title="Airbnb", channel="AirBNB", properties=[property_id])

    assert first.status_code == 201
    attrs = user.client.get(f"/api/v1/properties/{property_id}").json()["data"]["attributes"]
    assert attrs["acc_cannels_count"] == 2
    listed = user.client.get("/api/v1/channels", params={"filter[property_id]": property_id}).json()
    assert listed["meta"]["total"] == 2


def test_acc_cannels_count_is_read_only(user):
    property_id = _property(user)

    response = user.client.put(f"/api/v1/properties/{property_id}", json={"property": {"acc_cannels_count": 9}})

    assert response.status_code == 200
    assert response.json()["data"]["attributes"]["acc_cannels_count"] == 0


def test_contact_fields_stay_required_while_connected(user):
    property_id = _property(user, **CONTACT)
    _channel(user, properties=[property_id])

    response = user.client.put(f"/api/v1/properties/{property_id}", json={"property": {"phone": None}})

    assert response.status_code == 422
    assert "phone" in response.json()["errors"]["details"]


def test_inbound_key_is_shown_once_and_stored_hashed(user, live_engine):
    created = _channel(user).json()["data"]
    key = created["attributes"]["inbound_key"]

    shown_again = user.client.get(f"/api/v1/channels/{created['id']}").json()["data"]["attributes"]
    listed = user.client.get("/api/v1/channels").json()["data"]

    assert len(key) >= 32
    assert "inbound_key" not in shown_again and all("inbound_key" not in c["attributes"] for c in listed)
    stored = live_engine.store.scalar("SELECT inbound_key_hash FROM channels WHERE id = ?", (created["id"],))
    assert stored == hashlib.sha256(key.encode()).hexdigest()


def test_channel_update_and_delete(user):
    property_id = _property(user, **CONTACT)
    channel = _channel(user).json()["data"]

    updated = user.client.put(f"/api/v1/channels/{channel['id']}",
                              json={"channel": {"title": "Booking.com EU", "properties": [property_id]}})
    recode = user.client.put(f"/api/v1/channels/{channel['id']}", json={"channel": {"channel": "AirBNB"}})
    deleted = user.client.delete(f"/api/v1/channels/{channel['id']}")

    assert updated.status_code == 200
    assert updated.json()["data"]["attributes"]["title"] == "Booking.com EU"
    assert updated.json()["data"]["attributes"]["properties"] == [property_id]
    assert recode.status_code == 422 and "channel" in recode.json()["errors"]["details"]
    assert deleted.json() == {"meta": {"message": "Success"}}
    assert user.client.get(f"/api/v1/properties/{property_id}").json()["data"]["attributes"]["acc_cannels_count"] == 0


def test_channel_validation(user):
    bad_code = _channel(user, channel="Expedia")
    key_on_ota = _channel(user, provider_api_key="long-enough-key")
    shopping = _channel(user, title="Meta", channel="OpenShopping", provider_api_key="long-enough-key")

    assert bad_code.status_code == 422 and "channel" in bad_code.json()["errors"]["details"]
    assert key_on_ota.status_code == 422 and "provider_api_key" in key_on_ota.json()["errors"]["details"]
    assert shopping.status_code == 201
    attrs = shopping.json()["data"]["attributes"]
    assert attrs["has_provider_api_key"] is True and "provider_api_key" not in attrs


def test_someone_elses_channel_is_401(make_user):
    owner, stranger = make_user(), make_user()
    channel_id = _channel(owner).json()["data"]["id"]

    for response in (stranger.client.get(f"/api/v1/channels/{channel_id}"),
                     stranger.client.put(f"/api/v1/channels/{channel_id}", json={"channel": {"title": "x"}}),
                     stranger.client.delete(f"/api/v1/channels/{channel_id}")):
        assert response.status_code == 401
    assert stranger.client.get("/api/v1/channels").json()["data"] == []


def test_chat_app_install_list_uninstall(user, live_engine):
    property_id = _property(user)
    body = {"application_installation": {"property_id": property_id, "application_code": "chat"}}

    installed = user.client.post("/api/v1/applications/install", json=body)
    again = user.client.post("/api/v1/applications/install", json=body)
    listed = user.client.get("/api/v1/applications/installed", params={"filter[property_id]": property_id}).json()

    assert installed.status_code == 201
    installation = installed.json()["data"]
    assert installation["type"] == "application_installation"
    assert installation["attributes"]["application_code"] == "chat"
    assert again.status_code == 422
    assert [i["id"] for i in listed["data"]] == [installation["id"]]
    assert live_engine.applications.is_installed(property_id, "chat")

    removed = user.client.delete(f"/api/v1/applications/installed/{installation['id']}")

    assert removed.json() == {"meta": {"message": "Success"}}
    assert not live_engine.applications.is_installed(property_id, "chat")


def test_unknown_application_is_422(user):
    property_id = _property(user)

    response = user.client.post("/api/v1/applications/install", json={"application_installation": {
        "property_id": property_id, "application_code": "payments"}})

    assert response.status_code == 422 and "application_code" in response.json()["errors"]["details"]


def test_null_group_on_update_keeps_the_group(user):
    channel = _channel(user).json()["data"]

    response = user.client.put(f"/api/v1/channels/{channel['id']}", json={"channel": {"group_id": None}})

    assert response.status_code == 200
    assert response.json()["data"]["attributes"]["group_id"] == channel["attributes"]["group_id"]


# --- the service's shape (docs.channex.io/channel-api-examples/check24: create, read, update) ----------------


@pytest.fixture
def hotel(user):
    """A property ready to connect, with two rate plans."""
    property_id = _property(user, **CONTACT)
    room, flexible = _room_and_plan(user, property_id)
    _, saver = _room_and_plan(user, property_id, "Saver")
    return property_id, room, flexible, saver


def test_a_channel_is_written_and_read_in_the_services_names(user, hotel):
    property_id, _, flexible, _ = hotel
    mapping = {"room_type_code": "DELDOP", "rate_plan_code": "RWRO", "occupancy": 2, "primary_occ": True}

    response = user.client.post("/api/v1/channels", json={"channel": {
        "title": "Booking.com", "channel": "BookingCom", "properties": [property_id],
        "rate_plans": [{"rate_plan_id": flexible, "settings": mapping}], "settings": {"hotel_id": "5868189"},
        "is_active": True}})

    assert response.status_code == 201, response.text
    data = response.json()["data"]
    attributes = data["attributes"]
    assert data["type"] == "channel" and data["id"] == attributes["id"]
    assert {k: attributes[k] for k in ("title", "channel", "properties", "settings", "is_active")} == {
        "title": "Booking.com", "channel": "BookingCom", "properties": [property_id],
        "settings": {"hotel_id": "5868189"}, "is_active": True}
    [mapped] = attributes["rate_plans"]
    assert mapped == {"id": mapped["id"], "rate_plan_id": flexible, "settings": mapping}
    assert uuid.UUID(mapped["id"]).version == 4
    assert not {"channel_code", "property_ids", "rate_plan_ids"} & set(attributes)
    assert data["relationships"]["properties"] == {"data": [{"id": property_id, "type": "property"}]}
    assert data["relationships"]["group"] == {"data": {"id": user.actor.default_group_id, "type": "group"}}


def test_a_client_checking_a_connection_finds_the_property(user, hotel):
    property_id = hotel[0]
    _channel(user, properties=[property_id])

    listed = user.client.get("/api/v1/channels", params={"filter[property_id]": property_id}).json()["data"]

    assert [property_id in c["attributes"]["properties"] for c in listed] == [True]


def test_the_older_names_are_input_aliases(user, hotel):
    property_id, _, flexible, _ = hotel

    response = user.client.post("/api/v1/channels", json={"channel": {
        "title": "Old client", "channel_code": "AirBNB", "property_ids": [property_id], "rate_plan_ids": [flexible]}})

    assert response.status_code == 201, response.text
    attributes = response.json()["data"]["attributes"]
    assert (attributes["channel"], attributes["properties"]) == ("AirBNB", [property_id])
    assert [(m["rate_plan_id"], m["settings"]) for m in attributes["rate_plans"]] == [(flexible, {})]
    changed = user.client.put(f"/api/v1/channels/{attributes['id']}", json={"channel": {
        "property_ids": [], "rate_plan_ids": []}})
    assert changed.status_code == 200, changed.text
    assert (changed.json()["data"]["attributes"]["properties"], changed.json()["data"]["attributes"]["rate_plans"]) \
        == ([], [])


def test_problems_with_the_older_names_are_named_as_sent(user):
    response = user.client.post("/api/v1/channels", json={"channel": {
        "title": "Old client", "channel_code": "Expedia", "property_ids": [7], "rate_plan_ids": [7]}})

    assert response.status_code == 422
    assert set(response.json()["errors"]["details"]) == {"channel_code", "property_ids.0", "rate_plan_ids.0"}


def test_both_spellings_at_once_are_refused(user, live_engine, hotel):
    property_id, _, flexible, _ = hotel

    response = user.client.post("/api/v1/channels", json={"channel": {
        "title": "Confused", "channel": "AirBNB", "channel_code": "AirBNB", "properties": [property_id],
        "property_ids": [property_id], "rate_plans": [{"rate_plan_id": flexible}], "rate_plan_ids": [flexible]}})

    assert response.status_code == 422
    assert set(response.json()["errors"]["details"]) == {"channel_code", "property_ids", "rate_plan_ids"}
    assert live_engine.store.scalar("SELECT count(*) FROM channels WHERE title = 'Confused'") == 0


def test_a_channel_read_and_put_back_unchanged_is_accepted(user, hotel):
    property_id, _, flexible, saver = hotel
    created = _channel(user, properties=[property_id], settings={"hotel_id": "42"},
                       rate_plans=[{"rate_plan_id": flexible, "settings": {"rate_plan_code": "BAR"}},
                                   {"rate_plan_id": saver, "settings": {"rate_plan_code": "NR"}}]).json()["data"]
    read = user.client.get(f"/api/v1/channels/{created['id']}").json()["data"]

    response = user.client.put(f"/api/v1/channels/{created['id']}", json={"channel": read["attributes"]})

    assert response.status_code == 200, response.text
    again = response.json()["data"]["attributes"]
    assert {k: v for k, v in again.items() if k != "updated_at"} == \
        {k: v for k, v in read["attributes"].items() if k != "updated_at"}


def test_the_create_answer_put_back_is_accepted_too(user, hotel):
    created = _channel(user, properties=[hotel[0]]).json()["data"]

    response = user.client.put(f"/api/v1/channels/{created['id']}", json={"channel": created["attributes"]})

    assert response.status_code == 200, response.text
    assert "inbound_key" not in response.json()["data"]["attributes"]


def test_rate_plans_replace_the_mappings_and_null_settings_remove_one(user, hotel):
    property_id, _, flexible, saver = hotel
    created = _channel(user, properties=[property_id], rate_plans=[
        {"rate_plan_id": flexible, "settings": {"rate_plan_code": "BAR"}}, {"rate_plan_id": saver}]).json()["data"]
    kept = {m["rate_plan_id"]: m["id"] for m in created["attributes"]["rate_plans"]}
    url = f"/api/v1/channels/{created['id']}"

    untouched = user.client.put(url, json={"channel": {"title": "Renamed"}}).json()["data"]["attributes"]
    changed = user.client.put(url, json={"channel": {"rate_plans": [
        {"rate_plan_id": flexible, "settings": {"rate_plan_code": "FLEX"}},
        {"rate_plan_id": saver, "settings": None}]}}).json()["data"]["attributes"]

    assert [m["rate_plan_id"] for m in untouched["rate_plans"]] == [flexible, saver]
    assert changed["rate_plans"] == [{"id": kept[flexible], "rate_plan_id": flexible,
                                      "settings": {"rate_plan_code": "FLEX"}}]


def test_bad_channel_fields_are_named(user, live_engine, hotel):
    property_id, _, flexible, _ = hotel

    response = _channel(user, title="Bad", properties=[property_id], settings=["hotel_id"],
                        rate_plans=[{"rate_plan_id": flexible, "settings": "BAR"}, {"rate_plan_id": flexible},
                                    {"settings": {}}, {"rate_plan_id": {}}])

    assert response.status_code == 422
    assert set(response.json()["errors"]["details"]) == {"settings", "rate_plans.0.settings", "rate_plans.1",
                                                         "rate_plans.2.rate_plan_id", "rate_plans.3.rate_plan_id"}
    assert live_engine.store.scalar("SELECT count(*) FROM channels WHERE title = 'Bad'") == 0


def test_a_channel_takes_properties_of_its_own_group_only(make_user, live_engine):
    user = make_user()
    other = live_engine.identity.add_group("Other stays", [user.actor.email])
    elsewhere = _property(user, **CONTACT, group_id=other)
    home = _property(user, **CONTACT)
    channel = _channel(user, properties=[home]).json()["data"]

    refused = _channel(user, title="Mixed", properties=[home, elsewhere])
    connect = user.client.put(f"/api/v1/channels/{channel['id']}", json={"channel": {"properties": [home, elsewhere]}})
    regroup = user.client.put(f"/api/v1/channels/{channel['id']}", json={"channel": {"group_id": other}})
    there = _channel(user, title="There", group_id=other, properties=[elsewhere])

    for response in (refused, connect):
        assert response.status_code == 422
        assert list(response.json()["errors"]["details"]) == ["properties.1.group_id"]
    assert regroup.status_code == 422 and list(regroup.json()["errors"]["details"]) == ["properties.0.group_id"]
    assert there.status_code == 201 and there.json()["data"]["attributes"]["properties"] == [elsewhere]
    assert user.client.get(f"/api/v1/channels/{channel['id']}").json()["data"]["attributes"]["properties"] == [home]
    assert live_engine.store.scalar("SELECT count(*) FROM channels WHERE title = 'Mixed'") == 0


# --- GET /api/v1/channels/:id/mappings --------------------------------------------------------------------


def test_mappings_list_the_channels_rooms_and_rates(user, hotel):
    property_id, room, flexible, saver = hotel
    created = _channel(user, properties=[property_id], rate_plans=[
        {"rate_plan_id": flexible, "settings": {"room_type_code": "DBL", "rate_plan_code": "BAR"}},
        {"rate_plan_id": saver}]).json()["data"]
    ids = {m["rate_plan_id"]: m["id"] for m in created["attributes"]["rate_plans"]}
    saver_room = user.client.get(f"/api/v1/rate_plans/{saver}").json()["data"]["attributes"]["room_type_id"]

    response = user.client.get(f"/api/v1/channels/{created['id']}/mappings")

    assert response.status_code == 200
    assert response.json() == {"data": [
        {"id": ids[flexible], "type": "mapping",
         "attributes": {"id": ids[flexible], "rate_plan_id": flexible, "room_type_id": room, "property_id": property_id,
                        "settings": {"room_type_code": "DBL", "rate_plan_code": "BAR"}},
         "relationships": {"channel": {"data": {"id": created["id"], "type": "channel"}},
                           "rate_plan": {"data": {"id": flexible, "type": "rate_plan"}},
                           "room_type": {"data": {"id": room, "type": "room_type"}},
                           "property": {"data": {"id": property_id, "type": "property"}}}},
        {"id": ids[saver], "type": "mapping",
         "attributes": {"id": ids[saver], "rate_plan_id": saver, "room_type_id": saver_room,
                        "property_id": property_id, "settings": {}},
         "relationships": {"channel": {"data": {"id": created["id"], "type": "channel"}},
                           "rate_plan": {"data": {"id": saver, "type": "rate_plan"}},
                           "room_type": {"data": {"id": saver_room, "type": "room_type"}},
                           "property": {"data": {"id": property_id, "type": "property"}}}}]}


def test_mappings_of_someone_else_unknown_or_without_credential(make_user, anonymous):
    owner, stranger = make_user(), make_user()
    channel_id = _channel(owner).json()["data"]["id"]
    url = f"/api/v1/channels/{channel_id}/mappings"

    assert owner.client.get(url).json() == {"data": []}
    assert stranger.client.get(url).status_code == 401
    assert anonymous.get(url).status_code == 401
    assert owner.client.get("/api/v1/channels/00000000-0000-4000-8000-000000000000/mappings").status_code == 404


def test_a_connected_property_keeps_its_channels_group(make_user):
    user = make_user()
    other = user.client.post("/api/v1/groups", json={"group": {"title": "Elsewhere"}}).json()["data"]["id"]
    property_id = _property(user, **CONTACT)
    _channel(user, properties=[property_id])

    moved = user.client.put(f"/api/v1/properties/{property_id}", json={"property": {"group_id": other}})

    assert moved.status_code == 422
    assert moved.json()["errors"]["details"] == {"group_id": [
        "can't change while the property is connected to 'Booking.com': a channel takes properties of its own "
        "group only"]}
    assert user.client.get(f"/api/v1/properties/{property_id}").json()["data"]["attributes"]["group_id"] == \
        user.actor.default_group_id
