"""Console cold start: from process start to the first page of the properties list painted,
10,000 properties in the database.

Figure: the median of 5 cold starts of the real `frontdesk --db PATH` command, in a fresh process
on a pseudo-terminal of 120x40, over the median of 5 cold starts of a floor measured the same way
in the same run: a bare Textual app showing one DataTable of 50 rows. Aim: under 1.5 s.

The console stamps the moment its first page is painted into the file named by
$FRONTDESK_BENCH_FIRST_PAINT and exits (see console/app.py); the floor does the same.

    .venv/bin/python tests/bench/bench_console_start.py
"""

from __future__ import annotations

import fcntl
import os
import pty
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path

from backend.engine import Engine
from storage import new_id

ROOT = Path(__file__).resolve().parents[2]
TOTAL = 10_000
RUNS = 5
AIM_S = 1.5
COLUMNS, ROWS = 120, 40
MARKER_ENV = "FRONTDESK_BENCH_FIRST_PAINT"

FLOOR_APP = '''
import os, time
from textual.app import App
from textual.widgets import DataTable

class Floor(App):
    def compose(self):
        yield DataTable()

    def on_mount(self):
        table = self.query_one(DataTable)
        table.add_columns("Title", "Type", "City", "Country", "Currency")
        for n in range(50):
            table.add_row(f"Property {n:04d}", "hotel", "London", "GB", "GBP")
        self.call_after_refresh(self.painted)

    def painted(self):
        with open(os.environ["FRONTDESK_BENCH_FIRST_PAINT"], "w") as marker:
            marker.write(repr(time.time()))
        self.exit()

Floor().run()
'''


def build(path: Path) -> None:
    """TOTAL properties: a few made by the engine, the rest copied from them row by row in SQL."""
    engine = Engine.open(path)
    actor = engine.identity.operator()
    templates = [engine.properties.create(actor, {
        "title": title, "currency": "EUR", "property_type": "hotel", "city": "London", "country": "GB",
        "settings": {"cut_off_time": "18:00:00"}, "content": {"description": "A bench property."}})["id"]
        for title in ("Hotel Edelweiss", "Casa do Mar", "Pension Alpenrose", "Riad Yasmine", "Ryokan Hanabi")]
    copies = [(new_id(), f"Property {n:05d}", templates[n % len(templates)]) for n in range(TOTAL - len(templates))]
    with engine.store.transaction() as conn:
        rest = ", ".join(r[1] for r in conn.execute("PRAGMA table_info(properties)") if r[1] not in ("id", "title"))
        conn.executemany(f"INSERT INTO properties (id, title, {rest}) SELECT ?1, ?2, {rest} FROM properties "
                         "WHERE id = ?3", copies)
    engine.store.conn.execute("ANALYZE")
    engine.store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    engine.store.close()


def cold_start(command: list[str], marker: Path) -> float:
    """Seconds from spawning `command` on a fresh pseudo-terminal to the time it stamps in `marker`."""
    marker.unlink(missing_ok=True)
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    env = {**os.environ, MARKER_ENV: str(marker), "TERM": "xterm-256color"}
    drain = threading.Thread(target=_drain, args=(leader,), daemon=True)
    drain.start()
    started = time.time()
    process = subprocess.Popen(command, stdin=follower, stdout=follower, stderr=follower, env=env, cwd=ROOT,
                               start_new_session=True)
    try:
        process.wait(timeout=60)
    finally:
        os.close(follower)
        if process.poll() is None:
            process.kill()
    if not marker.exists():
        raise RuntimeError(f"{command[0]} exited ({process.returncode}) without painting its first page")
    return float(marker.read_text()) - started


def _drain(fd: int) -> None:
    """Read whatever the app writes to its terminal, so that it never blocks on a full buffer."""
    try:
        while os.read(fd, 65536):
            pass
    except OSError:
        pass  # the terminal closed
    finally:
        os.close(fd)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        db, floor_script, marker = Path(folder) / "bench.db", Path(folder) / "floor.py", Path(folder) / "painted"
        build(db)
        floor_script.write_text(FLOOR_APP)
        frontdesk = [str(Path(sys.executable).with_name("frontdesk")), "--db", str(db)]
        floor = [sys.executable, str(floor_script)]
        cold_start(floor, marker)  # warm the OS file cache for both, as a user's second start would be
        cold_start(frontdesk, marker)
        samples: dict[str, list[float]] = {"frontdesk": [], "floor": []}
        for _ in range(RUNS):  # interleaved, so that drift of the machine hits both alike
            samples["floor"].append(cold_start(floor, marker))
            samples["frontdesk"].append(cold_start(frontdesk, marker))
        ours, base = statistics.median(samples["frontdesk"]), statistics.median(samples["floor"])
        runs = ", ".join(f"{s:.2f}" for s in samples["frontdesk"])
        print(f"{TOTAL:,} properties; cold start to the first painted page, {RUNS} runs each")
        print(f"  frontdesk: median {ours:.3f} s ({runs})")
        print(f"  floor (bare Textual app, DataTable of 50 rows): median {base:.3f} s")
        verdict = "within aim" if ours < AIM_S else "ABOVE AIM"
        print(f"SUMMARY console cold start: {ours:.2f} s, {ours / base:.2f}x the floor "
              f"(aim < {AIM_S} s: {verdict})")


if __name__ == "__main__":
    main()
