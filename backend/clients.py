"""Counting what clients do, for the limits that keep one of them from spoiling things for the rest (failed
credentials, backend/http/throttle.py; card forms, backend/vault/card_form.py): who counts as one client, and
counts per key over a moving window, in bounded memory.

Memory is bounded by what happened within the window, and at most `max_keys` keys: a stranger rotating credentials
or addresses does not grow it without end. (The `limits` library's memory storage, used before, never forgot a
key: an emptied window stayed, and its expiry timer went over every key a hundred times a second.)
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable

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
        events = self.events.get(key, ())
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
