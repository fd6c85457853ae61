"""The one way an area calls the engine off the UI thread, and the one handler for its refusals.

An engine call can be slow (a page of 10,000 rows, a capture over HTTP), so it runs in a thread worker.
The engine refuses bad input with a FrontdeskError: `engine_work` posts it as `ActionFailed` to the widget
that started the work (a form shows it beside its fields; elsewhere the app notifies), so no method
repeats that handling. A worker replaced by a newer one (exclusive groups) says nothing: `post_fresh`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from textual import work
from textual.message import Message
from textual.message_pump import MessagePump
from textual.worker import get_current_worker

from backend.core.errors import FrontdeskError
from console.kit.messages import ActionFailed

Method = TypeVar("Method", bound=Callable[..., None])


def engine_work(*, exclusive: bool = False, group: str = "default") -> Callable[[Method], Method]:
    """`@work(thread=True)` for a method of a widget or screen that calls the engine."""

    def decorate(method: Method) -> Method:
        @functools.wraps(method)
        def run(node: MessagePump, *args: Any, **kwargs: Any) -> None:
            try:
                method(node, *args, **kwargs)
            except FrontdeskError as error:
                post_fresh(node, ActionFailed(error))

        return work(thread=True, exclusive=exclusive, group=group)(run)

    return decorate


def post_fresh(node: MessagePump, message: Message) -> None:
    """Post what a worker found, unless a newer worker of its group has replaced it meanwhile."""
    if not get_current_worker().is_cancelled:
        node.post_message(message)
