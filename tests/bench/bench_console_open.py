"""How long every screen and dialog of the console takes to open, against an empty screen in the same run.

For each screen: the time from its key reaching the app (pilot.press) to the last frame painted once the screen
has settled with its data shown (every worker done and its messages handled, as tests/console/helpers.settle
waits for them). The floor is the same app pushing an empty `Screen` and settling, measured the same way in the
same process. Aim: every screen under 0.3 s.

First opens are cold: each round runs every area in a process of its own (this script started again with
`--session NAME`), on a fresh copy of one database of demo data, in the real console (`SteadyApp`, 120x40) started
on the inbox as `frontdesk` starts. An area's screens are reached as staff reach them, so the first open of an
editor is the first time its own modules are imported (and the area's, reached before it, are not). A later open
is the same screen closed and opened again (an area: switched away from and back to).

    .venv/bin/python tests/bench/bench_console_open.py [ROUNDS]      # default 5 rounds; prints medians
"""

from __future__ import annotations

import asyncio
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from textual.pilot import Pilot
from textual.screen import Screen

from backend.core.config import Config
from backend.engine import Engine
from backend.tools.demo import load_demo
from tests.console.bookings_scene import ARRIVING, stage_today
from tests.console.helpers import SteadyApp, frozen_clock, settle
from tests.console.outbox_scene import stage_events_out

SIZE = (120, 40)
ROUNDS = 5
AIM_S = 0.3
FLOORS = 5  # empty screens pushed per process

Steps = Callable[[Pilot], Awaitable[None]]


async def nothing(_pilot: Pilot) -> None:
    pass


@dataclass
class Opening:
    """A screen opened by `key` once `before` has brought the console to where staff press it; `close` returns
    there, so that it can be opened again. An area stays open after its second visit, for the openings in it."""

    name: str
    key: str
    close: tuple[str, ...] = ("escape",)
    before: Steps = nothing
    stays: bool = False


@dataclass
class Session:
    """The openings of one process, in order, over the demo data with `stage` done first."""

    openings: list[Opening]
    stage: Callable[[Engine], None] = lambda _engine: None
    start: str = "inbox"


# --- steps that bring the console to a screen ---------------------------------------------------------------


def on_row(title: str, key: str = "title") -> Steps:
    """The cursor on the row of the list on top whose `key` is `title`."""

    async def steps(pilot: Pilot) -> None:
        screen = pilot.app.screen
        row = next(row_id for row_id, row in screen.rows.items() if row[key] == title)
        screen.table.move_cursor(row=screen.table.get_row_index(row))
        await settle(pilot)

    return steps


def then(*steps: Steps) -> Steps:
    async def run(pilot: Pilot) -> None:
        for step in steps:
            await step(pilot)

    return run


def press(*keys: str) -> Steps:
    async def steps(pilot: Pilot) -> None:
        await pilot.press(*keys)
        await settle(pilot)

    return steps


async def reply_box(pilot: Pilot) -> None:
    """Emma Clarke's conversation open, the focus in its reply box."""
    screen = pilot.app.screen
    screen.table.focus()
    await on_row("Emma Clarke")(pilot)
    await pilot.press("enter")
    await settle(pilot)


async def edelweiss_inventory(pilot: Pilot) -> None:
    screen = pilot.app.screen
    picker = screen.query_one("#inventory-property")
    picker.value = next(p["id"] for p in screen.data.properties if p["title"] == "Hotel Edelweiss")
    await settle(pilot)
    screen.table.focus()


def save_replies(engine: Engine) -> None:
    """Two saved replies, so that the picker and the manager have rows."""
    operator = engine.identity.operator()
    edelweiss = engine.store.scalar("SELECT id FROM properties WHERE title = 'Hotel Edelweiss'")
    for title, message in (("Breakfast", "Breakfast at {property} is served from 7:00."),
                           ("Parking", "Parking at {property} is free for guests.")):
        engine.message_templates.create(operator, {"title": title, "message": message, "property_id": edelweiss})


def make_rule(engine: Engine) -> None:
    """A rule sending the demo's "Check-in times" two days before arrival, so that the rules list has a row."""
    operator = engine.identity.operator()
    edelweiss = engine.store.scalar("SELECT id FROM properties WHERE title = 'Hotel Edelweiss'")
    reply = engine.store.scalar("SELECT id FROM message_templates WHERE title = 'Check-in times'")
    engine.message_rules.create(operator, {"title": "Arrival details", "message_template_id": reply,
                                           "trigger": "before_arrival", "days": 2, "send_at": "10:00",
                                           "property_id": edelweiss})


