"""Frontdesk past one process and one store: `frontdesk serve` on SQLite and on PostgreSQL, with one worker and two,
loaded over real HTTP by wrk (Debian's package: `apt-get install wrk`) in the same run.

Figures, each a ratio against something measured in the same run:
- reads: requests/s of GET /api/v1/properties (the demo, 8 properties) and of shopping `rooms` (one property of
  200 rate plans, a 7-night stay) with --workers 2 over --workers 1, on each store. Aim: >= 1.7x.
- PostgreSQL against SQLite: p50 latency of those reads and of push_booking, one connection, --workers 1. Aim:
  <= 1.5x.
- push_booking across 64 properties from 16 connections, --workers 2, on each store (bookings/s, p99).
- writers in line: push_booking and one-night ARI writes (POST /api/v1/restrictions) at 1, 8, 32 and 64
  connections, --workers 1: throughput and p99, against a bare writer taking one lock (a Starlette route that
  runs one durable UPDATE in a transaction, on the same store's database, on uvicorn). Aim: p99 < 100 ms at 32
  connections, throughput >= 0.5x the bare writer's.

PostgreSQL is a throwaway cluster of Debian's server (tests/postgres_cluster.py) with commits durable (fsync and
synchronous_commit on, as a production server keeps them); SQLite commits with synchronous = FULL, as shipped.
Each load runs LOAD_S seconds after WARM_S of warm-up. The machine's cores are shared by wrk and the servers:
read the ratios, not the absolute numbers.

    .venv/bin/python tests/bench/bench_scale_out.py
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx
from bench_shopping_rooms import build_property

from backend.core.config import Config
from backend.engine import Engine
from backend.tools.demo import load_demo
from tests.conftest import CONTACT, free_port
from tests.postgres_cluster import Cluster, server_bin

WARM_S, LOAD_S = 2, 5
SHOPS = 64
CONNECTIONS = (1, 8, 32, 64)
DURABLE = {"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on"}


# --- the databases --------------------------------------------------------------------------------------------


def build(target: str | Path, keys: Path) -> dict:
    """The demo, a property of 200 plans sold on OpenShopping, and 64 small properties sold there too."""
    engine = Engine.open(target, Config(keys_path=keys))
    token = load_demo(engine).token
    op = engine.identity.operator()
    today = datetime.now(UTC).date()
    grand, _, plans = build_property(engine, op, today, derived=False)
    shops = [shop(engine, op, n, today) for n in range(SHOPS)]
    engine.channels.create(op, {"title": "BenchShop", "channel": "OpenShopping",
                                "properties": [grand, *(s[0] for s in shops)],
                                "rate_plans": [{"rate_plan_id": p} for p in [*plans, *(s[2] for s in shops)]]})
    writer = engine.identity.add_token(op.email).token  # the operator's: the shops are in its group, not the demo's
    engine.close()
    return {"token": token, "writer": writer, "grand": grand, "shops": shops, "today": today.isoformat()}


def shop(engine: Engine, op, n: int, today: date) -> tuple[str, str, str]:
    """A small property: one room type of 10,000 rooms and one plan, sold and priced for 400 days; its ids."""
    prop = engine.properties.create(op, {"title": f"Shop {n:02d}", "currency": "EUR", **CONTACT,
                                         "settings": {"state_length": 400}})["id"]
    room = engine.inventory.room_types.create(op, {"property_id": prop, "title": "Double",
                                                   "count_of_rooms": 10_000, "occ_adults": 2})["id"]
    plan = engine.inventory.rate_plans.create(op, {"property_id": prop, "room_type_id": room, "title": "Flex",
                                                   "options": [{"occupancy": 2, "rate": "100",
                                                                "is_primary": True}]})["id"]
    first, last = today.isoformat(), (today + timedelta(days=399)).isoformat()
    engine.inventory.ari.set_availability(op, [{"property_id": prop, "room_type_id": room, "date_from": first,
                                                "date_to": last, "availability": 10_000}])
    engine.inventory.ari.set_restrictions(op, [{"property_id": prop, "rate_plan_id": plan, "date_from": first,
                                                "date_to": last, "rate": "120.00"}])
    return prop, room, plan


# --- servers --------------------------------------------------------------------------------------------------


@contextmanager
def frontdesk(target: str | Path, keys: Path, workers: int, env: dict[str, str] | None = None,
              options: tuple[str, ...] = ()):
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "console", "serve", "--db", str(target), "--keys", str(keys),
                                "--workers", str(workers), "--port", str(port), "--secure-port", str(free_port()),
                                "--pci-port", str(free_port()), "--failed-auth-per-minute", "100000",
                                "--max-requests", "1000", *options],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, **(env or {})})
    try:
        _up(f"http://127.0.0.1:{port}/api/v1/health")
        yield f"http://127.0.0.1:{port}"
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(60)


BARE = '''
import sys, threading, sqlite3
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route
import uvicorn
target, port = sys.argv[1], int(sys.argv[2])
lock, local = threading.Lock(), threading.local()
def connection():
    if not hasattr(local, "conn"):
        if target.startswith("postgresql://"):
            import psycopg
            local.conn = psycopg.connect(target, autocommit=True)
        else:
            local.conn = sqlite3.connect(target, isolation_level=None, check_same_thread=False)
            local.conn.execute("PRAGMA journal_mode = WAL"); local.conn.execute("PRAGMA synchronous = FULL")
    return local.conn
def write(request):
    conn = connection()
    with lock:
        conn.execute("BEGIN")
        conn.execute("UPDATE groups SET title = title WHERE id = (SELECT min(id) FROM groups)")
        conn.execute("COMMIT")
    return JSONResponse({"data": {"ok": True}}, status_code=201)
uvicorn.run(Starlette(routes=[Route("/write", write, methods=["POST"])]), host="127.0.0.1", port=port,
            log_level="warning")
'''


@contextmanager
def bare_writer(target: str | Path):
    port = free_port()
    process = subprocess.Popen([sys.executable, "-c", BARE, str(target), str(port)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        _up(f"http://127.0.0.1:{port}/write", method="POST")
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(30)


def _up(url: str, method: str = "GET") -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.request(method, url, timeout=5).status_code < 500:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{url} did not come up")
        time.sleep(0.2)


# --- load -----------------------------------------------------------------------------------------------------


# Each wrk run (its warm-up too) sends reservations of its own: Lua's random numbers start alike in every run unless
# seeded, and a reservation sent again is answered as the one already taken, without its writes.
PUSHES = '''
local shops, day, n = {SHOPS}, "{DAY}", 0
setup = function(thread) counter = (counter or 0) + 1; thread:set("id", counter) end
init = function(args) math.randomseed(os.time() * 16 + id) end
request = function()
  n = n + 1
  local shop = shops[(n * 7 + id) % #shops + 1]
  local body = '{{"booking": {{"status": "new", "reservation_id": "W' .. id .. 'x' .. n .. 'y' .. math.random(1e9) ..
    '", "arrival_date": "' .. day .. '", "departure_date": "{NEXT}", "currency": "EUR", ' ..
    '"customer": {{"surname": "Doe"}}, "rooms": [{{"room_type_code": "' .. shop[2] .. '", "rate_plan_code": "' ..
    shop[3] .. '", "occupancy": {{"adults": 2}}}}]}}}}'
  return wrk.format("POST", "/api/v1/meta/BenchShop/" .. shop[1] .. "/push_booking",
                    {{["Content-Type"] = "application/json"}}, body)
end
'''

RATES = '''
local shops, token, n = {SHOPS}, "{TOKEN}", 0
setup = function(thread) counter = (counter or 0) + 1; thread:set("id", counter) end
request = function()
  n = n + 1
  local shop = shops[(n * 5 + id) % #shops + 1]
  local body = '{{"values": [{{"property_id": "' .. shop[1] .. '", "rate_plan_id": "' .. shop[3] ..
    '", "date": "{DAY}", "rate": "' .. (100 + n % 50) .. '.00"}}]}}'
  return wrk.format("POST", "/api/v1/restrictions", {{["Content-Type"] = "application/json",
                    ["Authorization"] = "Bearer " .. token}}, body)
end
'''


def wrk(url: str, connections: int, *, script: str | None = None, headers: dict[str, str] | None = None) -> dict:
    """wrk's figures for `url`: requests/s, p50 and p99 in ms, and the answers that were not 2xx."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as lua:
        lua.write(script or "")
    options = ["-t", str(min(2, connections)), "-c", str(connections), "--latency", "--timeout", "30s"]
    options += [item for name, value in (headers or {}).items() for item in ("-H", f"{name}: {value}")]
    if script:
        options += ["-s", lua.name]
    subprocess.run(["wrk", *options, "-d", f"{WARM_S}s", url], capture_output=True, check=True)
    out = subprocess.run(["wrk", *options, "-d", f"{LOAD_S}s", url], capture_output=True, text=True,
                         check=True).stdout
    os.unlink(lua.name)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1]),
            "p50": _ms(re.search(r"50%\s+([\d.]+\w+)", out)[1]), "p99": _ms(re.search(r"99%\s+([\d.]+\w+)", out)[1]),
            "errors": int(m[1]) if (m := re.search(r"Non-2xx or 3xx responses: (\d+)", out)) else 0}


