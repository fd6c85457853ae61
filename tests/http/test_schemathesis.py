"""Schemathesis over the main listener's OpenAPI, on a real loopback server with the demo portfolio.

Whatever schemathesis sends — valid, invalid, unknown IDs, real IDs — the answer is never a 5xx and is
what the document says: a documented status, content type, headers and body (every error in the error
shape `{"errors": {"code", "title", ...}}`). Logos are fetched for real: every generated `logo_url` is
steered to a loopback image server or to a hostile address, so none leaves this machine. Bounded and
deterministic: few examples an operation, derandomised, no example database written to the tree.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from backend.core.config import Config
from backend.engine import Engine
from backend.identity.service import hash_secret
from backend.tools.demo import load_demo
from tests.chat.test_chat_api import png
from tests.conftest import UNTHROTTLED, LiveServer, free_port
from tests.loopback import LoopbackSite
from tests.stores import SQLITE, Database

# The coverage phase alone reaches every validation path, in ~5,500 cases over main's ~70 operations (about
# 40 s on 2 cores); max_examples bounds the random phase after it. The secure listener runs the same routes and
# validation, which main's coverage phase already walks on both stores: a short random phase alone, for the
# paths that seal and reveal cards (80 s of the suite saved). pci has a dozen operations. Health checks are
# off: HTTP round trips are slow by nature.
FUZZ = settings(max_examples=25, derandomize=True, database=None, deadline=None,
                suppress_health_check=list(HealthCheck))
SECURE_FUZZ = settings(FUZZ, max_examples=10, phases=[Phase.generate])
PCI_FUZZ = settings(FUZZ, max_examples=50)
ANONYMOUS = settings(FUZZ, max_examples=5, phases=[Phase.generate])  # auth comes before the body: no coverage phase
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          response_headers_conformance]
INBOUND_KEY = "schemathesis-inbound-key"
# This module runs on SQLite; test_schemathesis_postgresql.py runs it on PostgreSQL, on another worker.
STORE_KINDS = (SQLITE,)


class Target:
    def __init__(self, engine: Engine, server: LiveServer, token: str, logos: list[str]) -> None:
        self.engine = engine
        self.server = server
        self.auth = {"Authorization": f"Bearer {token}"}
        self.ids = _demo_ids(engine)
        self.logos = logos
        self.cases = 0
        self.session = requests.Session()  # keep-alive: a new connection a case would dominate the run time


def serve_demo(database: Database, listener: str) -> Iterator[Target]:
    """The demo portfolio on one listener, with a loopback server of a real PNG for its logos."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    site = LoopbackSite(png, "image/png")
    engine = database.engine(
                         Config(base_url=url, secure_url=url, failed_auth_per_minute=UNTHROTTLED, fetch_timeout=1.0,
                                fetch_private_addresses=True))  # the image server is on loopback
    token = load_demo(engine).token
    # The demo channels' inbound keys were shown once and kept only as hashes: give them one we know, so that
    # the channel adapters' bodies are fuzzed too, not stopped at a 401.
    with engine.store.transaction() as conn:
        conn.execute("UPDATE channels SET inbound_key_hash = ?", (hash_secret(INBOUND_KEY),))
    with LiveServer(engine, listener, port) as server:
        target = Target(engine, server, token, _logos(site.url))
        yield target
        target.session.close()
    site.close()
    print(f"schemathesis on {listener}: {target.cases} cases, {len(site.seen)} logos fetched")


@pytest.fixture(scope="module")
def target(session_db) -> Iterator[Target]:
    yield from serve_demo(session_db("schemathesis-main"), "main")


def _logos(site: str) -> list[str]:
    """Where generated logo URLs go: the real image, twice as often as each address that must be a 422 — an
    invalid IDNA host, an octal IPv4 (loopback, which this server may fetch from), a closed port."""
    image = f"{site}/logo.png"
    return [image, image, image, "http://xn--a.com/", "http://0177.0.0.1/", "http://127.0.0.1:1/logo.png"]


