"""Where test calls run, and how many a user may make.

A test call waits on someone else's server: up to the sender's timeout for an answer, twice that for one trickling
in. On the threads that serve every request it was a lever (45 test calls to a slow receiver stalled every sync route
of all three listeners), and sending test calls without a limit made Frontdesk a signing cannon pointed wherever the
caller liked. So test calls run on a few threads of their own, `THREADS` at once with `WAITING` more in line (one
more is a 503 at once, never a longer queue), and each user may start `per_minute` of them a minute (one more is a
429 saying when the next may start). Counted per process, as the failed-credential throttle is.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from backend.core.clients import window
from backend.core.errors import ServiceUnavailable, TooManyRequests

THREADS = 4
WAITING = 16
BUSY_RETRY = 10  # seconds: what a test call takes at most (two sender timeouts), so a place is free by then

T = TypeVar("T")


class Trials:
    def __init__(self, per_minute: int, threads: int = THREADS, waiting: int = WAITING, *, shared: str | None = None,
                 workers: int = 1) -> None:
        self.per_minute = per_minute
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="webhook-test")
        self.places = threading.BoundedSemaphore(threads + waiting)
        # A moving window, as the throttle's: a burst split across a minute boundary counts as one minute's.
        self.calls = window(per_minute, 60, "webhook-tests", shared=shared, workers=workers)

    def start(self, user_id: str, call: Callable[[], T]) -> Future[T]:
        """`call` started on the test calls' threads (or in line for one); its answer is the future's. A 503 when
        every place is taken, a 429 when the user has made `per_minute` test calls within the last minute."""
        if not self.places.acquire(blocking=False):
            raise ServiceUnavailable(BUSY_RETRY, ["too many test calls are under way; try again in a few seconds"])
        if (wait := self.calls.hit(user_id)) is not None:
            self.places.release()
            raise TooManyRequests(wait, [f"at most {self.per_minute} test calls a minute; the next in {wait} s"])
        future = self.pool.submit(call)
        future.add_done_callback(lambda _: self.places.release())
        return future
