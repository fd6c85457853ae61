"""Counting what clients do, for the limits that keep one of them from spoiling things for the rest (failed
credentials, backend/http/throttle.py; webhook test calls, backend/webhooks/trials.py; card forms count in the
database, backend/vault/card_form.py): who counts as one client, and counts per key over a moving window.

Two places to count, behind one interface (`hit`, `wait`): each process's memory (`MovingWindow`), or a Redis server
that every worker of every host shares (`RedisWindow`, `frontdesk serve --limits-storage redis://…`). In memory,
a process of `--workers N` counts a limit divided by N: connections spread evenly over the workers, so together
they allow about the limit, but a client whose connections all land on one worker is stopped sooner, and one spread
over hosts later; a shared Redis counts the limit itself, once.

Memory is bounded by what happened within the window, and at most `max_keys` keys: a stranger rotating credentials
or addresses does not grow it without end. (The `limits` library's memory storage, used before, never forgot a
key: an emptied window stayed, and its expiry timer went over every key a hundred times a second.) Redis forgets a
key once its window has passed (its expiry). A Redis that cannot be reached refuses nobody (each such call logged):
a limit must not become an outage.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import redis

log = logging.getLogger("frontdesk.limits")

MAX_KEYS = 100_000  # a key holds a few hundred bytes at most: some tens of MB, beyond which the stalest are forgotten


def client_of(address: str) -> str:
    """Who counts as one client: an IPv4 address, or an IPv6 /64 (one subscriber's network, where every address is
    theirs to use); anything else (a test client's name) as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ip.ipv4_mapped or ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class Window(Protocol):
    """At most a limit of events per key in any window of time: `hit` counts one (or says how long until one may be
    counted), `wait` only tells."""

    def hit(self, key: Hashable) -> int | None: ...
    def wait(self, key: Hashable) -> int | None: ...


def window(limit: int, seconds: float, name: str, *, shared: str | None = None, workers: int = 1,
           **memory: Any) -> Window:
    """The window of a limit named `name`: in a Redis server that all processes share, else in this process's
    memory (`memory`: MovingWindow's options), its limit divided by the number of workers (never below one)."""
    if shared:
        return RedisWindow(shared, name, limit, seconds)
    return MovingWindow(max(1, math.ceil(limit / workers)), seconds, **memory)


class MovingWindow:
    """At most `limit` events per key in any `seconds`: a burst split across a boundary still counts as one."""

    def __init__(self, limit: int, seconds: float, *, max_keys: int = MAX_KEYS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.seconds = seconds
        self.max_keys = max_keys
        self.clock = clock
        # Each key's last `limit` events, oldest first; the keys least recently counted come first.
        self.events: OrderedDict[Hashable, list[float]] = OrderedDict()
        self.lock = threading.Lock()  # the listeners of a test each run their own event loop in a thread

    def __len__(self) -> int:
        return len(self.events)

    def wait(self, key: Hashable) -> int | None:
        """Seconds until `key` may have another event; None when it may now."""
        with self.lock:
            return self._wait(key, self.clock())

    def hit(self, key: Hashable) -> int | None:
        """One event more for `key`, unless it is at its limit: then nothing is counted, and the seconds until it
        may have another are returned."""
        now = self.clock()
        with self.lock:
            self._forget(now)
            if (wait := self._wait(key, now)) is not None:
                return wait
            events = self.events.pop(key, [])
            events.append(now)
            self.events[key] = events[-self.limit:]
            return None

    def _wait(self, key: Hashable, now: float) -> int | None:
        events = self.events.get(key, [])
        if len(events) < self.limit or events[0] <= now - self.seconds:
            return None
        return max(1, math.ceil(events[0] + self.seconds - now))

    def _forget(self, now: float) -> None:
        """Keys whose last event left the window, and the least recently counted beyond `max_keys`: from the front,
        so each costs its removal alone."""
        while self.events:
            key, events = next(iter(self.events.items()))
            if events[-1] > now - self.seconds and len(self.events) < self.max_keys:
                return
            del self.events[key]


# One script, run by Redis alone (no other command between its steps): forget what left the window, then count
# one more or tell when the oldest of the last `limit` leaves it. Times are Redis's own clock, the same for every host.
_HIT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local seconds, limit = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - seconds)
local count = redis.call('ZCARD', KEYS[1])
if count >= limit then
    local oldest = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
    return tostring(tonumber(oldest[2]) + seconds - now)
end
if ARGV[3] ~= '' then
    redis.call('ZADD', KEYS[1], now, ARGV[3])
    redis.call('PEXPIRE', KEYS[1], math.ceil(seconds * 1000))
end
return false
"""


class RedisWindow:
    """A moving window in Redis: a sorted set of event times per key, which expires with its window."""

    def __init__(self, url: str, name: str, limit: int, seconds: float) -> None:
        import redis

        self.name, self.limit, self.seconds = name, limit, seconds
        self.client: redis.Redis = redis.Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0)
        self.script = self.client.register_script(_HIT)

    def hit(self, key: Hashable) -> int | None:
        return self._run(key, uuid.uuid4().hex)

    def wait(self, key: Hashable) -> int | None:
        return self._run(key, "")

    def _run(self, key: Hashable, event: str) -> int | None:
        import redis

        try:
            wait = self.script(keys=[f"frontdesk:{self.name}:{key!r}"], args=[self.seconds, self.limit, event])
        except redis.RedisError as exc:
            log.warning("the limits' Redis did not answer (%s): %s not counted", type(exc).__name__, self.name)
            return None
        return None if wait is None else max(1, math.ceil(float(wait)))


def check_shared(url: str) -> None:
    """That the limits' Redis answers, at start (CannotStart when it does not)."""
    import redis

    from backend.core.errors import CannotStart

    try:
        redis.Redis.from_url(url, socket_timeout=2.0, socket_connect_timeout=2.0).ping()
    except (redis.RedisError, ValueError) as exc:
        raise CannotStart(f"the limits' storage {url.split('@')[-1]} does not answer ({type(exc).__name__})") from None
