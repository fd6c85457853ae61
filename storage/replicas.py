"""Hot standbys of the PostgreSQL primary, each watched by a thread of its own, for a `ReadStore` (storage/reads.py).

How far behind a standby is: every LOOK_EVERY seconds (a quarter of the bound, if less) its watcher samples the
primary's WAL insert position (`pg_current_wal_insert_lsn()`) with the time, then reads the standby's replayed
position (`pg_last_wal_replay_lsn()`). The standby holds every commit acknowledged before the newest sample at or
below its replayed position; it is `fresh` while that sample is no older than `bound` seconds. This is an upper
bound on its lag, never an underestimate, idle or busy:
- `now() - pg_last_xact_replay_timestamp()` on the standby grows while the primary is idle and nothing is behind;
- the primary's `pg_stat_replication.replay_lag` is the time a past position took to be replayed: a standby whose
  replay stopped (paused, stuck on a conflict) keeps its last, small figure, and it is NULL once idle;
- the flushed position (`pg_current_wal_flush_lsn()`) passes by a commit made with `synchronous_commit` off, which
  is acknowledged before it is flushed (up to 3 x `wal_writer_delay`); the insert position holds it. An idle
  primary's insert position may stand just past a new page's header, where no replay reaches: it is taken as that
  page's start (`_inserted`).
The WAL is the whole cluster's, so writes of other databases on the primary count too (the standby replays them).

A standby that refuses connections, times out (NETWORK), fails a read or stops being a standby is closed, its pool
with it, and tried again by its watcher alone, after RETRY_FIRST seconds, doubled up to RETRY_MOST, with jitter:
the reads never wait for it, and a fleet of workers does not reconnect at once. A watcher held up (a standby or a
primary that does not answer) measures nothing new, so within `bound` its standby is no longer fresh and the reads
go to the primary. What a standby is checked for, at start (where a wrong one is refused) and on every reconnection
(where a wrong one is left out, and logged): in recovery (`pg_is_in_recovery()`), of the primary's cluster
(`system_identifier`) and of its database (the same oid).

What operators see (`Replica.status`) is read from the same figures the reads go by (`fresh`): in use, else down,
lagging past the bound, or refused; a change of it is noted with its time by the watcher's look or by whoever asks
first, so `since` is within a look of the change.
"""

from __future__ import annotations

import logging
import math
import random
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, cast

import psycopg
from psycopg_pool import ConnectionPool, PoolClosed, PoolTimeout

from storage.postgres import WHICH, PooledReads, PostgresStore, _reason, answer, open_pool, without_password
from storage.reads import Reads, ReadStore, ReplicaFailed, ReplicaStatus, State, T
from storage.store import StoreError, timestamp

log = logging.getLogger("frontdesk.replicas")
BOUND = 1.0  # seconds a read on a standby may be behind the primary, by default (`--replica-lag-bound`)
LOOK_EVERY = 0.25  # seconds between a watcher's looks at most (a quarter of the bound, if that is less)
CONNECT_TIMEOUT = 2  # seconds to reach a standby (libpq's least)
STATEMENT_TIMEOUT_MS = 2000  # a watcher's look that takes longer: the standby is taken as down
RETRY_FIRST, RETRY_MOST = 1.0, 30.0
# A standby that vanished from the network (no refusal, no reset): a read or look on it fails after 2 s unanswered
# rather than TCP's minutes, and an idle connection to it is found dead within 4 s.
NETWORK: dict[str, Any] = {"tcp_user_timeout": 2000, "keepalives": 1, "keepalives_idle": 2, "keepalives_interval": 1,
                           "keepalives_count": 2}
POOL_SIZE = 16
POOL_WAIT = 1.0  # seconds a read waits for one of a busy standby's connections before the primary answers it
# A standby's state, and which cluster and database it is (equal on the primary and its standbys' copies of it).
LOOK = f"SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn() - '0/0', {WHICH}"
INSERTED = "SELECT pg_current_wal_insert_lsn() - '0/0'"
PAGES = ("SELECT current_setting('wal_block_size')::int, "
         "(SELECT setting::bigint FROM pg_settings WHERE name = 'wal_segment_size')")
SHORT_HEADER, LONG_HEADER = 24, 40  # bytes of a WAL page's header; the long one opens a segment


class Standby(PooledReads):
    """A standby's reads: each statement on a connection of its pool."""

    def __init__(self, pool: ConnectionPool) -> None:
        self.pool = pool
        self._local = threading.local()


