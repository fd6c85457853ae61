"""A receiver on loopback for what Frontdesk sends out (webhooks, ARI pushes): it keeps every POST — headers, body,
arrival time — and answers as a test scripts it: a queue of statuses (with bodies) first, then `status`, after
`delay` seconds (or once `gate` is set, when it is given) and with `headers` added."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    at: float  # time.time() on arrival

    def json(self) -> Any:
        return json.loads(self.body)


class Receiver:
    def __init__(self, port: int = 0) -> None:
        self.received: list[Received] = []
        self.answers: list[tuple[int, bytes]] = []  # answered first, in order
        self.status, self.body, self.content_type = 200, b'{"ok":true}', "application/json"
        self.delay = 0.0  # seconds between an arrival and its answer: a slow receiver
        self.gate: threading.Event | None = None  # when given, every answer waits until it is set: a stalled receiver
        self.headers: dict[str, str] = {}  # added to every answer (a redirect's Location)
        self.arrived = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # the status line and the body are two writes: no 40 ms delayed ACK

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                if len(body) < length:  # the sender went away mid-body (killed): nothing arrived
                    return
                with receiver.arrived:
                    status, answer = receiver.answers.pop(0) if receiver.answers else (receiver.status, receiver.body)
                    receiver.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()},
                                                      body, time.time()))
                    receiver.arrived.notify_all()
                if receiver.gate is not None:
                    receiver.gate.wait(60)
                time.sleep(receiver.delay)
                self.send_response(status)
                self.send_header("Content-Type", receiver.content_type)
                for name, value in receiver.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(answer)))
                try:
                    self.end_headers()
                    self.wfile.write(answer)
                except OSError:  # the sender went away before the answer (killed, or it stopped reading)
                    self.close_connection = True

            def log_message(self, *_: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Received]:
        """The first `count` arrivals, once they are here; AssertionError after `timeout` seconds."""
        with self.arrived:
            if not self.arrived.wait_for(lambda: len(self.received) >= count, timeout):
                raise AssertionError(f"{len(self.received)} of {count} arrived in {timeout} s")
            return self.received[:count]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
