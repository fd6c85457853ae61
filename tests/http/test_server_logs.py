"""What the server's log holds when things go wrong: the type of an unexpected error and its route, never
its text, its traceback or anything of the request; and nothing at ERROR when a client simply leaves."""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.conftest import LiveServer, free_port

CARD = "4111111111111111"


class Log(logging.Handler):
    """Every record of the server at every level, from the root logger and uvicorn's (which do not propagate);
    not the test's own HTTP client, which logs the addresses it calls."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        if not record.name.startswith(("httpx", "httpcore")):
            self.records.append(record)

    @property
    def text(self) -> str:
        return "\n".join(self.format(record) for record in self.records)  # tracebacks included


@pytest.fixture
def server(engine) -> Iterator[LiveServer]:
    with LiveServer(engine, "main", free_port()) as server:
        yield server


@pytest.fixture
def log() -> Iterator[Log]:
    handler = Log()
    # Not uvicorn.access: `frontdesk serve` turns the access log off, and a handler there would turn it on.
    loggers = [logging.getLogger(name) for name in ("", "uvicorn", "uvicorn.error", "asyncio")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
    yield handler
    for logger, level in zip(loggers, levels):
        logger.removeHandler(handler)
        logger.setLevel(level)


def test_an_unexpected_error_is_a_500_in_the_error_shape_and_its_text_never_reaches_the_log(server, log):
    async def declined(card: str) -> None:
        raise ValueError(f"card {card} declined")

    server.app.add_api_route("/test/charge/{card}", declined)

    response = httpx.get(f"{server.url}/test/charge/{CARD}", params={"cvv": "737"})

    assert response.status_code == 500
    assert response.json() == {"errors": {"code": "internal_error", "title": "Internal Error"}}
    assert "ValueError on GET /test/charge/{card}" in log.text
    assert CARD not in log.text and "737" not in log.text and "Traceback" not in log.text


def test_a_client_that_leaves_halfway_through_its_body_is_not_an_error(server, log, engine):
    _, issued = engine.identity.add_user("leaver@example.com")
    port = int(server.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as client:
        client.sendall(b"POST /api/v1/properties HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                       b"Authorization: Bearer " + issued.token.encode() + b"\r\nContent-Length: 1000\r\n\r\n"
                       b'{"property": {"title": "' + b"x" * 400)
        _wait_until(lambda: server.server.server_state.tasks)  # the route is reading the body
    _wait_until(lambda: not server.server.server_state.tasks)  # and has seen the client leave

    assert not [r for r in log.records if r.levelno >= logging.ERROR], log.text
    assert "Traceback" not in log.text


def _wait_until(condition, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)
