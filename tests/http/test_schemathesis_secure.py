"""Schemathesis over the secure listener's OpenAPI: the main API where card data sent in is kept sealed, and
where the tokenisation service, which proves itself with the internal secret, reads it back in clear. The
same checks as on main (tests/http/test_schemathesis.py), with that secret on every call, so the paths that
seal and reveal cards are fuzzed too. Its routes and their authentication are main's: the anonymous run
there covers them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis

from backend.core.keys import INTERNAL_HEADER, REVEAL_HEADER
from tests.http.test_schemathesis import SECURE_FUZZ, Target, fuzz, serve_demo
from tests.stores import Database


@pytest.fixture(scope="module")
def secure_target(tmp_path_factory) -> Iterator[Target]:
    """On SQLite alone: the secure listener runs main's routes over the same engine, which main's fuzzing already
    runs on PostgreSQL too."""
    for target in serve_demo(Database(tmp_path_factory.mktemp("schemathesis-secure") / "frontdesk.db"), "secure"):
        target.auth[INTERNAL_HEADER] = target.engine.keys.internal_secret
        target.auth[REVEAL_HEADER] = "any"  # what capture sends for a profile of the operator's own
        yield target


@pytest.fixture(scope="module")
def secure_schema(secure_target: Target) -> schemathesis.BaseSchema:
    return schemathesis.openapi.from_url(f"{secure_target.server.url}/openapi.json")


schema = schemathesis.pytest.from_fixture("secure_schema")


@schema.parametrize()
@SECURE_FUZZ
def test_answers_are_documented(case: schemathesis.Case, secure_target: Target) -> None:
    fuzz(case, secure_target)
