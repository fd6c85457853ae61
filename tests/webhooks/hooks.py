"""Helpers of the webhook tests: making a webhook over HTTP, and waiting for the deliverer."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx

from backend.engine import Engine
from tests.outbox.caught_up import caught_up
from tests.shopping.shop import check


def make_hook(client: httpx.Client, property_id: str, callback_url: str, event_mask: str = "*",
              **fields: Any) -> dict[str, Any]:
    """A webhook's attributes as the create answer gives them, its secret included."""
    body = {"property_id": property_id, "callback_url": callback_url, "event_mask": event_mask, **fields}
    return check(client.post("/api/v1/webhooks", json={"webhook": body}), 201)["data"]["attributes"]


def eventually(test: Callable[[], Any], timeout: float = 10.0) -> Any:
    """The first true answer of `test`, polled; AssertionError after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not (answer := test()):
        if time.monotonic() > deadline:
            raise AssertionError(f"not so within {timeout} s")
        time.sleep(0.02)
    return answer


def settled(engine: Engine, *webhook_ids: str) -> None:
    """Wait until each webhook has been sent, or has passed over, every event there is."""
    eventually(lambda: caught_up(engine, *webhook_ids))