SESSIONS: dict[str, Session] = {
    "inbox": Session([
        Opening("help", "f1"),
        Opening("command palette", "ctrl+p"),
        Opening("saved replies manager", "t"),
        Opening("saved reply editor", "n", before=press("t")),
        Opening("assignment picker", "a", before=then(press("escape", "escape"), on_row("Emma Clarke"))),
        Opening("template picker", "ctrl+r", before=reply_box),
        Opening("attach a file", "ctrl+o"),
        Opening("Inbox (area)", "0", close=("1",), before=press("escape", "escape", "1"), stays=True),
    ], stage=save_replies),
    "message rules": Session([
        Opening("message rules", "R"),
        Opening("message rule editor", "n", before=press("R")),
        Opening("message rule preview", "v"),
    ], stage=make_rule),
    "properties": Session([
        Opening("Properties (area)", "1", close=("0",), stays=True),
        Opening("property editor", "e", before=on_row("Hotel Edelweiss")),
        Opening("new property editor", "n"),
        Opening("property channels", "c"),
        Opening("delete question", "d", close=("n",)),
    ]),
    "channels": Session([
        Opening("Channels (area)", "2", close=("0",), stays=True),
        Opening("channel dialog", "e", before=on_row("Booking.com")),
        Opening("new channel dialog", "n"),
        Opening("sync log", "l"),
        Opening("webhooks", "w"),
        Opening("webhook log", "l", before=then(press("w"), on_row("https://crm.example.org/events", "callback_url"))),
    ], stage=stage_events_out),
    "inventory": Session([
        Opening("Inventory (area)", "3", close=("0",), stays=True),
        Opening("room type editor", "e", before=edelweiss_inventory),
        Opening("rate plans tab", "p", close=("r",)),
        Opening("rate plan editor", "e", before=press("p")),
        Opening("rate plan channels", "m"),
        Opening("calendar tab", "c", close=("p",)),
        Opening("range dialog", "e", before=press("c")),
        Opening("jump prompt", "j"),
    ]),
    "shopping": Session([
        Opening("Shopping (area)", "4", close=("0",), stays=True),
        Opening("shopping property page", "enter", before=on_row("Casa do Mar")),
        Opening("book-a-stay dialog", "b", before=press("enter")),
    ]),
    "bookings": Session([
        Opening("Bookings (area)", "5", close=("0",), stays=True),
        Opening("booking page", "enter", close=("escape",), before=on_row("BDC-40041187", "unique_id")),
        Opening("no-show dialog", "n", before=then(on_row(ARRIVING[1], "unique_id"), press("enter"))),
    ], stage=stage_today),
    "tokenisation": Session([
        Opening("Tokenisation (area)", "6", close=("0",), stays=True),
        Opening("tokenisation profile editor", "e"),
        Opening("new profile editor", "n"),
        Opening("tester tab", "t", close=("p",)),
        Opening("vault browser tab", "v", close=("p",)),
    ]),
    "reviews": Session([
        Opening("Reviews (area)", "7", close=("0",), stays=True),
        Opening("property scores", "s", before=on_row("Marco Rossi", "guest_name")),
        Opening("review saved reply picker", "ctrl+r", before=press("r")),
        Opening("guest review form", "g", before=then(press("escape"), on_row("Léa Dubois", "guest_name"))),
    ], stage=save_replies),
}


# --- one process: the openings of a session ---------------------------------------------------------------


class Paints:
    """When each screen last put out a frame (the compositor's refresh, the one place that knows)."""

    def __init__(self) -> None:
        self.last: dict[int, float] = {}
        refresh = Screen._compositor_refresh
        last = self.last

        def stamped(screen: Screen) -> None:
            refresh(screen)
            last[id(screen)] = time.perf_counter()

        Screen._compositor_refresh = stamped


async def timed(pilot: Pilot, paints: Paints, keys: tuple[str, ...], open_: Callable[[], Awaitable[None]] | None = None
                ) -> float:
    """Seconds from the key to the last frame of the screen then on top, settled."""
    began = time.perf_counter()
    if open_ is None:
        await pilot.press(*keys)
    else:
        await open_()
    await settle(pilot)
    await pilot.pause()  # the frame that follows the last message
    painted = paints.last.get(id(pilot.app.screen), began)
    return max(painted - began, 0.0)


