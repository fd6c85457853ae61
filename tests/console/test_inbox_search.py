"""The inbox's `/` over every message: a word of a thread's older message finds it, and its row shows that
message's words around the match instead of the last message."""

from __future__ import annotations

import pytest

from backend.core.listing import ListQuery
from backend.engine import Engine
from tests.console.helpers import SIZE, settle, titles, type_text
from tests.console.test_inbox import guest_writes, open_inbox

pytestmark = pytest.mark.anyio


async def test_slash_finds_a_word_of_an_older_message_and_shows_it(engine: Engine, make_app) -> None:
    operator = engine.identity.operator()
    emma = next(t for t in engine.chat.threads(operator, ListQuery(limit=50))[0] if t["title"] == "Emma Clarke")
    guest_writes(engine, emma, "Could you keep our xylophone in the luggage room?")
    guest_writes(engine, emma, "Thanks a lot")  # the last message now
    app = make_app(mode="inbox")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_inbox(pilot)
        await pilot.press("slash")
        await type_text(pilot, "xylophon")
        await pilot.press("enter")
        await settle(pilot)
        assert titles(screen) == ["Emma Clarke"]
        row = screen.table.get_row(emma["id"])[1]
        assert "our xylophone in the luggage" in row.plain and "Thanks a lot" not in row.plain
        assert any("bold" in str(span.style) and row.plain[span.start:span.end] == "xylophone" for span in row.spans)