class Replica:
    """One standby as this process sees it: its reads while it is up, and how much of the primary it holds."""

    def __init__(self, url: str, primary_url: str, identity: tuple[int, int], bound: float = BOUND) -> None:
        self.url, self.location, self.primary_url = url, without_password(url, user=False), primary_url
        self.identity, self.bound, self.period = identity, bound, min(bound / 4, LOOK_EVERY)
        self.reads: Standby | None = None  # while it is up
        self.covered_at: float | None = None  # monotonic time: it holds every commit acknowledged before then
        self.failed = False  # a read found it down: its watcher closes it
        self.problem: str | None = None  # why it is not used, while it is not
        self.refused = False  # while it is not used for not being a standby of the primary's database
        self._last_lag: float | None = None  # seconds behind when it went down, from its last look before
        self._shown: tuple[str, str] = ("", "")  # the state operators were last shown, and since when
        self._shown_lock = threading.Lock()
        self._samples: deque[tuple[float, int]] = deque()  # (monotonic time, the primary's insert position)
        self._primary: psycopg.Connection | None = None
        self._pages = (0, 0)  # the primary's WAL page and segment sizes
        self._look: psycopg.Connection | None = None
        self._retry_at, self._wait = 0.0, RETRY_FIRST  # the next try, and the wait after the next failure
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name=f"replica {self.location}", daemon=True)

    def start(self) -> None:
        """The first look, here: a database that is not a standby of the primary's is refused (StoreError); one that
        cannot be reached is tried again later."""
        if self._connect(refuse=True):
            self.check()
        if self.problem:
            log.warning("read replica %s is not used for now (%s): reads go to the primary", self.location,
                        self.problem)
        self.status()
        self._thread.start()

    def fresh(self) -> bool:
        covered = self.covered_at
        return (self.reads is not None and not self.failed and covered is not None
                and time.monotonic() - covered <= self.bound)

    def status(self) -> ReplicaStatus:
        """In use, or why not; its lag; and since when it is so."""
        fresh = self.fresh()
        lag = self._lag()  # read after: when it is not fresh, past the bound
        state, why = self._state(fresh, lag)
        with self._shown_lock:
            if self._shown[0] != state:
                self._shown = (state, timestamp(datetime.now(UTC)))
            since = self._shown[1]
        return ReplicaStatus(self.location, state, why, None if lag is None else _tenths(lag), since)

    def _state(self, fresh: bool, lag: float | None) -> tuple[State, str | None]:
        if fresh:
            return "in_use", None
        if self.reads is None or self.failed:
            return ("refused", self.problem) if self.refused else ("down", None)
        if lag is None:
            return "lagging", "not caught up yet"
        return "lagging", f"{_tenths(lag - self.bound):.1f} s past the {self.bound:g} s bound"

    def _lag(self) -> float | None:
        covered = self.covered_at
        return self._last_lag if covered is None else time.monotonic() - covered

    def read(self, run: Callable[[Reads], T]) -> T:
        reads = self.reads
        if reads is None:
            raise ReplicaFailed(self.location)
        try:
            return run(reads)
        except (PoolTimeout, PoolClosed) as exc:  # busy, or being closed: this read alone goes to the primary
            raise ReplicaFailed(self.location) from exc
        except psycopg.OperationalError as exc:  # gone: set aside until its watcher reaches it again
            self.failed = True
            raise ReplicaFailed(self.location) from exc
        except psycopg.Error as exc:  # cancelled by recovery, say: the primary answers (and fails alike if it is ours)
            raise ReplicaFailed(self.location) from exc

    def check(self) -> None:
        """One look: the primary's insert position, then the standby's replayed one, and what that covers."""
        if self.failed:
            self._down("a read could not reach it")
        if self.reads is None and (time.monotonic() < self._retry_at or not self._connect()):
            return
        try:
            if self._primary is None or self._primary.closed:
                self._primary = psycopg.connect(self.primary_url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
                self._pages = cast(tuple[int, int], answer(self._primary.execute(PAGES)))
            now = time.monotonic()
            inserted = _inserted(int(answer(self._primary.execute(INSERTED))[0]), *self._pages)
        except psycopg.Error:
            self._primary = None  # the primary's own trouble, not the standby's: nothing is covered meanwhile
            return
        self._samples.append((now, inserted))
        while len(self._samples) > 1 and self._samples[0][0] < now - self.bound - self.period:
            self._samples.popleft()
        try:
            in_recovery, replayed, *which = answer(self._look.execute(LOOK))  # type: ignore[union-attr]  # set with .reads
        except psycopg.Error as exc:
            self._down(_reason(exc))
            return
        if wrong := _wrong(in_recovery, tuple(which), self.identity):  # promoted, say
            self._down(wrong, wrong=True)
            return
        covered = [at for at, position in self._samples if position <= int(replayed or 0)]
        if covered and (self.covered_at is None or covered[-1] > self.covered_at):
            self.covered_at = covered[-1]

    def _connect(self, *, refuse: bool = False) -> bool:
        try:
            self._look = psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT,
                                         options=f"-c statement_timeout={STATEMENT_TIMEOUT_MS}", **NETWORK)
            in_recovery, _, *which = answer(self._look.execute(LOOK))
        except psycopg.Error as exc:
            self._down(f"unreachable: {_reason(exc)}")
            return False
        wrong = _wrong(in_recovery, tuple(which), self.identity)
        if wrong and refuse:
            self._look.close()
            raise StoreError(f"the read replica {self.location} {wrong}")
        if wrong:
            self._down(wrong, wrong=True)
            return False
        pool = open_pool(self.url, POOL_SIZE, POOL_WAIT, f"replica {self.location}", **NETWORK)
        try:
            pool.wait(CONNECT_TIMEOUT)
        except PoolTimeout:
            pool.close()
            self._down("its pool could not connect")
            return False
        self.reads, self.failed, self.refused, self._wait = Standby(pool), False, False, RETRY_FIRST
        if self.problem:
            log.warning("read replica %s is used again", self.location)
        self.problem = None
        return True

    def _down(self, why: str, *, wrong: bool = False) -> None:
        """Closed, and tried again after a wait that doubles with each failure (RETRY_MOST at once when it is not a
        standby of ours)."""
        if self.problem is None and self._thread.is_alive():
            log.warning("read replica %s is not used for now (%s): reads go to the primary", self.location, why)
        self._last_lag = self._lag()
        self.problem, self.refused, self.covered_at, self.failed = why, wrong, None, False
        reads, self.reads = self.reads, None
        for closing in (reads.pool if reads else None, self._look):
            if closing is not None:
                closing.close()
        self._look = None
        wait = RETRY_MOST if wrong else self._wait
        self._retry_at = time.monotonic() + wait * random.uniform(0.8, 1.2)
        self._wait = min(wait * 2, RETRY_MOST)

    def _watch(self) -> None:
        while not self._stop.wait(self.period):
            self.check()
            self.status()

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(CONNECT_TIMEOUT * 2)
        reads, self.reads = self.reads, None
        for closing in (reads.pool if reads else None, self._look, self._primary):
            if closing is not None:
                closing.close()


