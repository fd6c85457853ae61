"""The service's Photos collection over real HTTP, in the shapes its reference documents
(shared/reference/channex-api.md §12, docs.channex.io "Photos Collection"), and the same rows read and written
through a property's and a room type's `content.photos`: one store, two ways in. Positions are dense from 0 (the cover) per
property and room type."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

import httpx
import pytest

import backend.inventory.photos
from backend.properties.media import prune_uploads
from tests.chat.test_chat_api import png
from tests.conftest import property_body, serve_site
from tests.shopping.shop import check

URL = "https://img.example.com/2b9c1a0e/"
# The reference's create body.
SERVICE_BODY = {"room_type_id": None, "url": URL, "kind": "photo", "position": 0, "author": "Author Name",
                "description": "Room View"}
# The attributes of a photo in the reference's response.
SERVICE_ATTRIBUTES = {"id", "property_id", "room_type_id", "url", "kind", "position", "author", "description"}


def new_property(client, **fields) -> str:
    return check(client.post("/api/v1/properties", json=property_body(**fields)), 201)["data"]["id"]


def new_room(client, property_id: str, **fields) -> str:
    return check(client.post("/api/v1/room_types", json={"room_type": {
        "property_id": property_id, "title": "Double", "count_of_rooms": 2, "occ_adults": 2, "occ_children": 0,
        "occ_infants": 0, **fields}}), 201)["data"]["id"]


def add(client, property_id: str, url: str = URL, **fields) -> dict:
    return check(client.post("/api/v1/photos", json={"photo": {"property_id": property_id, "url": url, **fields}}),
                 201)["data"]["attributes"]


def places(client, property_id: str, room_type_id: str | None = None) -> list[tuple[str, int]]:
    """(url, position) of the property's own photos or a room type's, as the list answers them."""
    params = {"filter[property_id]": property_id, "pagination[limit]": 100}
    listed = check(client.get("/api/v1/photos", params=params))["data"]
    return [(p["attributes"]["url"], p["attributes"]["position"]) for p in listed
            if p["attributes"]["room_type_id"] == room_type_id]


@pytest.fixture
def hotel(user) -> str:
    return new_property(user.client)


def test_create_read_list_update_delete_in_the_services_shapes(user, hotel):
    made = user.client.post("/api/v1/photos", json={"photo": {"property_id": hotel, **SERVICE_BODY}})

    assert made.status_code == 201, made.text
    data = made.json()["data"]
    assert data["type"] == "photo" and data["id"] == data["attributes"]["id"]
    assert SERVICE_ATTRIBUTES <= data["attributes"].keys()
    assert {k: data["attributes"][k] for k in SERVICE_BODY} == SERVICE_BODY
    assert data["attributes"]["property_id"] == hotel
    photo_id = data["id"]
    assert check(user.client.get(f"/api/v1/photos/{photo_id}"))["data"] == data
    listed = check(user.client.get("/api/v1/photos", params={"filter[property_id]": hotel}))
    assert [p["id"] for p in listed["data"]] == [photo_id]
    assert listed["meta"] == {"page": 1, "limit": 10, "total": 1}

    changed = user.client.put(f"/api/v1/photos/{photo_id}", json={"photo": {"description": "Lobby", "kind": "ad"}})

    assert changed.status_code == 200, changed.text
    attributes = changed.json()["data"]["attributes"]
    assert (attributes["description"], attributes["kind"], attributes["url"], attributes["author"]) == (
        "Lobby", "ad", URL, "Author Name")

    deleted = user.client.delete(f"/api/v1/photos/{photo_id}")

    assert (deleted.status_code, deleted.json()) == (200, {"meta": {"message": "Success"}})
    gone = user.client.get(f"/api/v1/photos/{photo_id}")
    assert gone.status_code == 404 and gone.json()["errors"]["code"] == "not_found"
    put_gone = user.client.put(f"/api/v1/photos/{photo_id}", json={"photo": {"description": "x"}})
    assert put_gone.status_code == 404
    assert put_gone.json()["errors"] == {"code": "resource_not_found", "title": "Resource Not Found",
                                         "details": f"photo {photo_id} does not exist"}
    assert user.client.delete(f"/api/v1/photos/{photo_id}").status_code == 404


@pytest.mark.parametrize(("field", "body"), [
    ("url", {}),
    ("url", {"url": ""}),
    ("url", {"url": "ftp://img.example.com/a.jpg"}),
    ("url", {"url": "javascript:alert(1)"}),
    ("url", {"url": "https://img.example.com/" + "a" * 2048}),
    ("kind", {"url": URL, "kind": "selfie"}),
    ("position", {"url": URL, "position": -1}),
    ("author", {"url": URL, "author": "a" * 256}),
    ("property_id", {"url": URL, "property_id": None}),
    ("room_type_id", {"url": URL, "room_type_id": "no-such-room"}),
    ("colour", {"url": URL, "colour": "red"}),
])
def test_bad_input_is_a_422_naming_the_field_and_stores_nothing(user, hotel, live_engine, field, body):
    response = user.client.post("/api/v1/photos", json={"photo": {"property_id": hotel, **body}})

    assert response.status_code == 422, response.text
    assert list(response.json()["errors"]["details"]) == [field]
    assert live_engine.store.scalar("SELECT count(*) FROM photos WHERE property_id = ?", (hotel,)) == 0


def test_a_missing_url_is_cant_be_blank_as_the_service_says(user, hotel):
    response = user.client.post("/api/v1/photos", json={"photo": {"property_id": hotel}})

    assert response.json()["errors"] == {"code": "validation_error", "title": "Validation Error",
                                         "details": {"url": ["can't be blank"]}}


def test_someone_elses_photos_are_401_and_their_property_is_not_yours(make_user):
    owner, other = make_user(), make_user()
    hotel = new_property(owner.client)
    photo_id = add(owner.client, hotel)["id"]

    assert other.client.get(f"/api/v1/photos/{photo_id}").status_code == 401
    assert other.client.put(f"/api/v1/photos/{photo_id}", json={"photo": {"description": "x"}}).status_code == 401
    assert other.client.delete(f"/api/v1/photos/{photo_id}").status_code == 401
    made = other.client.post("/api/v1/photos", json={"photo": {"property_id": hotel, "url": URL}})
    assert made.status_code == 422 and list(made.json()["errors"]["details"]) == ["property_id"]
    assert check(other.client.get("/api/v1/photos"))["data"] == []
    assert places(owner.client, hotel) == [(URL, 0)]


def test_a_room_type_of_another_property_is_refused(user, hotel):
    elsewhere = new_room(user.client, new_property(user.client))

    response = user.client.post("/api/v1/photos", json={"photo": {"property_id": hotel, "url": URL,
                                                                  "room_type_id": elsewhere}})

    assert response.status_code == 422 and list(response.json()["errors"]["details"]) == ["room_type_id"]


def test_places_stay_dense_and_a_taken_one_pushes_the_others_down(user, hotel):
    a, _, c = (add(user.client, hotel, f"https://img.example.com/{n}.jpg")["id"] for n in "abc")
    assert places(user.client, hotel) == [(f"https://img.example.com/{n}.jpg", i) for i, n in enumerate("abc")]

    cover = add(user.client, hotel, "https://img.example.com/cover.jpg", position=0)
    far = add(user.client, hotel, "https://img.example.com/far.jpg", position=99)

    assert (cover["position"], far["position"]) == (0, 4)
    assert [u for u, _ in places(user.client, hotel)] == [
        "https://img.example.com/cover.jpg", *(f"https://img.example.com/{n}.jpg" for n in "abc"),
        "https://img.example.com/far.jpg"]

    check(user.client.put(f"/api/v1/photos/{a}", json={"photo": {"position": 3}}))
    check(user.client.delete(f"/api/v1/photos/{c}"))
    moved = check(user.client.put(f"/api/v1/photos/{far['id']}", json={"photo": {"position": 0}}))

    assert moved["data"]["attributes"]["position"] == 0
    assert places(user.client, hotel) == [(f"https://img.example.com/{name}.jpg", n)
                                          for n, name in enumerate(("far", "cover", "b", "a"))]


def test_a_photo_moved_to_a_room_type_leaves_a_dense_list_behind(user, hotel):
    room = new_room(user.client, hotel)
    first = add(user.client, hotel, "https://img.example.com/1.jpg")
    add(user.client, hotel, "https://img.example.com/2.jpg")
    add(user.client, hotel, "https://img.example.com/r.jpg", room_type_id=room)

    moved = check(user.client.put(f"/api/v1/photos/{first['id']}", json={"photo": {"room_type_id": room,
                                                                                  "position": 0}}))

    assert moved["data"]["attributes"]["room_type_id"] == room
    assert places(user.client, hotel) == [("https://img.example.com/2.jpg", 0)]
    assert places(user.client, hotel, room) == [("https://img.example.com/1.jpg", 0),
                                                ("https://img.example.com/r.jpg", 1)]


def test_a_property_and_each_room_type_hold_a_bounded_number_of_photos(user, hotel, monkeypatch):
    monkeypatch.setattr(backend.inventory.photos, "MAX_PHOTOS", 2)
    room = new_room(user.client, hotel)
    for n in range(2):
        add(user.client, hotel, f"https://img.example.com/{n}.jpg")
        add(user.client, hotel, f"https://img.example.com/r{n}.jpg", room_type_id=room)

    one_more = user.client.post("/api/v1/photos", json={"photo": {"property_id": hotel, "url": URL}})
    in_a_batch = user.client.put(f"/api/v1/room_types/{room}", json={"room_type": {"content": {"photos": [
        {"url": URL}]}}})

    assert one_more.status_code == 422 and list(one_more.json()["errors"]["details"]) == ["property_id"]
    assert in_a_batch.status_code == 422 and list(in_a_batch.json()["errors"]["details"]) == ["content.photos"]
    assert len(places(user.client, hotel)) == len(places(user.client, hotel, room)) == 2


# --- content.photos: the same rows ----------------------------------------------------------------------------------

def test_a_propertys_content_photos_are_the_photos_collection(user):
    hotel = new_property(user.client, content={"photos": [{"url": "https://img.example.com/b.jpg", "position": 1},
                                                          {"url": "https://img.example.com/a.jpg", "position": 0}]})
    room = new_room(user.client, hotel)
    via_api = add(user.client, hotel, "https://img.example.com/c.jpg", author="Ann")
    add(user.client, hotel, "https://img.example.com/room.jpg", room_type_id=room)

    content = check(user.client.get(f"/api/v1/properties/{hotel}"))["data"]["attributes"]["content"]
    listed = check(user.client.get("/api/v1/photos", params={"filter[property_id]": hotel,
                                                             "filter[room_type_id]": room}))["data"]

    assert [(p["url"], p["position"]) for p in content["photos"]] == [
        (f"https://img.example.com/{name}.jpg", n) for n, name in enumerate("abc")]
    assert content["photos"][2] == check(user.client.get(f"/api/v1/photos/{via_api['id']}"))["data"]["attributes"]
    assert SERVICE_ATTRIBUTES <= content["photos"][0].keys()
    assert [p["attributes"]["url"] for p in listed] == ["https://img.example.com/room.jpg"]
    in_list = check(user.client.get("/api/v1/properties", params={"filter[id]": hotel}))["data"][0]["attributes"]
    assert in_list["content"]["photos"] == content["photos"]


def test_content_photos_is_a_batch_created_changed_and_removed_by_id(user, live_engine):
    hotel = new_property(user.client, content={"description": "By the sea", "photos": [
        {"url": "https://img.example.com/a.jpg"}, {"url": "https://img.example.com/b.jpg"}]})
    a, b = (p["attributes"]["id"] for p in check(user.client.get(
        "/api/v1/photos", params={"filter[property_id]": hotel}))["data"])

    response = user.client.put(f"/api/v1/properties/{hotel}", json={"property": {"content": {"photos": [
        {"id": a, "description": "Seaside"}, {"url": "https://img.example.com/new.jpg", "position": 0},
        {"id": b, "is_removed": True}]}}})

    assert response.status_code == 200, response.text
    content = response.json()["data"]["attributes"]["content"]
    assert content["description"] == "By the sea"
    assert [(p["url"], p["position"], p["description"]) for p in content["photos"]] == [
        ("https://img.example.com/new.jpg", 0, None), ("https://img.example.com/a.jpg", 1, "Seaside")]
    assert content["photos"][1]["id"] == a
    assert places(user.client, hotel) == [("https://img.example.com/new.jpg", 0), ("https://img.example.com/a.jpg", 1)]
    untouched = user.client.put(f"/api/v1/properties/{hotel}", json={"property": {"content": {"description": "x"}}})
    assert [p["id"] for p in check(untouched)["data"]["attributes"]["content"]["photos"]] == \
        [p["id"] for p in content["photos"]]
    assert live_engine.store.scalar("SELECT count(*) FROM photos WHERE id = ?", (b,)) == 0


@pytest.mark.parametrize(("item", "field"), [
    ({"id": "no-such-photo", "description": "x"}, "content.photos.1.id"),
    ({"is_removed": True, "url": "https://img.example.com/x.jpg"}, "content.photos.1.is_removed"),
    ({"kind": "photo"}, "content.photos.1.url"),
])
def test_a_bad_batch_item_changes_nothing(user, item, field):
    hotel = new_property(user.client, content={"photos": [{"url": "https://img.example.com/a.jpg"}]})
    before = check(user.client.get(f"/api/v1/properties/{hotel}"))["data"]["attributes"]

    response = user.client.put(f"/api/v1/properties/{hotel}", json={"property": {"title": "Renamed", "content": {
        "photos": [{"url": "https://img.example.com/first.jpg", "position": 0}, item]}}})

    assert response.status_code == 422 and list(response.json()["errors"]["details"]) == [field]
    after = check(user.client.get(f"/api/v1/properties/{hotel}"))["data"]["attributes"]
    assert (after["title"], after["content"]["photos"]) == (before["title"], before["content"]["photos"])


def test_a_photo_of_another_parent_is_not_in_this_batch(user, hotel):
    room = new_room(user.client, hotel)
    own = add(user.client, hotel)["id"]

    response = user.client.put(f"/api/v1/room_types/{room}", json={"room_type": {"content": {"photos": [
        {"id": own, "is_removed": True}]}}})

    assert response.status_code == 422
    assert response.json()["errors"]["details"] == {"content.photos.0.id": ["is not a photo of this room type"]}


def test_a_room_types_content_photos_are_the_photos_collection(user, hotel, live_engine):
    room = new_room(user.client, hotel, content={"photos": [{"url": "https://img.example.com/r1.jpg",
                                                             "title": "Garden side"}]})
    via_api = add(user.client, hotel, "https://img.example.com/r0.jpg", room_type_id=room, position=0)

    read = check(user.client.get(f"/api/v1/room_types/{room}"))["data"]["attributes"]["content"]["photos"]
    assert [(p["url"], p["position"], p["title"]) for p in read] == [
        ("https://img.example.com/r0.jpg", 0, None), ("https://img.example.com/r1.jpg", 1, "Garden side")]
    assert read[0]["id"] == via_api["id"] and read[1]["room_type_id"] == room

    changed = check(user.client.put(f"/api/v1/room_types/{room}", json={"room_type": {"content": {"photos": [
        {"id": read[1]["id"], "position": 0, "author": "Bo"}, {"id": via_api["id"], "is_removed": True}]}}}))

    assert [(p["url"], p["position"], p["author"]) for p in changed["data"]["attributes"]["content"]["photos"]] == [
        ("https://img.example.com/r1.jpg", 0, "Bo")]
    assert check(user.client.get(f"/api/v1/photos/{read[1]['id']}"))["data"]["attributes"]["author"] == "Bo"
    assert places(user.client, hotel) == []  # a room type's photos are not the property's own
    check(user.client.delete(f"/api/v1/room_types/{room}"))
    assert live_engine.store.scalar("SELECT count(*) FROM photos WHERE property_id = ?", (hotel,)) == 0


# --- uploads ---------------------------------------------------------------------------------------------------------

def upload(client, data: bytes, name: str = "photo.png", content_type: str = "image/png") -> httpx.Response:
    return client.post("/api/v1/photos/upload", files={"photo": (name, data, content_type)})


def test_an_uploaded_image_is_served_and_named_by_the_photo_that_shows_it(user, hotel, anonymous, live_engine):
    image = png()

    uploaded = upload(user.client, image)

    assert uploaded.status_code == 200, uploaded.text
    url = uploaded.json()["url"]
    assert list(uploaded.json()) == ["url"]
    served = anonymous.get(urlsplit(url).path)  # a channel fetches it without the user's token
    assert (served.status_code, served.headers["content-type"], served.content) == (200, "image/png", image)
    photo = add(user.client, hotel, url)
    media_id = url.rsplit("/", 1)[1]
    assert live_engine.store.scalar("SELECT media_id FROM photos WHERE id = ?", (photo["id"],)) == media_id


@pytest.mark.parametrize(("name", "data"), [
    ("notes.png", b"just some text, not an image\n"),
    ("fake.png", b"\x89PNG"),  # a signature's first bytes only
    ("empty.png", b""),
])
def test_a_file_that_is_not_an_image_is_refused_whatever_its_name(user, live_engine, name, data):
    before = live_engine.store.scalar("SELECT count(*) FROM media")

    response = upload(user.client, data, name)

    assert response.status_code == 422, response.text
    assert response.json()["errors"] == {"code": "validation_error", "title": "Validation Error",
                                         "details": {"photo": ["is not a PNG, JPEG, GIF or WebP image"]}}
    assert live_engine.store.scalar("SELECT count(*) FROM media") == before


def test_an_upload_needs_the_photo_field_in_a_multipart_body(user):
    wrong_field = user.client.post("/api/v1/photos/upload", files={"image": ("a.png", png(), "image/png")})
    as_json = user.client.post("/api/v1/photos/upload", json={"photo": "x"})

    assert wrong_field.status_code == 422 and list(wrong_field.json()["errors"]["details"]) == ["photo"]
    assert as_json.status_code == 400 and as_json.json()["errors"]["code"] == "bad_request"


@pytest.fixture
def small(new_db):
    """A server whose photos (and attachments) may be 64 KiB at most."""
    with serve_site(new_db(), attachment_max_bytes=64 * 1024) as site:
        user = site.user()
        yield site, user
        user.client.close()


def _answer(sock: socket.socket) -> str:
    """Everything the server sends until it closes the connection (a 413 closes it; with what we sent still unread
    on its side, the close may come as a reset after the answer)."""
    sock.settimeout(10)
    received = b""
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except ConnectionResetError:
        pass
    return received.decode("latin-1")


def test_too_big_an_upload_is_413_and_the_body_is_not_read(small):
    site, user = small
    stored = site.engine.store.scalar("SELECT count(*) FROM media")

    just_over = upload(user.client, png() + b"\x00" * (64 * 1024))

    assert just_over.status_code == 413 and just_over.json()["errors"]["code"] == "payload_too_large"
    host, port = urlsplit(site.main.url).hostname, urlsplit(site.main.url).port
    with socket.create_connection((host, port)) as sock:  # 100 MiB declared, none of it sent
        sock.sendall(f"POST /api/v1/photos/upload HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {user.token}\r\n"
                     "Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 104857600\r\n\r\n".encode())
        declared = _answer(sock)
    with socket.create_connection((host, port)) as sock:  # no length declared: cut off as it comes
        sock.sendall(f"POST /api/v1/photos/upload HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {user.token}\r\n"
                     "Content-Type: multipart/form-data; boundary=x\r\nTransfer-Encoding: chunked\r\n\r\n".encode())
        part = b'--x\r\nContent-Disposition: form-data; name="photo"; filename="big.png"\r\n\r\n' + png()
        chunk = b"\x00" * 16 * 1024
        for piece in (part, *[chunk] * 9):  # 144 KiB, past the 128 KiB the route reads (all taken in: a clean close)
            sock.sendall(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
        streamed = _answer(sock)

    assert declared.startswith("HTTP/1.1 413") and '"payload_too_large"' in declared
    assert streamed.startswith("HTTP/1.1 413")
    assert site.engine.store.scalar("SELECT count(*) FROM media") == stored


def test_an_upload_no_photo_shows_is_pruned_after_a_day(small):
    site, user = small
    hotel = new_property(user.client)
    shown, unused, recent = (upload(user.client, png()).json()["url"] for _ in range(3))
    add(user.client, hotel, shown)
    store = site.engine.store
    ids = [url.rsplit("/", 1)[1] for url in (shown, unused, recent)]
    with store.transaction() as conn:
        conn.execute("UPDATE media SET inserted_at = '2020-01-01T00:00:00.000000' WHERE id IN (?, ?)", ids[:2])

    prune_uploads(store, site.engine.config.clock())

    left = {row[0] for row in store.query("SELECT id FROM media")}
    assert ids[0] in left and ids[2] in left and ids[1] not in left
    assert user.client.get(urlsplit(unused).path).status_code == 404
