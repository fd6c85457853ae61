"""In-process change events. The console subscribes to refresh what it shows."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    kind: str  # e.g. "property.changed", "channel.changed"
    id: str
    data: dict[str, Any] = field(default_factory=dict)
    outboxed: bool = False  # the change also wrote an outbox event, which tells other processes its kind
    # What a screen reloads alone for it, where there is one: the thread of a chat change (a message, a note, a
    # thread read or assigned). None: whatever shows the kind reloads.
    subject: str | None = None


@dataclass(frozen=True)
class Change:
    """What a console hears of a change, from this process's bus or another's writes (backend/outbox/changes.py)."""
    kind: str
    subject: str | None = None


Subscriber = Callable[[Event], None]


class EventBus:
    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []
        self._lock = threading.Lock()

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        with self._lock:
            self._subscribers.append(subscriber)

        def unsubscribe() -> None:
            with self._lock:
                if subscriber in self._subscribers:
                    self._subscribers.remove(subscriber)

        return unsubscribe

    def publish(self, kind: str, id: str, *, outboxed: bool = False, subject: str | None = None, **data: Any) -> None:
        event = Event(kind, id, data, outboxed, subject)
        with self._lock:
            subscribers = list(self._subscribers)
        for subscriber in subscribers:
            subscriber(event)
