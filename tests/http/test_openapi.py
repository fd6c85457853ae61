"""What each listener says about itself: an OpenAPI document whose references resolve, that declares how
each operation authenticates and which errors it answers, a 405 that names every method of its path, and
docs pages that need no network (and none on the card listener unless asked for)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from backend.core.config import Config
from backend.engine import Engine
from tests.conftest import LiveServer, free_port

USER = [{"bearer": []}, {"userApiKey": []}]


@pytest.fixture(scope="module")
def documents(live, secure, pci) -> dict[str, dict[str, Any]]:
    urls = {"main": live[1].url, "secure": secure.url, "pci": pci.url}
    return {name: httpx.get(f"{url}/openapi.json").json() for name, url in urls.items()}


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield from [value] if key == "$ref" else _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def test_every_reference_resolves(documents):
    for listener, document in documents.items():
        schemas = document["components"]["schemas"]
        unresolved = {ref for ref in _refs(document) if ref.removeprefix("#/components/schemas/") not in schemas}
        assert unresolved == set(), listener


def test_each_operation_declares_the_credential_it_takes(documents):
    main, pci = documents["main"], documents["pci"]
    schemes = main["components"]["securitySchemes"]
    assert schemes["bearer"] == {**schemes["bearer"], "type": "http", "scheme": "bearer"}
    assert {(s["in"], s["name"]) for s in schemes.values() if s["type"] == "apiKey"} == {
        ("header", "user-api-key"), ("header", "api-key")}
    paths = main["paths"]
    assert paths["/api/v1/properties"]["get"]["security"] == USER
    assert paths["/api/v1/message_threads"]["get"]["security"] == USER
    assert paths["/api/v1/meta/{channel_name}/property_list"]["get"]["security"] == [{"providerKey": []}, {}]
    assert paths["/api/v1/inbound/{channel_id}/messages"]["post"]["security"] == [{"inboundKey": []}]
    for public in ("/api/v1/health", "/api/v1/media/{media_id}"):
        assert "security" not in paths[public]["get"] and "401" not in paths[public]["get"]["responses"]
    chat_session = paths["/api/v1/auth/chat_session"]["post"]
    assert "security" not in chat_session and "401" in chat_session["responses"]  # the one-time token is the proof

    assert {(s["in"], s["name"]) for name, s in pci["components"]["securitySchemes"].items()
            if name.startswith("pci")} == {("query", "api_key"), ("header", "api-key")}
    assert pci["paths"]["/api/v1/tokenize"]["post"]["security"] == [{"pciKey": []}, {"pciKeyHeader": []}]
    # The key is a security scheme, not an ordinary parameter that fuzzers and clients would fill at random.
    assert "api_key" not in {p["name"] for p in pci["paths"]["/api/v1/tokenize"]["post"]["parameters"]}


def test_each_operation_documents_its_errors_in_the_error_shape(documents):
    update = documents["main"]["paths"]["/api/v1/properties/{property_id}"]["put"]["responses"]
    assert {"400", "401", "404", "405", "408", "413", "422", "429", "503"} <= set(update)
    assert update["405"]["headers"]["Allow"]["required"] and update["429"]["headers"]["Retry-After"]["required"]
    crs_update = documents["main"]["paths"]["/api/v1/bookings/{booking_id}"]["put"]
    assert {"200", "400", "401", "404", "422"} <= set(crs_update["responses"]) and crs_update["security"] == USER
    health = documents["main"]["paths"]["/api/v1/health"]["get"]["responses"]
    assert set(health) == {"200", "400", "405", "408", "413", "429", "503"}  # 400: a NUL in the address
    capture = documents["pci"]["paths"]["/api/v1/capture"]["post"]["responses"]
    assert {"401", "404", "502"} <= set(capture)
    profile = documents["pci"]["paths"]["/api/v1/tokenization_profiles/{profile_id}"]["delete"]["responses"]
    assert "403" in profile
    for document in documents.values():
        error = document["components"]["schemas"]["Error"]
        assert error["required"] == ["errors"] and error["properties"]["errors"]["required"] == ["code", "title"]
        for operations in document["paths"].values():
            for operation in operations.values():
                for status, response in operation["responses"].items():
                    if int(status) >= 400:
                        assert response["content"]["application/json"]["schema"] == {
                            "$ref": "#/components/schemas/Error"}


def test_the_photos_collection_is_documented(documents):
    """Reference §12: the collection, its bodies, the 201 of create and the multipart upload."""
    paths, schemas = documents["main"]["paths"], documents["main"]["components"]["schemas"]
    assert set(paths["/api/v1/photos"]) == {"get", "post"} and set(paths["/api/v1/photos/{photo_id}"]) == {
        "get", "put", "delete"}
    create = paths["/api/v1/photos"]["post"]
    assert "201" in create["responses"] and create["security"] == USER
    assert create["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/PhotoEnvelope"}
    assert {"property_id", "room_type_id", "url", "kind", "position", "author", "description"} <= set(
        schemas["PhotoInput"]["properties"])
    listed = {p["name"] for p in paths["/api/v1/photos"]["get"]["parameters"]}
    assert {"filter[property_id]", "filter[room_type_id]", "pagination[page]", "pagination[limit]"} <= listed
    upload = paths["/api/v1/photos/upload"]["post"]
    form = upload["requestBody"]["content"]["multipart/form-data"]["schema"]
    assert form["required"] == ["photo"] and form["properties"]["photo"]["format"] == "binary"
    assert upload["responses"]["200"]["content"]["application/json"]["schema"]["required"] == ["url"]
    assert {"401", "413", "422"} <= set(upload["responses"]) and upload["security"] == USER


def test_the_outbox_status_documents_its_answer_read_replicas_included(documents):
    paths, schemas = documents["main"]["paths"], documents["main"]["components"]["schemas"]
    answer = paths["/api/v1/outbox/status"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert answer == {"$ref": "#/components/schemas/OutboxStatusEnvelope"}
    assert schemas["OutboxStatus"]["properties"]["read_replicas"]["items"] == {"$ref": "#/components/schemas/ReadReplica"}
    replica = schemas["ReadReplica"]
    assert set(replica["required"]) == {"location", "state", "why", "lag_seconds", "since"}
    assert replica["properties"]["state"]["enum"] == ["in_use", "down", "lagging", "refused"]
    assert "ReadReplica" not in str(paths["/api/v1/health"])


def test_a_405_names_every_method_of_its_path(user):
    created = user.client.post("/api/v1/properties", json={"property": {"title": "Allow Inn", "currency": "EUR"}})
    refused = user.client.patch(f"/api/v1/properties/{created.json()['data']['id']}", json={})
    assert refused.status_code == 405 and refused.json()["errors"]["code"] == "method_not_allowed"
    assert refused.headers["allow"] == "DELETE, GET, PUT"
    assert user.client.delete("/api/v1/properties").headers["allow"] == "GET, POST"


def test_docs_need_no_network(live, secure):
    for url in (live[1].url, secure.url):
        page = httpx.get(f"{url}/docs")
        assert page.status_code == 200 and "SwaggerUIBundle" in page.text
        addresses = re.findall(r"""(?:src|href)="([^"]+)"|url: '([^']+)'""", page.text)
        assets = [a or b for a, b in addresses]
        assert assets and all("//" not in asset for asset in assets), assets
        for asset in assets:
            served = httpx.get(f"{url}/{asset}")
            assert served.status_code == 200 and len(served.content) > 1000, asset
        script = httpx.get(f"{url}/docs/assets/swagger-ui-bundle.js")
        assert script.headers["content-type"].startswith("text/javascript")


