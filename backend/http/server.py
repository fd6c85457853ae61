"""`frontdesk serve`: three uvicorn listeners in one process, one event loop, one engine."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from dataclasses import dataclass
from pathlib import Path

import uvicorn

from backend.config import Config
from backend.engine import Engine
from backend.http.apps import create_app


@dataclass(frozen=True)
class Listeners:
    host: str = "127.0.0.1"
    port: int = 8000
    secure_port: int = 8001
    pci_port: int = 8002
    ssl_certfile: str | None = None
    ssl_keyfile: str | None = None
    fetch_private_addresses: bool = False
    chat_frame_ancestors: str = "*"
    capture_allow_list: tuple[str, ...] = ()

    @property
    def scheme(self) -> str:
        return "https" if self.ssl_certfile else "http"

    def config(self) -> Config:
        return Config(base_url=f"http://{self.host}:{self.port}",
                      secure_url=f"{self.scheme}://{self.host}:{self.secure_port}",
                      pci_url=f"{self.scheme}://{self.host}:{self.pci_port}",
                      fetch_private_addresses=self.fetch_private_addresses,
                      chat_frame_ancestors=self.chat_frame_ancestors, capture_allow_list=self.capture_allow_list)


class _Listener(uvicorn.Server):
    """One of several servers on a loop: signals are handled once, for all, by `serve`."""

    @contextlib.contextmanager
    def capture_signals(self):
        yield


def serve(db_path: Path, listeners: Listeners) -> None:
    engine = Engine.open(db_path, listeners.config())
    tls = {"ssl_certfile": listeners.ssl_certfile, "ssl_keyfile": listeners.ssl_keyfile}
    servers = [
        _Listener(uvicorn.Config(create_app(engine, "main"), host=listeners.host, port=listeners.port,
                                 log_level="info", access_log=False)),
        _Listener(uvicorn.Config(create_app(engine, "secure"), host=listeners.host, port=listeners.secure_port,
                                 log_level="info", access_log=False, **tls)),
        _Listener(uvicorn.Config(create_app(engine, "pci"), host=listeners.host, port=listeners.pci_port,
                                 log_level="info", access_log=False, **tls)),
    ]

    def stop(*_: object) -> None:
        for server in servers:
            server.should_exit = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    print(f"Frontdesk serving {db_path}: main http://{listeners.host}:{listeners.port}, "
          f"secure {listeners.scheme}://{listeners.host}:{listeners.secure_port}, "
          f"pci {listeners.scheme}://{listeners.host}:{listeners.pci_port}", flush=True)
    asyncio.run(_serve_all(servers))


async def _serve_all(servers: list[uvicorn.Server]) -> None:
    await asyncio.gather(*(server.serve() for server in servers))
