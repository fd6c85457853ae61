"""One call to a push channel, as a format builds it, and the cap on its size."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple, TypeVar

from backend.outbox.sending import Answer, SendFailed

PER_CALL = 2000  # values (or OTA messages) at most in one call: a bigger batch is split into several
T = TypeVar("T")


class Call(NamedTuple):
    id: str  # the webhook-id it is signed under (and an OTA message's EchoToken): the same on a retry
    content_type: str
    body: str


def chunks(items: Sequence[T], size: int = PER_CALL) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def accepted(answer: Answer) -> None:
    """Any 2xx answer; anything else is a failure that names the status and how the answer begins."""
    if not 200 <= answer.status < 300:
        raise SendFailed(f"answered {answer.status}: {excerpt(answer.text)}", answer.status)


def excerpt(text: str, length: int = 300) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= length else flat[:length] + "…"
