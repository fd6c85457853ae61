"""Console tests: the real app on a real SQLite file filled with the demo data, driven by Textual's pilot."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

import pytest

from backend.core.config import Config
from backend.core.listing import ListQuery
from backend.engine import Engine
from backend.tools.demo import load_demo
from tests.console.helpers import SteadyApp
from tests.console.outbox_scene import stage_events_out


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def clock() -> Callable[[], datetime] | None:
    """The engine's clock; None is the real one. A module whose snapshots show the demo's dates (the demo
    builds them from the clock) overrides this fixture with `helpers.frozen_clock`."""
    return None


@pytest.fixture
def config_options() -> dict[str, Any]:
    """More engine settings; a module whose console runs the deliverer makes its retries quick here."""
    return {}


@pytest.fixture
def engine(tmp_path, monkeypatch, clock: Callable[[], datetime] | None,
           config_options: dict[str, Any]) -> Iterator[Engine]:
    # A relative path, so that the app bar shows "frontdesk.db" in every snapshot, whatever tmp_path is.
    monkeypatch.chdir(tmp_path)
    # Private addresses allowed: webhooks and push channels are tested against a receiver on loopback, and the
    # example addresses of staged ones are not looked up.
    config = Config(fetch_private_addresses=True, **({"clock": clock} if clock else {}), **config_options)
    engine = Engine.open("frontdesk.db", config)
    load_demo(engine)
    yield engine
    engine.close()


@pytest.fixture
def no_saved_replies(engine: Engine) -> None:
    """Without the demo's saved replies: for a module that writes its own and counts or shows them all."""
    operator = engine.identity.operator()
    for template in engine.message_templates.list(operator, ListQuery(limit=100))[0]:
        engine.message_templates.delete(operator, template["id"])


@pytest.fixture
def events_out(engine: Engine) -> None:
    """Channels and webhooks in every state of events out, at fixed times (tests/console/outbox_scene.py)."""
    stage_events_out(engine)


@pytest.fixture
def make_app(engine: Engine) -> Callable[..., SteadyApp]:
    def make(**options: Any) -> SteadyApp:
        # Properties, where the tests of the other areas begin; test_inbox asks for the inbox.
        return SteadyApp(engine, **{"poll_interval": 0.1, "mode": "properties", **options})

    return make
