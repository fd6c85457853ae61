"""Room types in the service's shape (reference §4.2): `content` (`description`, `photos`), `room_kind`, `capacity`
for dorms, and `relationships` (`property`, `facilities`); the older top-level `description` and `photos` are
input aliases."""

from __future__ import annotations

from backend.properties.facilities import facility_id
from tests.conftest import property_body

PHOTO = {"url": "https://cdn.example/room.jpg", "position": 0, "author": "Author Name", "kind": "photo",
         "description": "Room View"}


def _property(user) -> str:
    return user.client.post("/api/v1/properties", json=property_body()).json()["data"]["id"]


def _room(user, property_id: str, **fields):
    return user.client.post("/api/v1/room_types", json={"room_type": {
        "property_id": property_id, "title": "Standard Room", "count_of_rooms": 20, "occ_adults": 3,
        "occ_children": 0, "occ_infants": 0, "default_occupancy": 2, **fields}})


def test_a_room_type_is_written_and_read_in_the_services_shape(user):
    property_id = _property(user)

    response = _room(user, property_id, room_kind="room", content={"description": "Quiet, on the garden side.",
                                                                   "photos": [PHOTO]},
                     facilities=["Free WiFi"])

    assert response.status_code == 201, response.text
    data = response.json()["data"]
    read = user.client.get(f"/api/v1/room_types/{data['id']}").json()["data"]
    for room in (data, read):
        attributes = room["attributes"]
        assert room["type"] == "room_type" and room["id"] == attributes["id"]
        assert {k: attributes[k] for k in ("title", "occ_adults", "occ_children", "occ_infants", "default_occupancy",
                                           "count_of_rooms", "room_kind", "capacity")} == {
            "title": "Standard Room", "occ_adults": 3, "occ_children": 0, "occ_infants": 0, "default_occupancy": 2,
            "count_of_rooms": 20, "room_kind": "room", "capacity": None}
        assert attributes["content"]["description"] == "Quiet, on the garden side."
        assert [{k: p[k] for k in PHOTO} for p in attributes["content"]["photos"]] == [PHOTO]
        assert not {"description", "photos"} & set(attributes)
        wifi = facility_id("Free WiFi")
        assert room["relationships"] == {
            "property": {"data": {"type": "property", "id": property_id}},
            "facilities": {"data": [{"id": wifi, "type": "facility", "attributes": {"id": wifi, "title": "Free WiFi"}}]}}


def test_a_dorm_has_a_capacity_and_a_room_none(user, live_engine):
    property_id = _property(user)

    dorm = _room(user, property_id, title="Eight-bed dorm", room_kind="dorm", capacity=8, default_occupancy=1)
    room = _room(user, property_id, title="Odd room", room_kind="room", capacity=2)
    kind = _room(user, property_id, title="Odd kind", room_kind="suite")

    assert dorm.status_code == 201, dorm.text
    assert (dorm.json()["data"]["attributes"]["room_kind"], dorm.json()["data"]["attributes"]["capacity"]) == ("dorm", 8)
    assert room.status_code == 422 and list(room.json()["errors"]["details"]) == ["capacity"]
    assert kind.status_code == 422 and list(kind.json()["errors"]["details"]) == ["room_kind"]
    assert live_engine.store.scalar("SELECT count(*) FROM room_types WHERE title LIKE 'Odd%'") == 0


def test_the_older_top_level_description_and_photos_are_input_aliases(user):
    property_id = _property(user)
    created = _room(user, property_id, description="Old client", photos=[{"url": PHOTO["url"], "title": "Caption"}])
    room_id = created.json()["data"]["id"]

    both = user.client.put(f"/api/v1/room_types/{room_id}", json={"room_type": {
        "description": "One", "content": {"description": "Two"}}})
    partial = user.client.put(f"/api/v1/room_types/{room_id}", json={"room_type": {"content": {"description": "New"}}})

    assert created.status_code == 201, created.text
    content = created.json()["data"]["attributes"]["content"]
    assert content["description"] == "Old client" and content["photos"][0]["title"] == "Caption"
    assert both.status_code == 422 and list(both.json()["errors"]["details"]) == ["description"]
    assert partial.status_code == 200
    assert partial.json()["data"]["attributes"]["content"]["description"] == "New"
    assert [p["url"] for p in partial.json()["data"]["attributes"]["content"]["photos"]] == [PHOTO["url"]]


def test_a_room_type_read_and_put_back_unchanged_is_accepted(user):
    property_id = _property(user)
    created = _room(user, property_id, room_kind="dorm", capacity=6, content={"photos": [PHOTO]},
                    bed_options=[{"title": "Bunk bed", "count": 3}]).json()["data"]

    response = user.client.put(f"/api/v1/room_types/{created['id']}", json={"room_type": created["attributes"]})

    assert response.status_code == 200, response.text
    again = response.json()["data"]
    assert {k: v for k, v in again["attributes"].items() if k != "updated_at"} == \
        {k: v for k, v in created["attributes"].items() if k != "updated_at"}
