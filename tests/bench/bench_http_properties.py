"""GET /api/v1/properties over real HTTP: requests per second, against a bare Starlette route.

Figure: the Frontdesk main app's rps over the rps of a bare Starlette app whose one route returns the
same JSON (a JSONResponse of the same document), both on uvicorn, one worker, 127.0.0.1, in a process of
its own, and loaded the same way in the same run. Frontdesk is served as `frontdesk serve` serves a
listener (backend/http/server.py `listener_config`: the guard, the guarded h11 protocol); the bare app as
`uvicorn.run` serves it. Aim: ≥ 0.5.

The load generator is asyncio over raw keep-alive sockets with one pre-built request: lean enough that
on a small machine the servers, not the client, set the pace. Rounds alternate between the two apps,
so that drift of the machine hits both alike.

    .venv/bin/python tests/bench/bench_http_properties.py
"""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from backend.engine import Engine
from backend.http.server import listener_config
from backend.tools.demo import load_demo

HOST = "127.0.0.1"
PATH = "/api/v1/properties"
CONNECTIONS = 16
WARMUP_S = 1.0
ROUND_S = 1.0
ROUNDS = 5  # per app, alternating: 5 s of load each
AIM = 0.5


# --- the servers (each in a child process of its own: `bench_http_properties.py serve KIND PORT ARG`) ---


def serve(kind: str, port: int, arg: str) -> None:
    if kind == "frontdesk":
        uvicorn.Server(listener_config(Engine.open(arg), "main", HOST, port, log_level="warning")).run()
    else:
        uvicorn.run(bare_app(Path(arg)), host=HOST, port=port, log_level="warning", access_log=False)


def bare_app(body_path: Path) -> Starlette:
    document = json.loads(body_path.read_bytes())

    async def properties(_: Request) -> JSONResponse:
        return JSONResponse(document)

    return Starlette(routes=[Route(PATH, properties)])


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


@contextmanager
def server(kind: str, arg: str) -> Iterator[int]:
    port = free_port()
    process = subprocess.Popen([sys.executable, __file__, "serve", kind, str(port), arg])
    try:
        _wait_for(port, process)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_for(port: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the {port} server exited with {process.returncode}")
        try:
            socket.create_connection((HOST, port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"no server on port {port}")


# --- the load ---------------------------------------------------------------------------------------


async def _connection(port: int, request: bytes, stop_at: float) -> int:
    """Requests answered 200 on one keep-alive connection until `stop_at`; anything else is an error."""
    reader, writer = await asyncio.open_connection(HOST, port)
    done = 0
    try:
        while time.monotonic() < stop_at:
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            if not head.startswith(b"HTTP/1.1 200 "):
                raise RuntimeError(head.decode(errors="replace"))
            length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length:"))
            await reader.readexactly(length)
            done += 1
    finally:
        writer.close()
    return done


async def _load(port: int, request: bytes, seconds: float) -> float:
    start = time.monotonic()
    counts = await asyncio.gather(*(_connection(port, request, start + seconds) for _ in range(CONNECTIONS)))
    return sum(counts) / (time.monotonic() - start)


def rps(port: int, token: str, seconds: float) -> float:
    request = (f"GET {PATH} HTTP/1.1\r\nHost: {HOST}:{port}\r\nAuthorization: Bearer {token}\r\n"
               "Accept: application/json\r\n\r\n").encode()
    return asyncio.run(_load(port, request, seconds))


# --- the run ----------------------------------------------------------------------------------------


def demo_database(folder: Path) -> tuple[Path, str]:
    path = folder / "frontdesk.db"
    engine = Engine.open(path)
    token = load_demo(engine).token
    engine.store.close()
    return path, token


def measure(ports: dict[str, int], token: str) -> dict[str, float]:
    """Mean rps of each app over alternating rounds, after a warm-up of each."""
    for port in ports.values():
        rps(port, token, WARMUP_S)
    means = dict.fromkeys(ports, 0.0)
    for _ in range(ROUNDS):
        for name, port in ports.items():
            means[name] += rps(port, token, ROUND_S) / ROUNDS
    return means


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db_path, token = demo_database(folder)
        with server("frontdesk", str(db_path)) as frontdesk:
            page = httpx.get(f"http://{HOST}:{frontdesk}{PATH}", headers={"Authorization": f"Bearer {token}"})
            page.raise_for_status()
            (folder / "properties.json").write_bytes(page.content)
            with server("bare", str(folder / "properties.json")) as bare:
                means = measure({"frontdesk": frontdesk, "bare": bare}, token)
    ratio = means["frontdesk"] / means["bare"]
    print(f"GET {PATH}: {len(page.json()['data'])} properties, {len(page.content):,} bytes; {CONNECTIONS} keep-alive "
          f"connections; {ROUNDS} alternating rounds of {ROUND_S:g} s per app")
    print(f"SUMMARY GET {PATH} over HTTP: frontdesk {means['frontdesk']:,.0f} rps, bare Starlette "
          f"{means['bare']:,.0f} rps, ratio {ratio:.2f} (aim >= {AIM}: {'within aim' if ratio >= AIM else 'BELOW AIM'})")


if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        serve(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        main()