def test_the_card_listener_has_docs_only_when_asked_for(pci, tmp_path):
    assert httpx.get(f"{pci.url}/openapi.json").status_code == 200
    hidden = httpx.get(f"{pci.url}/docs")
    assert hidden.status_code == 404 and hidden.json()["errors"]["code"] == "not_found"
    assert httpx.get(f"{pci.url}/docs/assets/swagger-ui-bundle.js").status_code == 404
    engine = Engine.open(tmp_path / "docs.db", Config(pci_docs=True))
    with LiveServer(engine, "pci", free_port()) as asked:
        assert httpx.get(f"{asked.url}/docs").status_code == 200


# The service's collections added in "4 of 5" (reference §8–§12): each operation says which credential it takes and
# every status it answers, beside its success.
SERVICE_COLLECTIONS = ("/api/v1/reviews", "/api/v1/scores/", "/api/v1/taxes", "/api/v1/tax_sets", "/api/v1/photos",
                       "/api/v1/property_users", "/api/v1/group_users", "/api/v1/channel_availability_rules",
                       "/api/v1/groups/{group_id}/properties/")


def test_the_service_collections_document_their_credential_and_statuses(documents):
    paths = documents["main"]["paths"]
    for prefix in SERVICE_COLLECTIONS:
        found = {path: operations for path, operations in paths.items() if path.startswith(prefix)}
        assert found, prefix
        for path, operations in found.items():
            for method, operation in operations.items():
                responses = set(operation["responses"])
                assert operation["security"] == USER, (method, path)
                assert {"400", "401", "405", "429"} <= responses, (method, path)
                assert any(status.startswith("2") for status in responses), (method, path)
                assert "404" in responses or "{" not in path, (method, path)
                assert "422" in responses or method not in ("post", "put"), (method, path)
