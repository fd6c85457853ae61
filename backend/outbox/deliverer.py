"""The deliverer: sends the outbox's events to every destination that wants them, after commit, at least once.

Each destination (a webhook, a channel that takes ARI by push) has a cursor: the last event it was sent or did not
want. Its next events go in order, one call at a time, so order per destination — and so per destination and
property — holds. A call that fails is retried with exponential backoff (`backoff · 2^(attempt-1)`, at most
`MAX_BACKOFF`); after `max_attempts` the destination is marked failing and nothing more goes to it until it is
resumed, so nothing is skipped. The cursor moves in the same transaction that logs the delivery, after the call
answered: a `kill -9` between the two sends the event again (at least once; consumers de-duplicate by event id).

What goes where is the business of each destination kind's `Route` (backend/webhooks, backend/distribution): which
destinations it serves now, which events each wants, how many go in one call (ARI is coalesced), and the call.

Who delivers is the lease's business (backend/outbox/lease.py, storage's `Lease`): on SQLite its holder alone; on
PostgreSQL every `serve` process of every host, each destination claimed by one of them while it serves it (a session
lock that dies with its connection, so a process that dies frees its destinations at once), the compare-and-set of
the cursor a second guard. A round looks for due destinations after a commit of this process (the engine's
EventBus), after the stamper's NOTIFY of another's, and every `POLL` seconds at least. No call is made inside a
transaction: each destination's writes after a call are a transaction of its own scope (`destination_scope`).

The holder of the lease alone runs the housekeeping: the sweeps of what comes from time passing — bookings not
acknowledged in 30 minutes (`non_acked_booking`), and the nights that enter or leave each property's window
(backend/distribution/window_moves.py, which the engine adds) — and the prune of what every destination has passed
after `RETENTION`.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NamedTuple, Protocol, cast

from pydantic_core import from_json

from backend.core import changes
from backend.core.scopes import destination_scope
from backend.outbox.sending import SendFailed
from backend.outbox.store import (
    advance_cursor,
    count_failure,
    delete_destination,
    delete_redelivery,
    delivered_up_to,
    delivery_attempts,
    destination,
    destination_progress,
    due_destinations,
    event_at,
    events_after,
    head,
    idle_destinations,
    insert_destination,
    insert_redelivery,
    newest_position,
    passed_position,
    prune_deliveries,
    prune_events,
    redelivered_seqs,
    resume_destination,
    stamp_in,
    stamp_positions,
    upsert_deliveries,
)
from storage import Connection, Lease, Row, Store, new_id, utc_now

log = logging.getLogger("frontdesk.deliverer")

MAX_ATTEMPTS = 8  # 1 + 2 + … + 64 s: about two minutes of a destination not answering before it is marked failing
BACKOFF = 1.0
MAX_BACKOFF = 300.0
READ_AHEAD = 2000  # events read after a cursor per round
CALLS_PER_STEP = 50  # calls sent before their cursor and log are committed: a crash resends at most these
RETENTION = timedelta(days=7)  # events and the delivery log kept after every destination has passed them
KEEP_OWED = timedelta(days=30)  # events kept at most, for a destination that stopped taking them
COUNTED = 10_000  # events looked at to say how many wait for a destination
POLL = 0.2  # seconds between looks at the outbox when nothing in this process said there was news
SWEEP_EVERY = 10.0
PRUNE_EVERY = 3600.0


@dataclass(frozen=True)
class Event:
    seq: int  # its number, by which the delivery log and redeliveries name it
    pos: int  # its outbox position, which cursors count in (storage/dialect.py `position`)
    id: str
    event: str
    property_id: str | None
    channel_id: str | None
    payload: dict[str, Any]
    inserted_at: str

    @classmethod
    def of(cls, row: Row) -> Event:
        return cls(row["seq"], row["pos"], row["id"], row["event"], row["property_id"], row["channel_id"],
                   from_json(row["payload"]), row["inserted_at"])


class Delivered(NamedTuple):
    """What a destination answered a call it took: its status, and anything it warned of (an OTA answer's Warnings),
    which the delivery log keeps."""

    status: int | None
    warnings: tuple[str, ...] = ()


Sweep = Callable[[Store, datetime], Any]


class Wanted(NamedTuple):
    """What a destination takes: the events that `takes`, of `property_id` alone when it is set (a webhook's: the
    others are then never read for it), else of any property."""

    takes: Callable[[Event], bool]
    property_id: str | None = None


class Route(Protocol):
    """One kind of destination."""

    kind: str  # destinations.kind
    batch: int  # events at most in one call

    def destinations(self) -> dict[str, str | None]:
        """The destinations delivered to now (active webhooks, push channels), each id with the one property whose
        events it takes (a webhook's), or None (of any)."""

    def wanted(self, destination_id: str) -> Wanted | None:
        """What the destination takes now (read once a step, not once an event); None when it is gone."""

    def send(self, destination_id: str, events: list[Event]) -> int | Delivered | None:
        """Deliver the events in one call; the answer's status (and warnings). Raises SendFailed."""

    def failed(self, conn: Connection, destination_id: str, error: str, events: list[Event]) -> None:
        """A call failed (in the transaction that logs it): a channel records its sync_error here."""


def backoff(attempts: int, base: float) -> float:
    return cast(float, min(base * 2 ** (attempts - 1), MAX_BACKOFF))


class Deliverer:
    def __init__(self, store: Store, routes: list[Route] | Callable[[], list[Route]], lease: Lease,
                 clock: Callable[[], datetime], *, max_attempts: int = MAX_ATTEMPTS, backoff_base: float = BACKOFF,
                 workers: int = 4, sweeps: tuple[Sweep, ...] = ()) -> None:
        """`routes`: the routes, or what makes them on the first round (their services and HTTP clients are a
        good part of a second of imports that a starting console does not wait for). `sweeps`: what comes from
        time passing (the engine's: bookings not acknowledged, the window's nights), each run every `SWEEP_EVERY`
        seconds with the store and the clock's now."""
        self.store, self.lease, self.clock = store, lease, clock
        self._make_routes = routes if callable(routes) else lambda: routes
        self._routes: dict[str, Route] | None = None
        self.sweeps = sweeps
        self.max_attempts, self.backoff_base = max_attempts, backoff_base
        self.wake = threading.Event()
        self._stop = threading.Event()
        self.workers = workers
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="deliver")
        self._busy: dict[str, Future[None]] = {}
        self._thread: threading.Thread | None = None
        self._swept = self._pruned = 0.0
        self.holding = False  # the lease, as last renewed: the housekeeping is this process's while it holds it

    # --- running -------------------------------------------------------------------------------

    @property
    def routes(self) -> dict[str, Route]:
        if self._routes is None:
            self._routes = {route.kind: route for route in self._make_routes()}
        return self._routes

    def start(self, after: float = 0.0) -> None:
        """Deliver on a thread of its own, from `after` seconds on."""
        self._thread = threading.Thread(target=self._run, args=(after,), name="deliverer", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self.wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._pool.shutdown(wait=True, cancel_futures=True)
        self.lease.release()
        self.lease.close()

    def _run(self, after: float) -> None:
        if self._stop.wait(after):
            return
        self.lease.listen(self.wake.set)
        renewed = 0.0
        while not self._stop.is_set():
            try:
                if time.monotonic() - renewed > self.lease.ttl / 3:
                    self.holding, renewed = self.lease.acquire(), time.monotonic()
                if self.lease.delivering():
                    self.round()
            except Exception as exc:  # the deliverer outlives any one bad round
                log.warning("deliverer round failed: %s", type(exc).__name__)
            self.wake.wait(POLL)
            self.wake.clear()

    def round(self) -> None:
        """One look: housekeeping when due (the lease's holder), positions for the events committed since the last
        look, then due destinations not already being served here, as many as there are threads free to serve
        them, each once this process claimed it (one waiting here for a thread would keep it from another's)."""
        if self.holding:
            self._housekeeping()
        stamp_positions(self.store)
        self._busy = {each: running for each, running in self._busy.items() if not running.done()}
        for route in self.routes.values():
            for destination_id in self.due(route):
                if len(self._busy) >= self.workers:
                    return
                if destination_id not in self._busy and self.lease.claim(destination_scope(destination_id)):
                    self._busy[destination_id] = self._pool.submit(self.serve, route, destination_id)

    def _housekeeping(self) -> None:
        now = time.monotonic()
        if now - self._swept > SWEEP_EVERY:
            self._swept = now
            for sweep in (self._catch_up, *self.sweeps):
                try:
                    sweep(self.store, self.clock())
                except Exception:  # one sweep's fault neither stops the others nor the deliveries
                    log.exception("sweep %s failed", getattr(sweep, "__qualname__", sweep))
        if now - self._pruned > PRUNE_EVERY:
            self._pruned = now
            prune(self.store, self.clock())

    def due(self, route: Route) -> list[str]:
        destinations = route.destinations()
        if not destinations:
            return []
        return due_destinations(self.store, destinations, utc_now(), newest_position(self.store))

    def _catch_up(self, _store: Store, _now: datetime) -> None:
        """Move the cursors of destinations of one property that nothing waits for up to the newest event (they
        are never due for others' events), each under its destination's scope and only from where it was."""
        head = newest_position(self.store)
        for route in self.routes.values():
            for destination_id, cursor in idle_destinations(self.store, route.destinations(), head):
                self._advance(destination_id, cursor, head)

    # --- one destination -----------------------------------------------------------------------

    def serve(self, route: Route, destination_id: str) -> None:
        """Send the destination what it is owed until it is up to date, a call fails, the deliverer stops or its
        claim is lost (checked before each step: a lost connection freed it for another process); then let go."""
        claim = destination_scope(destination_id)
        try:
            self._redeliver(route, destination_id)
            while not self._stop.is_set() and self.lease.claimed(claim) and self._step(route, destination_id):
                pass
        except Exception as exc:  # one destination's trouble never stops the others
            log.warning("delivery to %s failed: %s", destination_id, type(exc).__name__)
        finally:
            self.lease.unclaim(claim)

    def _step(self, route: Route, destination_id: str) -> bool:
        """Send the next calls (up to `CALLS_PER_STEP`, each of up to `route.batch` events, in order, stopping at the
        first that fails) and commit those that went in one transaction; whether there may be more."""
        head = newest_position(self.store)  # read first: every event up to it is then in what is read below
        row, wants = destination_progress(self.store, destination_id), route.wanted(destination_id)
        if row is None or row["failing_since"] is not None or wants is None:
            return False
        events = [Event.of(r) for r in events_after(self.store, row["cursor"], READ_AHEAD, wants.property_id)]
        whole = len(events) < READ_AHEAD  # every event it may take up to `head`
        wanted = [event for event in events if wants.takes(event)][:route.batch * CALLS_PER_STEP]
        if not wanted:  # nothing for it here: move past what was read
            to = head if whole else events[-1].pos
            if to > row["cursor"]:
                self._advance(destination_id, row["cursor"], to)
            return not whole
        sent: list[tuple[list[Event], Delivered]] = []
        for call in (wanted[at:at + route.batch] for at in range(0, len(wanted), route.batch)):
            try:
                sent.append((call, _send(route, destination_id, call)))
            except SendFailed as failed:  # the head of what is left: its first attempt unless nothing went
                if self._commit(destination_id, row["cursor"], row["attempts"] + 1, sent):
                    self._failed(route, destination_id, call, sent[-1][0][-1].pos, 0, failed)
                elif not sent:
                    self._failed(route, destination_id, call, row["cursor"], row["attempts"], failed)
                return False
            if self._stop.is_set():
                break
        return self._commit(destination_id, row["cursor"], row["attempts"] + 1, sent)

    def _commit(self, destination_id: str, cursor: int, attempt: int,
                sent: list[tuple[list[Event], Delivered]]) -> bool:
        """Move the cursor past the calls that went and log them (the first took `attempt` attempts, the rest one);
        False when nothing went or another process moved the cursor meanwhile."""
        if not sent:
            return False
        with self.store.transaction(destination_scope(destination_id)) as conn:
            moved = delivered_up_to(conn, destination_id, cursor, sent[-1][0][-1].pos, utc_now())
            if moved:
                for number, (events, answer) in enumerate(sent):
                    self._log(conn, destination_id, events, "delivered", attempt if number == 0 else 1, answer.status,
                              None, None, answer.warnings)
        if moved:
            changes.note_after(self.store, changes.DELIVERED)
        return bool(moved)

    def _advance(self, destination_id: str, cursor: int, to: int) -> None:
        with self.store.transaction(destination_scope(destination_id)) as conn:
            advance_cursor(conn, destination_id, cursor, to)
        changes.note_after(self.store, changes.DELIVERED)

    def _failed(self, route: Route, destination_id: str, events: list[Any], cursor: int, attempts: int,
                failed: SendFailed) -> None:
        """The head event failed once more, after `attempts` at it from `cursor`: counted, unless the destination
        moved meanwhile (another deliverer, a resume), whose state then stands."""
        now, attempt = self.clock(), attempts + 1
        gives_up = attempt >= self.max_attempts
        retry = None if gives_up else (now + timedelta(seconds=backoff(attempt, self.backoff_base)))
        retry_at = retry.replace(tzinfo=None).isoformat(timespec="microseconds") if retry else None
        with self.store.transaction(destination_scope(destination_id)) as conn:
            if not count_failure(conn, destination_id, cursor, attempts, attempt=attempt, retry_at=retry_at,
                                 error=failed.message, gives_up=gives_up, now=utc_now()):
                return
            self._log(conn, destination_id, events, "failed" if gives_up else "retrying", attempt, failed.status,
                      failed.message, retry_at)
            route.failed(conn, destination_id, failed.message, events)
        changes.note_after(self.store, changes.DELIVERED)

    def _redeliver(self, route: Route, destination_id: str) -> None:
        """Events asked for again, one call each, outside the cursor's order; a failure is logged, not retried."""
        for seq in redelivered_seqs(self.store, destination_id):
            row = event_at(self.store, seq)
            events = [Event.of(row)] if row else []
            warnings: tuple[str, ...]
            status, error, warnings = None, None, ()
            if events:
                try:
                    status, warnings = _send(route, destination_id, events)
                except SendFailed as failed:
                    status, error = failed.status, failed.message
            with self.store.transaction(destination_scope(destination_id)) as conn:
                delete_redelivery(conn, destination_id, seq)
                if events:
                    attempts = delivery_attempts(conn, destination_id, seq)
                    self._log(conn, destination_id, events, "failed" if error else "delivered",
                              (attempts if attempts is not None else 0) + 1, status, error, None, warnings)
            changes.note_after(self.store, changes.DELIVERED)

    @staticmethod
    def _log(conn: Connection, destination_id: str, events: list[Any], status: str, attempts: int, response: int | None,
             error: str | None, retry_at: str | None, warnings: tuple[str, ...] = ()) -> None:
        now = utc_now()
        said = json.dumps(list(warnings)) if warnings else None
        upsert_deliveries(conn, [(new_id(), destination_id, event.seq, status, attempts, response, error, retry_at, now,
                                  said) for event in events])


def _send(route: Route, destination_id: str, events: list[Event]) -> Delivered:
    """One call. A fault of ours in building it (a bug, data it did not expect) fails it as a refusal would: retried
    with backoff, then the destination is failing and its state says so, instead of a silent retry every round."""
    try:
        answer = route.send(destination_id, events)
        return answer if isinstance(answer, Delivered) else Delivered(answer)
    except SendFailed:
        raise
    except Exception as exc:  # see above; the traceback goes to the server's log
        log.exception("could not build a call to %s", destination_id)
        raise SendFailed(f"Frontdesk could not build the call ({type(exc).__name__}); see the server's log") from None


# --- destinations, as their owners keep them ---------------------------------------------------


def add_destination(conn: Connection, destination_id: str, kind: str) -> None:
    """A new destination starts at the outbox's head: it gets what happens from now on (in the caller's unscoped
    transaction, so every event before it has been committed and is given its position first)."""
    stamp_in(conn)
    insert_destination(conn, destination_id, kind, head(conn))


def drop_destination(conn: Connection, destination_id: str) -> None:
    delete_destination(conn, destination_id)


def resume(conn: Connection, destination_id: str) -> None:
    """A failing destination is tried again at once, from where it stopped."""
    resume_destination(conn, destination_id)


def redeliver(conn: Connection, destination_id: str, event_seq: int) -> None:
    insert_redelivery(conn, destination_id, event_seq)


def state(store: Store, destination_id: str, wants: Wanted | None) -> dict[str, Any] | None:
    """What the console and the API say of a destination: the events waiting that it wants (counted up to
    `COUNTED`) and when the oldest of them happened, last delivered, failing since, last error."""
    row = destination(store, destination_id)
    if row is None:
        return None
    events = map(Event.of, events_after(store, row["cursor"], COUNTED, wants.property_id)) if wants else ()
    waiting = [event for event in events if wants.takes(event)] if wants else []
    return {"cursor": row["cursor"], "waiting": len(waiting),
            "oldest_waiting_at": waiting[0].inserted_at if waiting else None, "attempts": row["attempts"],
            "next_attempt_at": row["next_attempt_at"], "last_error": row["last_error"],
            "failing_since": row["failing_since"], "last_delivered_at": row["last_delivered_at"]}


# --- housekeeping --------------------------------------------------------------------------------


def prune(store: Store, now: datetime) -> None:
    """Events every destination has passed, `RETENTION` after they happened, and the delivery log as old. Events a
    destination still owes (a failing one, a pull channel that stopped reading) are kept up to `KEEP_OWED`; one that
    far behind is brought up to date by a full sync (a channel) or misses them (a webhook)."""
    def stamp(delta: timedelta) -> str:
        return (now - delta).replace(tzinfo=None).isoformat(timespec="microseconds")

    with store.transaction() as conn:
        prune_events(conn, passed_position(conn), stamp(RETENTION), stamp(KEEP_OWED))
        prune_deliveries(conn, stamp(RETENTION))
        changes.prune(conn, now)
