"""A text area for a message that may carry cards, which never shows a card number or a security
code in clear.

Each one is masked the moment it appears — loaded, pasted, or typed to its last digit — and its
original is kept aside; `message` puts the originals back. Editing around a masked value keeps it;
editing inside one turns it into the text as shown.
"""

from __future__ import annotations

import re

from textual import events
from textual.widgets import TextArea

from backend.core.card_data import hide_card_data


def put_back(text: str, hidden: list[tuple[str, str]]) -> str:
    """`text` with each masked value that is still there replaced by its original, in order."""
    originals: dict[str, list[str]] = {}
    for shown, original in hidden:
        originals.setdefault(shown, []).append(original)
    if not originals:
        return text
    found = re.compile("|".join(re.escape(shown) for shown in sorted(originals, key=len, reverse=True)))
    return found.sub(lambda match: originals[match[0]].pop(0) if originals[match[0]] else match[0], text)


class MessageArea(TextArea):
    def __init__(self, **options) -> None:
        super().__init__(**options)
        self.hidden: list[tuple[str, str]] = []

    @property
    def message(self) -> str:
        return put_back(self.text, self.hidden)

    def set_message(self, message: str) -> None:
        shown, self.hidden = hide_card_data(message, valid_only=False)
        self.load_text(shown)

    async def _on_paste(self, event: events.Paste) -> None:
        # Masked before it is inserted, so the numbers are never drawn.
        event.prevent_default()
        if self.read_only:
            return
        shown, hidden = hide_card_data(event.text, valid_only=False)
        self.hidden += hidden
        if result := self._replace_via_keyboard(shown, *self.selection):
            self.move_cursor(result.end_location)
            self.focus()

    def on_text_area_changed(self) -> None:
        message = self.message
        shown, self.hidden = hide_card_data(message, valid_only=False)
        if shown != self.text:  # typed to a card number's length, or a security code's
            cursor = self.cursor_location
            self.load_text(shown)
            self.cursor_location = cursor