def _demo_ids(engine: Engine) -> dict[str, list[str]]:
    """Real IDs by path parameter, so that generated requests reach existing objects too."""
    def ids(sql: str) -> list[str]:
        return [r[0] for r in engine.store.query(sql)]

    return {"property_id": ids("SELECT id FROM properties ORDER BY title"),
            "channel_id": ids("SELECT id FROM channels ORDER BY title"),
            "installation_id": ids("SELECT id FROM application_installations ORDER BY inserted_at, id"),
            "room_type_id": ids("SELECT id FROM room_types ORDER BY title, id"),
            "rate_plan_id": ids("SELECT id FROM rate_plans ORDER BY title, id"),
            "booking_id": ids("SELECT id FROM bookings ORDER BY unique_id"),
            "revision_id": ids("SELECT id FROM booking_revisions ORDER BY inserted_at, id"),
            "review_id": ids("SELECT id FROM reviews ORDER BY received_at, id"),
            "channel_name": ["OpenShopping"]}


@pytest.fixture(scope="module")
def api_schema(target: Target) -> schemathesis.BaseSchema:
    return schemathesis.openapi.from_url(f"{target.server.url}/openapi.json")


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@FUZZ
def test_answers_are_documented(case: schemathesis.Case, target: Target) -> None:
    fuzz(case, target)


@schema.parametrize()
@ANONYMOUS
def test_anonymous_is_unauthorized(case: schemathesis.Case, target: Target) -> None:
    anonymous(case, target)


def test_logos_are_fetched_for_real(api_schema: schemathesis.BaseSchema, target: Target) -> None:
    """What fuzzing seldom gets to (a body valid enough to fetch its logo): the image is kept and served, and
    every hostile address is a 422 on the logo alone."""
    create = api_schema["/api/v1/properties"]["POST"]
    image, *hostile = dict.fromkeys(target.logos)
    for url in (image, *hostile):
        case = create.Case(body={"property": {"title": "Logo Inn", "currency": "EUR", "logo_url": url}})
        response = case.call(session=target.session, headers=target.auth)
        case.validate_response(response, checks=CHECKS)
        if url == image:
            logo = target.session.get(response.json()["data"]["attributes"]["logo_url"])
            assert logo.status_code == 200 and logo.headers["content-type"] == "image/png" and logo.content == png()
        else:
            assert response.json()["errors"]["details"].keys() == {"logo_url"}, (url, response.text)


def fuzz(case: schemathesis.Case, target: Target) -> None:
    _aim_at_real_objects(case, target.ids)
    _steer_logo(case, target.logos)
    inbound = {"inboundKey": []} in case.operation.definition.raw.get("security", [])
    headers = {**target.auth, "api-key": INBOUND_KEY} if inbound else target.auth
    response = case.call(session=target.session, headers=headers)
    target.cases += 1
    case.validate_response(response, checks=CHECKS)


def anonymous(case: schemathesis.Case, target: Target) -> None:
    """An operation that declares a credential answers 401 without one. The demo's shopping channel has no
    provider key, so the shopping API is public, as its optional key says."""
    response = case.call(session=target.session)
    target.cases += 1
    case.validate_response(response, checks=CHECKS)
    security = case.operation.definition.raw.get("security", [])
    # Schemathesis also tries methods that the route lacks: their 405 comes before any auth.
    if security and {} not in security and case.method == case.operation.method.upper():
        assert response.status_code == 401, f"{case.method} {case.formatted_path} answered {response.status_code}"


def _steer_logo(case: schemathesis.Case, logos: list[str]) -> None:
    """Every generated logo URL goes to one of `logos`, chosen from its value: fetched for real, never off
    this machine. Empty and non-string values stay, for the validation they meet."""
    entity = case.body.get("property") if isinstance(case.body, dict) else None
    if isinstance(entity, dict) and isinstance(entity.get("logo_url"), str) and entity["logo_url"]:
        entity["logo_url"] = logos[zlib.crc32(entity["logo_url"].encode("utf-8", "surrogatepass")) % len(logos)]


def _aim_at_real_objects(case: schemathesis.Case, ids: dict[str, list[str]]) -> None:
    """Put a real ID in the path of about half the cases, so that their bodies reach the rules of update
    and delete instead of stopping at a 404. Chosen from the generated value: deterministic, every phase."""
    for name, value in (case.path_parameters or {}).items():
        known, pick = ids.get(name), zlib.crc32(str(value).encode())
        if known and pick % 2:
            case.path_parameters[name] = known[pick // 2 % len(known)]
