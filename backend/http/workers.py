"""`frontdesk serve --workers N`: one supervisor process and N workers, each with an engine of its own.

The supervisor opens the database once first (migrations, keys: what cannot be used is refused before any worker
starts), binds the three listeners' sockets for each worker (SO_REUSEPORT: the kernel spreads new connections over
the workers' sockets by their addresses; on one shared socket, the worker that woke first took every connection
waiting, and a benchmark's 32 kept-alive connections all went to one worker), and starts the workers by spawning
(never forking: an engine holds threads and connections). A worker's sockets stay open in the supervisor: the
connections the kernel gives a worker that died wait in their queue until it is started again (at most once a
second). SIGTERM or SIGINT is passed on, and each worker finishes the requests it has in progress before it stops
(DRAIN seconds at most).

This is uvicorn's own Multiprocess supervisor, which cannot be reused as it is: it takes one config, so one app and
one TLS setting, where the main listener is plain and the secure and pci listeners may be TLS.

Per worker: the engine and its connections, the requests and connections in progress (--max-requests,
--max-connections), the large bodies read at once; and, without --limits-storage, the failed-credential and
webhook-test counts, each limit divided by N (backend/core/clients.py). On SQLite one deliverer runs, in the worker
that holds the lease; on PostgreSQL every worker delivers, each destination claimed by one worker at a time, and the
lease's holder alone runs the sweeps and the prune.
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
import socket
import time
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import TYPE_CHECKING

from backend.core.config import Config
from backend.core.errors import CannotStart
from backend.engine import Engine

if TYPE_CHECKING:
    from backend.http.server import Listeners

log = logging.getLogger("frontdesk.workers")
DRAIN = 30.0  # seconds a worker has to finish what it is answering once told to stop
RESTART_EVERY = 1.0  # seconds at least between two starts of one worker: a worker that cannot start is no loop


def supervise(target: str | Path, listeners: Listeners, config: Config) -> None:
    """Run `config.workers` workers over the database at `target` until SIGTERM or SIGINT."""
    first = Engine.open(target, config)  # refused here, in one line, before any socket or worker
    location = first.location
    first.close()
    ports = (listeners.port, listeners.secure_port, listeners.pci_port)
    bound = [_bound(listeners.host, port, config.workers) for port in ports]
    sockets = {number: [each[number] for each in bound] for number in range(config.workers)}
    context = multiprocessing.get_context("spawn")
    stopping = False

    def start(number: int) -> BaseProcess:
        process = context.Process(target=_work, args=(target, listeners, config, sockets[number]),
                                  name=f"worker-{number}", daemon=False)
        process.start()
        return process

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    workers = {number: start(number) for number in range(config.workers)}
    started = {number: time.monotonic() for number in workers}
    print(f"Frontdesk serving {location} with {config.workers} workers: {listeners.described()}",
          flush=True)
    while not stopping:
        time.sleep(0.2)
        for number, process in list(workers.items()):
            if process.is_alive() or stopping or time.monotonic() - started[number] < RESTART_EVERY:
                continue
            log.warning("worker %d (pid %s) ended with %s; starting it again", number, process.pid, process.exitcode)
            workers[number], started[number] = start(number), time.monotonic()
    for process in workers.values():
        if process.is_alive():
            process.terminate()  # SIGTERM: it drains
    deadline = time.monotonic() + DRAIN
    for process in workers.values():
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join()
    for sock in (sock for bound in sockets.values() for sock in bound):
        sock.close()


def _bound(host: str, port: int, count: int) -> list[socket.socket]:
    """`count` sockets listening on one port. Bound plainly first, so that a port another process listens on (with
    SO_REUSEPORT too: another Frontdesk) is refused rather than shared."""
    _socket(host, port, reuse_port=False).close()
    return [_socket(host, port, reuse_port=True) for _ in range(count)]


def _socket(host: str, port: int, *, reuse_port: bool) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP said: asyncio sets TCP_NODELAY only on connections of a socket that says it is TCP, and without it
    # an answer written in two parts waited for the client's delayed acknowledgement (40 ms a request).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, int(reuse_port))
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise CannotStart(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    if reuse_port:
        sock.listen(2048)
        sock.set_inheritable(True)
    return sock


def _work(target: str | Path, listeners: Listeners, config: Config, sockets: list[socket.socket]) -> None:
    """One worker: an engine of its own, the three listeners on the supervisor's sockets."""
    from backend.http.server import run_listeners

    run_listeners(Engine.open(target, config), listeners, sockets)