async def run_session(name: str, db: Path) -> dict[str, dict]:
    session = SESSIONS[name]
    engine = Engine.open(db, Config(clock=frozen_clock, fetch_private_addresses=True))
    session.stage(engine)
    paints = Paints()
    figures: dict[str, list[float]] = {}
    screens: dict[str, str] = {}
    app = SteadyApp(engine, mode=session.start)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        floor = []
        for _ in range(FLOORS):
            floor.append(await timed(pilot, paints, (), lambda: app.push_screen(Screen())))
            await app.pop_screen()
            await settle(pilot)
        figures["floor"] = floor
        for opening in session.openings:
            await opening.before(pilot)
            first = await timed(pilot, paints, (opening.key,))
            opened = type(app.screen).__name__
            await pilot.press(*opening.close)
            await settle(pilot)
            later = await timed(pilot, paints, (opening.key,))
            if type(app.screen).__name__ != opened:
                raise RuntimeError(f"{opening.name}: {opened} the first time, {type(app.screen).__name__} then")
            if not opening.stays:
                await pilot.press(*opening.close)
                await settle(pilot)
            figures[opening.name] = [first, later]
            screens[opening.name] = opened
    engine.store.close()
    return {"figures": figures, "screens": screens}


# --- the rounds -------------------------------------------------------------------------------------------


@dataclass
class Figures:
    first: dict[str, list[float]] = field(default_factory=dict)
    later: dict[str, list[float]] = field(default_factory=dict)
    floor: list[float] = field(default_factory=list)
    screens: dict[str, str] = field(default_factory=dict)


def demo_database(folder: Path) -> Path:
    db = folder / "demo.db"
    engine = Engine.open(db, Config(clock=frozen_clock, fetch_private_addresses=True))
    load_demo(engine)
    engine.store.close()
    return db


def one_round(demo: Path, folder: Path, figures: Figures) -> None:
    for name in SESSIONS:
        db = folder / f"{name}.db"
        for leftover in folder.glob(f"{name}.db*"):
            leftover.unlink()
        shutil.copy(demo, db)
        keys = demo.with_name(demo.name + ".keys")
        if keys.exists():
            shutil.copy(keys, db.with_name(db.name + ".keys"))
        done = subprocess.run([sys.executable, __file__, "--session", name, str(db)], capture_output=True, text=True,
                              cwd=folder, timeout=300)
        if done.returncode:
            raise RuntimeError(f"session {name} failed:\n{done.stderr[-3000:]}")
        got = json.loads(done.stdout.splitlines()[-1])
        figures.floor += got["figures"].pop("floor")
        figures.screens.update(got["screens"])
        for screen, (first, later) in got["figures"].items():
            figures.first.setdefault(screen, []).append(first)
            figures.later.setdefault(screen, []).append(later)


def report(figures: Figures, rounds: int) -> None:
    floor = statistics.median(figures.floor)
    print(f"\n{rounds} rounds, each area's screens in a fresh process; floor (an empty Screen pushed and settled): "
          f"median {floor * 1000:.0f} ms\n")
    print(f"| {'screen':<30} | first open | later open | ratio to floor (first, later) | < {AIM_S} s |")
    print(f"|{'-' * 32}|-----------:|-----------:|------------------------------:|:------:|")
    slow = []
    for name, firsts in figures.first.items():
        first, later = statistics.median(firsts), statistics.median(figures.later[name])
        met = max(first, later) < AIM_S
        if not met:
            slow.append(name)
        print(f"| {name:<30} | {first * 1000:7.0f} ms | {later * 1000:7.0f} ms | "
              f"{first / floor:13.1f}x, {later / floor:5.1f}x | {'yes' if met else 'NO':^6} |")
    print(f"\nSUMMARY screens opening under {AIM_S} s: {len(figures.first) - len(slow)} of {len(figures.first)}"
          + (f"; above aim: {', '.join(slow)}" if slow else ""))


def main() -> None:
    if sys.argv[1:2] == ["--session"]:
        figures = asyncio.run(run_session(sys.argv[2], Path(sys.argv[3])))
        print(json.dumps(figures))
        return
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else ROUNDS
    figures = Figures()
    with tempfile.TemporaryDirectory() as folder:
        demo = demo_database(Path(folder))
        for n in range(rounds):
            began = time.perf_counter()
            one_round(demo, Path(folder), figures)
            print(f"round {n + 1} of {rounds}: {time.perf_counter() - began:.0f} s", flush=True)
    report(figures, rounds)


if __name__ == "__main__":
    main()
