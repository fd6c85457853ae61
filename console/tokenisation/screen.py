"""Tokenisation: the card vault's profiles, a tester that tries them on a message, and a masked browser
of the vault, each on a tab.

Profiles are few: each load reads them all, pages them like any list and hands their names to the
tester. A change event reads the profiles and the vault's page again, and leaves the tester alone.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.message import Message
from textual.widget import Widget
from textual.widgets import DataTable, Input, TabbedContent, TabPane, TextArea

from backend.vault import samples
from console.kit.area import PAGE_SIZE, TabbedArea
from console.kit.fit_table import FitTable
from console.kit.messages import ActionDone
from console.kit.section import Deferred
from console.kit.workers import engine_work
from console.tokenisation.editor import ProfileEditor
from console.tokenisation.keys import TOKENISATION
from console.tokenisation.samples import FIRST
from console.tokenisation.tester import ProfileTester, TesterDone, TesterFailed, TesterNews
from console.tokenisation.vault_browser import ACTOR, CardsLoaded, VaultBrowser

# Actions that only make sense on some tabs; the footer shows them only there.
TAB_ACTIONS = {"new": {"profiles"}, "edit": {"profiles"}, "delete": {"profiles", "vault"},
               "page": {"profiles", "vault"}, "load_sample": {"tester"}, "dry_run": {"tester"},
               "tokenise": {"tester"}, "capture": {"tester"}, "wipe_cvv": {"vault"}}


class ProfilesFound(Message):
    def __init__(self, names: list[str]) -> None:
        super().__init__()
        self.names = names


class SourceReady(Message):
    def __init__(self, profile: dict[str, Any], source: dict[str, Any]) -> None:
        super().__init__()
        self.profile = profile
        self.source = source


def placement(profile: dict[str, Any]) -> Text:
    """Where the profile puts the token: the headers, or the node in the message."""
    rule = profile["profile"]["card_token_placement"]
    return Text("the headers", style="italic") if rule["type"] == "headers" else Text(rule["card_token_node"])


class TokenisationScreen(TabbedArea):
    WATCHES = ("vault.", "booking.")  # cards come with bookings
    AREA = "tokenisation"
    NOUNS = ("profile", "profiles")
    COLUMNS = (("Profile", 20), ("Type", 4), ("Token goes to", 28), ("Kind", 19), ("Updated", 16))
    FLEX = ("Profile", "Token goes to")
    DROP = ("Updated", "Type")
    TABLES = {"profiles": "list", "tester": "tester-nodes", "vault": "vault-list"}  # each tab's table

    BINDINGS = TOKENISATION

    def __init__(self) -> None:
        super().__init__()
        self.tab = "profiles"
        self.hidden_columns: dict[str, tuple[str, ...]] = {}  # by table id: what a narrow window leaves out
        # Built on their tab's first visit (TabbedArea.build_tab): an area opens with its list alone.
        self.tester = ProfileTester(id="tester-view")
        self.vault = VaultBrowser(id="vault-view")

    def compose_body(self) -> ComposeResult:
        with TabbedContent(id="tokenisation-tabs", initial="profiles"):
            with TabPane("Profiles", id="profiles"):
                yield self.make_table()
            with TabPane("Tester", id="tester"):
                yield Deferred(self.tester)
            with TabPane("Vault", id="vault"):
                yield Deferred(self.vault)

    # --- loading -----------------------------------------------------------------------------

    def reload(self, page: int | None = None) -> None:
        super().reload(page)
        if page is None:  # a refresh, not a turn of the profiles' page
            self.vault.reload()

    def fetch(self, number: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        profiles = self.app.engine.tokenisation.profiles()
        self.post_message(ProfilesFound([profile["name"] for profile in profiles]))
        start = (number - 1) * PAGE_SIZE
        return profiles[start:start + PAGE_SIZE], {"total": len(profiles)}

    def on_profiles_found(self, message: ProfilesFound) -> None:
        self.tester.set_profiles(message.names)

    def cells(self, row: dict[str, Any]) -> tuple[Any, ...]:
        updated = row["updated_at"]
        return (row["name"], row["profile"]["type"], placement(row),
                Text("built-in, read-only", style="italic") if row["built_in"] else "your own",
                f"{updated[:10]} {updated[11:16]}" if updated else Text("—", style="dim"))

    def where(self) -> str:
        if self.tab == "vault":
            return self.vault.where()
        if self.tab == "tester":
            return "Tester"  # what a run kept, the status news and the result's title say
        return super().where()

    def on_cards_loaded(self, _: CardsLoaded) -> None:
        self.status.where(self.where())

    def on_fit_table_columns_hidden(self, message: FitTable.ColumnsHidden) -> None:
        """Each tab's table hides its own columns; the status line names those of the tab shown."""
        self.hidden_columns[message.control.id or ""] = message.labels
        self.status.columns_hidden(self.hidden_columns.get(self.TABLES[self.tab], ()))

    # --- tabs --------------------------------------------------------------------------------

    def tab_focus(self, tab: str) -> Widget:
        """Where a tab puts the focus as it opens."""
        if tab == "tester":
            return self.tester.query_one("#tester-profile")
        return self.vault.table if tab == "vault" else self.table

    async def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self.tab = event.pane.id or "profiles"
        await self.build_tab(self.tab)  # a tab clicked: its first visit builds it
        self.refresh_bindings()
        self.status.columns_hidden(self.hidden_columns.get(self.TABLES[self.tab], ()))
        self.status.where(self.where())
        if self.tab == "tester":
            self.tester.find_target()  # a server may have started or stopped meanwhile
        self.tab_focus(self.tab).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        tabs = TAB_ACTIONS.get(action)
        return tabs is None or self.tab in tabs

    def action_page(self, step: int) -> None:
        if self.tab == "vault":
            self.vault.turn(step)
        else:
            super().action_page(step)

    def key_escape(self) -> None:
        # Out of a box that takes letters, so that the area's keys work again.
        if isinstance(self.focused, Input | TextArea):
            self.query_one("#tester-nodes", DataTable).focus()

    # --- profiles ----------------------------------------------------------------------------

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table is self.table:
            event.stop()
            self.action_edit()

    def action_new(self) -> None:
        self.app.push_screen(ProfileEditor(None, samples.profile(FIRST)), self.profile_saved)

    def action_edit(self) -> None:
        if row := self.current_row():
            self.load_source(row)

    @engine_work(exclusive=True, group="editor")
    def load_source(self, profile: dict[str, Any]) -> None:
        source = self.app.engine.tokenisation.compiled(profile["name"]).stored()
        self.post_message(SourceReady(profile, source))

    def on_source_ready(self, message: SourceReady) -> None:
        self.app.push_screen(ProfileEditor(message.profile, message.source), self.profile_saved)

    def profile_saved(self, name: str | None) -> None:
        if name:
            self.status.news(f"Saved profile “{name}”")
            self.reload()

    def action_delete(self) -> None:
        if self.tab == "vault":
            self.delete_card()
            return
        row = self.current_row()
        if row is None:
            return
        if row["built_in"]:
            self.status.news("Built-in profiles are read-only: n makes one of your own", error=True)
            self.app.bell()
            return
        self.confirm_then_act(f"Delete profile “{row['name']}”?",
                              "Tokenize calls and captures that name it will be refused; cards it put in the "
                              "vault stay there. This can't be undone.", lambda: self.delete_profile(row))

    def delete_profile(self, row: dict[str, Any]) -> str:
        self.app.engine.tokenisation.delete(row["id"])
        return f"Deleted profile “{row['name']}”"

    def on_action_done(self, message: ActionDone) -> None:
        super().on_action_done(message)
        self.reload()

    # --- the tester --------------------------------------------------------------------------

    def action_load_sample(self) -> None:
        self.tester.pick_sample()

    def action_dry_run(self) -> None:
        self.tester.dry_run()

    def action_tokenise(self) -> None:
        self.tester.tokenise_for_real()

    def action_capture(self) -> None:
        self.tester.focus_capture()

    def on_tester_news(self, message: TesterNews) -> None:
        self.status.news(message.text, error=message.error)

    def on_tester_done(self, message: TesterDone) -> None:
        self.status.news(message.outcome.news)
        if message.outcome.stored:
            self.vault.reload()

    def on_tester_failed(self, message: TesterFailed) -> None:
        self.status.news(message.text, error=True)

    # --- the vault ---------------------------------------------------------------------------

    def action_wipe_cvv(self) -> None:
        if card := self.vault.current():
            self.act(lambda: self.wipe_cvv(card))

    def wipe_cvv(self, card: dict[str, Any]) -> str:
        self.app.engine.vault.wipe_cvv(card["token"], ACTOR)
        return f"Wiped the CVV of {card['card_number']}" if card["has_cvv"] else \
            f"No CVV was held for {card['card_number']}"

    def delete_card(self) -> None:
        if card := self.vault.current():
            self.confirm_then_act(f"Delete the card {card['card_number']}?",
                                  f"Its token {card['token']} will find nothing from now on. This can't be undone.",
                                  lambda: self.delete_from_vault(card))

    def delete_from_vault(self, card: dict[str, Any]) -> str:
        self.app.engine.vault.delete(card["token"], ACTOR)
        return f"Deleted the card {card['card_number']} from the vault"
