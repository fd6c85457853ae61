"""The one outbound POST of webhooks and ARI pushes (backend/outbox/sending.py), against servers on loopback: an
address on loopback is refused at the call itself unless the operator allows private addresses, a redirect is an
answer and never followed, an answer that does not come within the timeout (or trickles in) is a failure, and no
more than READ_CAP bytes of an answer are read."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from backend.outbox.sending import READ_CAP, Sender, SendFailed, new_secret
from backend.webhooks import masks
from backend.webhooks.route import Hook, post
from tests.receiver import Receiver


def hook_to(url: str) -> Hook:
    return Hook("hook", "property", url, masks.parse("*"), {}, {}, True)


def test_a_loopback_address_is_refused_at_the_call_and_nothing_reaches_it(receiver):
    with pytest.raises(SendFailed, match="private or local address"):
        Sender().post(f"{receiver.url}/hook", "{}", {})
    time.sleep(0.1)
    assert receiver.received == []


def test_a_redirect_is_an_answer_not_followed_and_a_webhook_takes_it_as_a_failure(receiver):
    elsewhere = Receiver()
    try:
        receiver.status, receiver.headers = 307, {"Location": f"{elsewhere.url}/stolen"}
        sender = Sender(private_addresses=True)
        assert sender.post(receiver.url, "{}", {}).status == 307
        with pytest.raises(SendFailed, match="answered 307"):
            post(sender, hook_to(receiver.url), "event-1", {"event": "test"}, new_secret())
        time.sleep(0.1)
        assert len(receiver.received) == 2 and elsewhere.received == []
    finally:
        elsewhere.close()


def test_no_answer_within_the_timeout_is_a_failure(receiver):
    receiver.delay = 1.0
    started = time.monotonic()
    with pytest.raises(SendFailed, match="no answer within 0.2 s") as failed:
        Sender(private_addresses=True, timeout=0.2).post(receiver.url, "{}", {})
    assert failed.value.outline == "timed out"
    assert time.monotonic() - started < 0.9


def test_at_most_read_cap_bytes_of_an_answer_are_read(receiver):
    receiver.body = b"x" * (READ_CAP * 16)
    answer = Sender(private_addresses=True).post(receiver.url, "{}", {})
    assert answer.status == 200 and len(answer.text) == READ_CAP


@pytest.fixture
def trickling() -> Iterator[str]:
    """A server that answers 200 and then its body a byte every 50 ms: each read comes within any timeout."""
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            try:
                for _ in range(1000):
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(0.05)
            except OSError:  # the sender gave up and closed the connection
                pass

        def log_message(self, *_: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_an_answer_trickling_in_is_cut_off_after_twice_the_timeout(trickling):
    started = time.monotonic()
    with pytest.raises(SendFailed, match="its answer took over 0.4 s"):
        Sender(private_addresses=True, timeout=0.2).post(trickling, "{}", {})
    assert time.monotonic() - started < 2
