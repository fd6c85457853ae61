"""test_schemathesis.py on PostgreSQL: the same server, operations and checks, in a module of its own so that the
run's workers fuzz the two stores at once (a module runs on one worker)."""

from __future__ import annotations

from tests.http.test_schemathesis import (  # noqa: F401 (fixtures and tests collected here)
    api_schema,
    target,
    test_anonymous_is_unauthorized,
    test_answers_are_documented,
    test_logos_are_fetched_for_real,
)
from tests.stores import POSTGRESQL

STORE_KINDS = (POSTGRESQL,)