def _ms(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(\w+)", text).groups()
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}[unit]


def lua_shops(built: dict) -> str:
    return "{" + ", ".join(f'{{"{p}", "{r}", "{plan}"}}' for p, r, plan in built["shops"]) + "}"


def pushes(built: dict) -> str:
    day = datetime.fromisoformat(built["today"]) + timedelta(days=3)
    return PUSHES.format(SHOPS=lua_shops(built), DAY=day.date().isoformat(),
                         NEXT=(day + timedelta(days=1)).date().isoformat())


def rates(built: dict) -> str:
    day = (datetime.fromisoformat(built["today"]) + timedelta(days=5)).date().isoformat()
    return RATES.format(SHOPS=lua_shops(built), TOKEN=built["writer"], DAY=day)


def rooms_url(url: str, built: dict) -> str:
    """Shopping `rooms` of the property of 200 plans, a 7-night stay in 10 days."""
    checkin = datetime.fromisoformat(built["today"]) + timedelta(days=10)
    return (f"{url}/api/v1/meta/BenchShop/{built['grand']}/rooms?checkin_date={checkin.date().isoformat()}"
            f"&checkout_date={(checkin + timedelta(days=7)).date().isoformat()}&adults=2")


def reads(url: str, built: dict, connections: int) -> dict[str, dict]:
    return {"properties": wrk(f"{url}/api/v1/properties", connections,
                              headers={"Authorization": f"Bearer {built['token']}"}),
            "rooms": wrk(rooms_url(url, built), connections)}


