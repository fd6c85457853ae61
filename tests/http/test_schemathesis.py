"""Schemathesis over the main listener's OpenAPI, on a real loopback server with the demo portfolio.

Whatever schemathesis sends — valid, invalid, unknown IDs, real IDs — the answer is never a 5xx, and
every failure carries the error shape `{"errors": {"code", "title", ...}}`. Bounded and deterministic:
few examples an operation, derandomised, no example database written to the tree.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error

from backend.config import Config
from backend.demo import load_demo
from backend.engine import Engine
from backend.errors import ValidationFailed
from tests.conftest import LiveServer, free_port

# Half Hypothesis' default count a phase: with ~60 operations the file stays near a minute on 2 cores,
# and the coverage phase still reaches every validation path. Health checks are off: HTTP round trips
# are slow by nature.
FUZZ = settings(max_examples=50, derandomize=True, database=None, deadline=None,
                suppress_health_check=list(HealthCheck))
# Served without a user token; everything else must answer 401 to an anonymous caller. The demo's
# shopping channel has no provider key, so the shopping API is public as the spec describes.
# chat_session takes no API token: the one-time token in its body is the proof (tests/chat/test_embed_tokens.py).
PUBLIC_PATHS = {"/api/v1/health", "/api/v1/media/{media_id}", "/api/v1/auth/chat_session"}
PUBLIC_PREFIX = "/api/v1/meta/"


class Target:
    def __init__(self, server: LiveServer, token: str, ids: dict[str, list[str]]) -> None:
        self.server = server
        self.auth = {"Authorization": f"Bearer {token}"}
        self.ids = ids
        self.session = requests.Session()  # keep-alive: a new connection a case would dominate the run time


@pytest.fixture(scope="module")
def target(tmp_path_factory) -> Iterator[Target]:
    port = free_port()
    engine = Engine.open(tmp_path_factory.mktemp("schemathesis") / "frontdesk.db",
                         Config(base_url=f"http://127.0.0.1:{port}"))
    token = load_demo(engine).token
    engine.media.fetch_image = _no_fetch  # fuzzed logo URLs must not reach the internet
    with LiveServer(engine, "main", port) as server:
        target = Target(server, token, _demo_ids(engine))
        yield target
        target.session.close()


def _no_fetch(url: str, field: str) -> Any:
    raise ValidationFailed.one(field, "could not be fetched (no network in tests)")


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
            "channel_name": ["OpenShopping"]}


@pytest.fixture(scope="module")
def api_schema(target: Target) -> schemathesis.BaseSchema:
    return schemathesis.openapi.from_url(f"{target.server.url}/openapi.json")


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@FUZZ
def test_no_server_error(case: schemathesis.Case, target: Target) -> None:
    _aim_at_real_objects(case, target.ids)
    response = case.call(session=target.session, headers=target.auth)
    case.validate_response(response, checks=[not_a_server_error])
    _assert_error_shape(response)


@schema.parametrize()
@settings(FUZZ, max_examples=5, phases=[Phase.generate])  # auth comes before the body: no coverage phase
def test_anonymous_is_unauthorized(case: schemathesis.Case, target: Target) -> None:
    response = case.call(session=target.session)
    case.validate_response(response, checks=[not_a_server_error])
    _assert_error_shape(response)
    # Schemathesis also tries methods that the route lacks: their 405 comes before any auth.
    public = case.operation.path in PUBLIC_PATHS or case.operation.path.startswith(PUBLIC_PREFIX)
    if not public and case.method == case.operation.method.upper():
        assert response.status_code == 401, f"{case.method} {case.formatted_path} answered {response.status_code}"


def _aim_at_real_objects(case: schemathesis.Case, ids: dict[str, list[str]]) -> None:
    """Put a real ID in the path of about half the cases, so that their bodies reach the rules of update
    and delete instead of stopping at a 404. Chosen from the generated value: deterministic, every phase."""
    for name, value in (case.path_parameters or {}).items():
        known, pick = ids.get(name), zlib.crc32(str(value).encode())
        if known and pick % 2:
            case.path_parameters[name] = known[pick // 2 % len(known)]


def _assert_error_shape(response: schemathesis.Response) -> None:
    if response.status_code < 300:
        return
    body = response.json()
    error = body.get("errors") if isinstance(body, dict) else None
    assert isinstance(error, dict) and isinstance(error.get("code"), str) and isinstance(error.get("title"), str), \
        f"{response.status_code} without the error shape: {response.text[:300]}"
