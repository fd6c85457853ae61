"""Failed credentials counted per client address: after too many 401 answers in a minute, the address
is answered 429 until its oldest failure leaves the window. Counting is the `limits` library's."""

from __future__ import annotations

import math
import time

from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter


class Throttle:
    def __init__(self, failures_per_minute: int) -> None:
        self.limit = RateLimitItemPerMinute(failures_per_minute)
        # A moving window: a burst split across a minute boundary still counts as one minute's failures.
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    def retry_after(self, address: str) -> int | None:
        """Seconds until `address` may be answered again; None when it may be now."""
        if self.limiter.test(self.limit, address):
            return None
        reset, _ = self.limiter.get_window_stats(self.limit, address)
        return max(1, math.ceil(reset - time.time()))

    def failed(self, address: str) -> None:
        self.limiter.hit(self.limit, address)
