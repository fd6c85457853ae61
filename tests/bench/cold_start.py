"""Cold starts of console commands on a pseudo-terminal, shared by the console benchmarks. A bench
script imports it as `cold_start`: run as a script, its own folder is on the import path.

The measured command is `frontdesk` as its console script runs it, with one hook of the bench's own: when an
area's first page is painted, it stamps the moment into the file named by $FRONTDESK_BENCH_FIRST_PAINT and
exits. The floor, a bare Textual app showing one DataTable of 50 rows, does the same.
"""

from __future__ import annotations

import fcntl
import os
import pty
import statistics
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
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

# `frontdesk` itself (console.cli.main), stamping the paint that follows the first page an area loads.
STAMPED_FRONTDESK = '''
import os, sys, time
from console.cli import main
from console.kit.area import AreaScreen

def stamp(app):
    with open(os.environ["FRONTDESK_BENCH_FIRST_PAINT"], "w") as marker:
        marker.write(repr(time.time()))
    app.exit()

loaded = AreaScreen.on_page_loaded

def on_page_loaded(self, message):
    loaded(self, message)
    self.call_after_refresh(stamp, self.app)

AreaScreen.on_page_loaded = on_page_loaded
sys.argv[0] = "frontdesk"
main()
'''


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


def frontdesk_against_floor(db: Path, folder: Path, runs: int) -> tuple[list[float], list[float]]:
    """Cold starts of `frontdesk --db db` and of the floor, `runs` each, in seconds."""
    floor_script, marker = folder / "floor.py", folder / "painted"
    floor_script.write_text(FLOOR_APP)
    frontdesk = [sys.executable, "-c", STAMPED_FRONTDESK, "--db", str(db)]
    floor = [sys.executable, str(floor_script)]
    cold_start(floor, marker)  # warm the OS file cache for both, as a user's second start would be
    cold_start(frontdesk, marker)
    ours: list[float] = []
    base: list[float] = []
    for _ in range(runs):  # interleaved, so that drift of the machine hits both alike
        base.append(cold_start(floor, marker))
        ours.append(cold_start(frontdesk, marker))
    return ours, base


def report(what: str, ours: list[float], base: list[float], aim_s: float) -> None:
    mine, floor = statistics.median(ours), statistics.median(base)
    print(f"  frontdesk: median {mine:.3f} s ({', '.join(f'{s:.2f}' for s in ours)})")
    print(f"  floor (bare Textual app, DataTable of 50 rows): median {floor:.3f} s")
    verdict = "within aim" if mine < aim_s else "ABOVE AIM"
    print(f"SUMMARY {what}: {mine:.2f} s, {mine / floor:.2f}x the floor (aim < {aim_s} s: {verdict})")