# --- the run --------------------------------------------------------------------------------------------------


def main() -> None:
    if shutil.which("wrk") is None or server_bin() is None:
        sys.exit("needs wrk and Debian's PostgreSQL server: apt-get install wrk postgresql")
    folder = Path(tempfile.mkdtemp(prefix="bench-scale-"))
    cluster = Cluster(server_bin(), settings=DURABLE).start()
    results: dict[str, dict] = {}
    try:
        stores = {"sqlite": folder / "bench.db", "postgresql": cluster.empty("bench")}
        for store, target in stores.items():
            keys = folder / f"{store}.keys"
            built = build(target, keys)
            figures: dict = {}
            for workers in (1, 2):
                with frontdesk(target, keys, workers) as url:
                    figures[f"reads w{workers}"] = reads(url, built, 16)
                    if workers == 1:
                        figures["latency"] = {**reads(url, built, 1),
                                              "push": wrk(f"{url}/", 1, script=pushes(built))}
                        for n in CONNECTIONS:
                            figures[f"push c{n}"] = wrk(f"{url}/", n, script=pushes(built))
                            figures[f"ari c{n}"] = wrk(f"{url}/", n, script=rates(built))
                    else:
                        figures["push 64 properties"] = wrk(f"{url}/", 16, script=pushes(built))
            with bare_writer(target) as url:
                for n in CONNECTIONS:
                    figures[f"bare c{n}"] = wrk(f"{url}/write", n, script='wrk.method = "POST"')
            results[store] = figures
    finally:
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)
    report(results)


def report(results: dict[str, dict]) -> None:
    for store, f in results.items():
        print(f"== {store}")
        for read in ("properties", "rooms"):
            one, two = f["reads w1"][read]["rps"], f["reads w2"][read]["rps"]
            print(f"  {read}: {one:,.0f} req/s with 1 worker, {two:,.0f} with 2: {two / one:.2f}x (aim >= 1.7x)")
        push = f["push 64 properties"]
        print(f"  push_booking over 64 properties, 16 connections, 2 workers: {push['rps']:,.0f}/s, "
              f"p99 {push['p99']:.0f} ms, {push['errors']} refused")
        for n in CONNECTIONS:
            bare = f[f"bare c{n}"]
            for kind in ("push", "ari"):
                got = f[f"{kind} c{n}"]
                print(f"  {kind} at {n:2d} connections: {got['rps']:,.0f}/s p99 {got['p99']:.0f} ms; bare writer "
                      f"{bare['rps']:,.0f}/s p99 {bare['p99']:.0f} ms: {got['rps'] / bare['rps']:.2f}x"
                      + ("  (aim p99 < 100 ms, >= 0.5x)" if n == 32 else "")
                      + (f"  ({got['errors']} REFUSED: not a figure of writes)" if got["errors"] else ""))
    sqlite, pg = results["sqlite"]["latency"], results["postgresql"]["latency"]
    for kind in ("properties", "rooms", "push"):
        print(f"p50 of {kind}, one connection: PostgreSQL {pg[kind]['p50']:.1f} ms, SQLite {sqlite[kind]['p50']:.1f} "
              f"ms: {pg[kind]['p50'] / sqlite[kind]['p50']:.2f}x (aim <= 1.5x)")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
