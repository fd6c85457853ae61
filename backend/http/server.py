"""`frontdesk serve`: three uvicorn listeners in one process, one event loop, one engine."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import uvicorn

from backend.core.clients import check_shared
from backend.core.config import Config
from backend.engine import Engine
from backend.http.apps import Listener, create_app
from backend.http.guard import Gate
from backend.http.protocol import GuardedH11Protocol
from backend.outbox.lease import ServerAddresses


@dataclass(frozen=True)
class Listeners:
    host: str = "127.0.0.1"
    port: int = 8000
    secure_port: int = 8001
    pci_port: int = 8002
    ssl_certfile: str | None = None
    ssl_keyfile: str | None = None
    fetch_private_addresses: bool = False
    chat_frame_ancestors: str = Config.chat_frame_ancestors
    capture_allow_list: tuple[str, ...] = ()
    public_url: str | None = None  # the listeners' addresses as clients reach them (a proxy's); None: where they listen
    public_secure_url: str | None = None
    public_pci_url: str | None = None
    pci_docs: bool = False
    cors_origins: tuple[str, ...] = ()  # who may call the shopping API and frame the card form from a browser
    header_timeout: float = Config.header_timeout  # what a client may hold, per listener: see Config
    body_timeout: float = Config.body_timeout
    body_min_rate: int = Config.body_min_rate
    max_waiting_bodies: int = Config.max_waiting_bodies
    idle_timeout: float = Config.idle_timeout
    max_connections: int = Config.max_connections
    max_requests: int = Config.max_requests
    failed_auth_per_minute: int = Config.failed_auth_per_minute
    forwarded_allow_ips: tuple[str, ...] = Config.forwarded_allow_ips
    limits_storage: str | None = None  # a Redis the limits of every worker count in (backend/core/clients.py)
    read_dbs: tuple[str, ...] = ()  # hot standbys the shopping API reads from (storage/replicas.py)
    replica_lag_bound: float = Config.replica_lag_bound
    db_direct: str | None = None  # the server's own URL when the database's is a pooler's (storage/postgres.py)

    @property
    def scheme(self) -> str:
        return "https" if self.ssl_certfile else "http"

    def addresses(self) -> ServerAddresses:
        """Where the listeners listen, and their public addresses if given: what `serve` records for a console."""
        return ServerAddresses(f"http://{self.host}:{self.port}", f"{self.scheme}://{self.host}:{self.secure_port}",
                               f"{self.scheme}://{self.host}:{self.pci_port}", self.public_url, self.public_secure_url,
                               self.public_pci_url)

    def described(self) -> str:
        return (f"main http://{self.host}:{self.port}, secure {self.scheme}://{self.host}:{self.secure_port}, "
                f"pci {self.scheme}://{self.host}:{self.pci_port}")

    def config(self) -> Config:
        secure = f"{self.scheme}://{self.host}:{self.secure_port}"
        return Config(base_url=(self.public_url or f"http://{self.host}:{self.port}").rstrip("/"),
                      secure_url=(self.public_secure_url or secure).rstrip("/"), secure_listen_url=secure,
                      pci_url=(self.public_pci_url or f"{self.scheme}://{self.host}:{self.pci_port}").rstrip("/"),
                      pci_docs=self.pci_docs, cors_origins=self.cors_origins,
                      fetch_private_addresses=self.fetch_private_addresses,
                      chat_frame_ancestors=self.chat_frame_ancestors, capture_allow_list=self.capture_allow_list,
                      header_timeout=self.header_timeout, body_timeout=self.body_timeout,
                      body_min_rate=self.body_min_rate, max_waiting_bodies=self.max_waiting_bodies,
                      idle_timeout=self.idle_timeout, max_connections=self.max_connections,
                      max_requests=self.max_requests, failed_auth_per_minute=self.failed_auth_per_minute,
                      forwarded_allow_ips=self.forwarded_allow_ips, limits_storage=self.limits_storage,
                      read_dbs=self.read_dbs, replica_lag_bound=self.replica_lag_bound, db_direct=self.db_direct)


class _Listener(uvicorn.Server):
    """One of several servers on a loop: signals are handled once, for all, by `serve`."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def listener_config(engine: Engine, listener: Listener, host: str, port: int, gate: Gate | None = None,
                    log_level: str = "info", *, ssl_certfile: str | None = None,
                    ssl_keyfile: str | None = None) -> uvicorn.Config:
    """One listener as `frontdesk serve` runs it: its app behind the guard, on the guarded h11 protocol."""
    config = engine.config
    # X-Forwarded-For is read only from the proxies named: the client address is what throttles count.
    return uvicorn.Config(create_app(engine, listener, gate), host=host, port=port, log_level=log_level,
                          access_log=False,
                          timeout_keep_alive=config.idle_timeout,  # type: ignore[arg-type]  # seconds, a float too
                          proxy_headers=bool(config.forwarded_allow_ips),
                          forwarded_allow_ips=list(config.forwarded_allow_ips),
                          http=GuardedH11Protocol.limited(config.header_timeout, config.max_connections),
                          ssl_certfile=ssl_certfile, ssl_keyfile=ssl_keyfile)


def serve(target: str | Path, listeners: Listeners, keys_path: Path | None = None, workers: int = 1) -> None:
    """Serve the database at `target` (a SQLite file, or a `postgresql://` URL) until SIGINT or SIGTERM: in this
    process, or in `workers` processes of their own under a supervisor (backend/http/workers.py)."""
    config = replace(listeners.config(), keys_path=keys_path, workers=workers)
    if config.limits_storage:
        check_shared(config.limits_storage)
    if workers > 1:
        from backend.http.workers import supervise

        supervise(target, listeners, config)
        return
    run_listeners(Engine.open(target, config), listeners)


def run_listeners(engine: Engine, listeners: Listeners, sockets: list[socket.socket] | None = None) -> None:
    """The three listeners over `engine`, on the sockets a supervisor bound (else they bind their own ports), until
    SIGINT or SIGTERM, when they finish the requests in progress."""
    gate = Gate.of(engine.config)  # one count of failed credentials for the three listeners
    servers = [_Listener(listener_config(engine, "main", listeners.host, listeners.port, gate)),
               _Listener(listener_config(engine, "secure", listeners.host, listeners.secure_port, gate,
                                         ssl_certfile=listeners.ssl_certfile, ssl_keyfile=listeners.ssl_keyfile)),
               _Listener(listener_config(engine, "pci", listeners.host, listeners.pci_port, gate,
                                         ssl_certfile=listeners.ssl_certfile, ssl_keyfile=listeners.ssl_keyfile))]

    def stop(*_: object) -> None:
        for server in servers:
            server.should_exit = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    if sockets is None:
        print(f"Frontdesk serving {engine.location}: {listeners.described()}", flush=True)
    with engine.delivering("serve", listeners.addresses()):  # records the addresses while it holds the lease
        asyncio.run(_serve_all(servers, sockets))


async def _serve_all(servers: Sequence[uvicorn.Server], sockets: list[socket.socket] | None) -> None:
    await asyncio.gather(*(server.serve(sockets=[sockets[n]] if sockets else None)
                           for n, server in enumerate(servers)))