def _tenths(seconds: float) -> float:
    """Rounded up to a tenth of a second: a lag shown is never less than the one measured."""
    return math.ceil(round(seconds * 10, 6)) / 10


def _inserted(position: int, page: int, segment: int) -> int:
    """The primary's insert position as a replay reaches it: just past the header of a page that holds no record yet,
    the page's start."""
    header = LONG_HEADER if position % segment == LONG_HEADER else SHORT_HEADER
    return position - header if position % page == header else position


def _wrong(in_recovery: bool, found: tuple[int, int], expected: tuple[int, int]) -> str | None:
    """What makes a database not a standby of the primary's database, if anything."""
    if not in_recovery:
        return "is not a hot standby (pg_is_in_recovery() is false; promoted?): give a standby of the primary"
    if found[0] != expected[0]:
        return "is a standby of another cluster (its system identifier differs from the primary's)"
    if found[1] != expected[1]:
        return "is another database than the primary's (give the standby's copy of the same database)"
    return None


def read_store(primary: PostgresStore, urls: Sequence[str], bound: float = BOUND) -> ReadStore:
    """The primary's reads with its standbys at `urls`, each checked now (a wrong one refused, StoreError)."""
    system, oid = primary.one(f"SELECT {WHICH}")
    replicas: list[Replica] = []
    try:
        for url in urls:
            replicas.append(Replica(url, primary.url, (int(system), int(oid)), bound))
            replicas[-1].start()
    except StoreError:
        for replica in replicas:
            replica.close()
        raise
    return ReadStore(primary, replicas)
