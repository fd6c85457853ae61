"""The profile tester: a message (pasted, typed or one of the engine's samples) through a profile, or a
capture of an endpoint of the secure API, with what the engine made of it: the tokenised message,
the three headers and, per message node, the card as extracted (masked), its token, errors and warnings.

A capture goes to the secure API of the `frontdesk serve` running on the console's database, at the address that
server recorded, or to the one given with `frontdesk --secure-url`; the capture bar says which, or that there is
none, before anything is sent.

A run is a dry run: the engine issues placeholder tokens and keeps nothing. Only "tokenise for real"
(asked first) and a capture put cards in the vault. Nothing shown here holds a card number or a
security code in clear: the message box hides them as they appear, and results are hidden again in
case a profile that finds no card left them where they were.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Input, Label, Static, TextArea
from textual.worker import get_current_worker

from backend.core.card_data import hide_card_data
from backend.core.errors import FrontdeskError
from backend.vault import samples
from backend.vault.capture import CaptureTarget, Unreachable
from backend.vault.tokenise import NodeReport, Tokenised
from console.kit.choice import Choice
from console.kit.confirm import ConfirmDialog
from console.kit.fit_table import FitTable
from console.kit.labels import describe
from console.kit.words import counted
from console.kit.workers import engine_work, post_fresh
from console.tokenisation.message_area import MessageArea
from console.tokenisation.samples import TITLES, sample_options
from console.tokenisation.vault_browser import ACTOR

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp

NODE_COLUMNS = (("#", 2), ("Card number", 16), ("Holder", 14), ("Expiry", 6), ("CVV", 3), ("Token", 32),
                ("Errors, warnings", 16))
NODE_FLEX = "Errors, warnings"
NODE_DROP = ("Holder", "Expiry", "CVV")
CAPTURE_PATH = "/api/v1/bookings"
CAPTURE_PROFILE = "frontdesk"
SOURCES = {"server": "from the server running on this database", "option": "from --secure-url"}
NO_SERVER = "No `frontdesk serve` is running on this database: start one, or give --secure-url"


@dataclass(frozen=True)
class Unsaved:
    """A sample's own profile, not saved under its name: it can be tried, not used for real."""

    sample: str
    name: str

    @classmethod
    def of(cls, sample: str) -> Unsaved:
        return cls(sample, str(samples.profile(sample)["name"]))


Picked = str | Unsaved  # a saved profile's name, or a sample's profile


@dataclass(frozen=True)
class Outcome:
    title: str  # over the tokenised message
    news: str  # for the status line
    body: bytes
    tokenised: Tokenised | None  # None: the captured endpoint answered with an error
    stored: bool  # cards went into the vault


class TesterDone(Message):
    def __init__(self, outcome: Outcome) -> None:
        super().__init__()
        self.outcome = outcome


class TesterFailed(Message):
    """A run the engine refused; `text` says why, in its words."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class TesterNews(Message):
    """For the status line: nothing ran."""

    def __init__(self, text: str, error: bool = False) -> None:
        super().__init__()
        self.text = text
        self.error = error


class TargetFound(Message):
    """Where a capture would go now; None: nowhere."""

    def __init__(self, target: CaptureTarget | None) -> None:
        super().__init__()
        self.target = target


def target_view(target: CaptureTarget | None) -> Text:
    if target is None:
        return Text(NO_SERVER, style="bold yellow")
    return Text.assemble(("Secure API ", "dim"), target.url, (f" · {SOURCES[target.source]}", "dim"))


def counts(tokenised: Tokenised) -> str:
    nodes = tokenised.nodes
    text = f"{counted(len(nodes), 'message node')}, {counted(sum(1 for n in nodes if n.token), 'card')} tokenised"
    failed = sum(1 for node in nodes if node.errors)
    return text + (f", {failed} with errors" if failed else "")


def readable(body: bytes) -> str:
    """The message as a screen shows it: JSON indented, card numbers and security codes hidden."""
    text = body.decode("utf-8", "replace")
    if text.lstrip().startswith(("{", "[")):
        try:
            text = json.dumps(json.loads(text), indent=2, ensure_ascii=False)
        except ValueError:
            pass  # shown as it came
    return hide_card_data(text, valid_only=False)[0]


def headers_view(tokenised: Tokenised | None) -> Table | Text:
    if tokenised is None:
        return Text("No headers: the endpoint answered with an error", style="dim")
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    for name, value in tokenised.headers().items():
        grid.add_row(name, Text(value) if value else Text("(empty)", style="dim italic"))
    return grid


def node_cells(node: NodeReport) -> tuple[Text, ...]:
    card = node.card

    def shown(value: str | None) -> Text:
        return Text(value) if value else Text("—", style="dim")

    month, year = card.get("expiration_month"), card.get("expiration_year")
    problems = Text("; ").join([*(Text(error, style="bold red") for error in node.errors),
                                *(Text(warning, style="yellow") for warning in node.warnings)])
    problems.no_wrap, problems.overflow = True, "ellipsis"
    return (Text(str(node.position), justify="right"), shown(card.get("card_number")),
            shown(card.get("cardholder_name")), shown(f"{month}/{year}" if month or year else None),
            shown("***" if card.get("service_code") else None), shown(node.token), problems)


class ProfileTester(Vertical):
    app: ConsoleApp

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.saved: list[str] = []  # names of the saved and built-in profiles

    def compose(self) -> ComposeResult:
        with Horizontal(id="tester-bar", classes="filters"):
            yield Label("Profile", classes="filter-label")
            yield Choice([], prompt="choose a profile", id="tester-profile")
            yield Label("Sample", classes="filter-label")
            yield Choice(sample_options(), prompt="load a sample (l)", id="tester-sample")
        with Horizontal(id="tester-panes"):
            yield MessageArea(id="tester-message")
            yield TextArea(id="tester-result", read_only=True)
        yield Static(Text("Headers show after a run", style="dim"), id="tester-headers")
        yield FitTable(NODE_COLUMNS, NODE_FLEX, NODE_DROP, id="tester-nodes", cursor_type="row", zebra_stripes=True)
        yield Static(Text("Looking for the `frontdesk serve` of this database…", style="dim"), id="capture-target")
        with Horizontal(id="capture-bar", classes="filters"):
            yield Label("Capture GET", classes="filter-label")
            yield Input(CAPTURE_PATH, id="capture-path", compact=True)
            yield Label("with", classes="filter-label")
            yield Choice([], prompt="profile", id="capture-profile")
            yield Input(placeholder="main API token", password=True, id="capture-token", compact=True)
            yield Button("Capture", id="capture-run", compact=True)

    def on_mount(self) -> None:
        self.message_area.border_title = "Message · JSON or XML · card data hidden"
        self.result_area.border_title = "Tokenised"
        self.show_profiles()
        self.find_target()

    @property
    def message_area(self) -> MessageArea:
        return self.query_one("#tester-message", MessageArea)

    @property
    def result_area(self) -> TextArea:
        return self.query_one("#tester-result", TextArea)

    # --- profiles and samples ------------------------------------------------------------------

    def set_profiles(self, names: list[str]) -> None:
        """The saved profiles, offered once the tester is built (its tab is built on its first visit)."""
        if names == self.saved:
            return
        self.saved = names
        if self.is_mounted:
            self.show_profiles()

    def show_profiles(self) -> None:
        """The saved profiles, then the samples' own profiles that are not saved under their name."""
        names = self.saved
        options: list[tuple[str, Picked]] = [(name, name) for name in names]
        options += [(f"{choice.name} · sample, not saved", choice)
                    for choice in map(Unsaved.of, samples.SAMPLES) if choice.name not in names]
        self.keep_choice(self.query_one("#tester-profile", Choice), options)
        capture = self.query_one("#capture-profile", Choice)
        self.keep_choice(capture, [(name, name) for name in names])
        if capture.value is None and CAPTURE_PROFILE in names:
            capture.value = CAPTURE_PROFILE

    @staticmethod
    def keep_choice(choice: Choice, options: list[tuple[str, Any]]) -> None:
        """New options; the choice stays, and a sample's profile just saved is chosen by its name."""
        chosen = choice.value
        with choice.prevent(Choice.Changed):
            choice.set_options(options)
            if isinstance(chosen, Unsaved) and choice.offers(chosen.name):
                choice.value = chosen.name

    def on_choice_changed(self, event: Choice.Changed) -> None:
        if event.choice.id == "tester-sample" and isinstance(event.value, str):
            self.load_sample(event.value)

    def load_sample(self, sample: str) -> None:
        """The sample's message, and its profile: saved under its name if it is, else as the sample has it.
        The select goes back to its prompt, so that the same sample can be loaded again."""
        self.message_area.set_message(samples.message(sample).decode("utf-8"))
        self.message_area.border_title = f"{TITLES.get(sample, sample)} · card data hidden"
        sample_choice = self.query_one("#tester-sample", Choice)
        with sample_choice.prevent(Choice.Changed):
            sample_choice.clear()
        unsaved = Unsaved.of(sample)
        self.query_one("#tester-profile", Choice).value = unsaved.name if unsaved.name in self.saved else unsaved
        self.clear_result("Tokenised", "Headers show after a run")
        self.post_message(TesterNews(f"Loaded the sample {TITLES.get(sample, sample)} and its profile "
                                     f"{unsaved.name}: ctrl+r for a dry run"))

    def pick_sample(self) -> None:
        sample_choice = self.query_one("#tester-sample", Choice)
        sample_choice.focus()
        sample_choice.action_open()

    def choice(self) -> Picked | None:
        value = self.query_one("#tester-profile", Choice).value
        return value if isinstance(value, str | Unsaved) else None

    def ready(self) -> tuple[Picked, bytes] | None:
        """The profile and message to run, or None after saying what is missing."""
        choice, message = self.choice(), self.message_area.message
        if choice is None:
            self.post_message(TesterNews("Choose a profile first", error=True))
        elif not message.strip():
            self.post_message(TesterNews("Paste a message, or load a sample with l", error=True))
        else:
            return choice, message.encode("utf-8")
        return None

    # --- running -------------------------------------------------------------------------------

    def dry_run(self) -> None:
        if ready := self.ready():
            self.run_dry(*ready)

    @work(thread=True, exclusive=True, group="tester")
    def run_dry(self, choice: Picked, body: bytes) -> None:
        """Unlike a real run or a capture, which changed the vault and always report, a dry run overtaken
        by another run says nothing."""
        worker = get_current_worker()
        name = choice.name if isinstance(choice, Unsaved) else choice
        profile = samples.profile(choice.sample) if isinstance(choice, Unsaved) else choice
        try:
            tokenised = self.app.engine.tokenisation.dry_run(profile, body)
        except FrontdeskError as error:
            if not worker.is_cancelled:
                self.post_message(TesterFailed(f"Dry run with {name}: {describe(error)}"))
            return
        if not worker.is_cancelled:
            self.post_message(TesterDone(Outcome(f"Dry run of {name} · nothing stored",
                                                 f"Dry run with {name}: {counts(tokenised)} · nothing stored",
                                                 tokenised.body, tokenised, False)))

    def tokenise_for_real(self) -> None:
        ready = self.ready()
        if ready is None:
            return
        choice, body = ready
        if isinstance(choice, Unsaved):
            self.post_message(TesterNews(f"Save the profile {choice.name} first (Profiles, n, start from its "
                                         "sample): the vault names the profile of every card", error=True))
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.run_real(choice, body)

        self.app.push_screen(ConfirmDialog(
            f"Tokenise for real with “{choice}”?",
            "Every valid card of the message goes into the vault, sealed, until the purge after its guest's "
            "departure, and the tokens are real.", confirm="Tokenise"), confirmed)

    @work(thread=True, exclusive=True, group="tester")
    def run_real(self, name: str, body: bytes) -> None:
        try:
            tokenised = self.app.engine.tokenisation.tokenise(name, body, ACTOR)
        except FrontdeskError as error:
            self.post_message(TesterFailed(f"Tokenising with {name}: {describe(error)}"))
            return
        self.post_message(TesterDone(Outcome(f"Tokenised by {name} · stored in the vault",
                                             f"Tokenised with {name}: {counts(tokenised)} · stored in the vault",
                                             tokenised.body, tokenised, True)))

    # --- capture -----------------------------------------------------------------------------

    @engine_work(exclusive=True, group="capture-target")
    def find_target(self) -> None:
        """Where a capture would go now (a server may have started or stopped since the last look)."""
        post_fresh(self, TargetFound(self.app.engine.capture_target(self.app.secure_url)))

    def on_target_found(self, message: TargetFound) -> None:
        self.query_one("#capture-target", Static).update(target_view(message.target))

    def focus_capture(self) -> None:
        self.query_one("#capture-path", Input).focus()

    def capture(self) -> None:
        profile = self.query_one("#capture-profile", Choice).value
        path = self.query_one("#capture-path", Input).value.strip()
        token = self.query_one("#capture-token", Input).value.strip()
        self.run_capture(profile if isinstance(profile, str) else None, path, token)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id in ("capture-path", "capture-token"):
            event.stop()
            self.capture()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "capture-run":
            event.stop()
            self.capture()

    @work(thread=True, exclusive=True, group="tester")
    def run_capture(self, profile: str | None, path: str, token: str) -> None:
        engine = self.app.engine
        target = engine.capture_target(self.app.secure_url)  # afresh: the server may have stopped, or started
        self.post_message(TargetFound(target))
        if target is None:
            self.post_message(TesterNews(f"Nothing captured: {NO_SERVER}", error=True))
            return
        url = target.url + "/" + path.lstrip("/")
        try:
            captured = engine.capture_via(target).capture(
                profile=profile, method="get", url=url, headers={"Authorization": f"Bearer {token}"} if token else {},
                actor=ACTOR)
        except FrontdeskError as error:
            hint = (f" · nothing answered at {target.url} ({SOURCES[target.source]})"
                    if isinstance(error, Unreachable) else "")
            self.post_message(TesterFailed(f"Capture of {path}: {describe(error)}{hint}"))
            return
        tokenised = captured.tokenised
        if tokenised is None:
            outcome = Outcome(f"GET {path} answered {captured.status}: nothing captured",
                              f"Capture of {path}: the API answered {captured.status}, nothing stored",
                              captured.body, None, False)
        else:
            outcome = Outcome(f"Captured {path} with {profile} · stored in the vault",
                              f"Captured {path} with {profile}: {counts(tokenised)} · stored in the vault",
                              captured.body, tokenised, True)
        self.post_message(TesterDone(outcome))

    # --- showing what came out -----------------------------------------------------------------

    def on_tester_done(self, message: TesterDone) -> None:
        outcome = message.outcome
        self.result_area.border_title = outcome.title
        self.result_area.load_text(readable(outcome.body))
        self.query_one("#tester-headers", Static).update(headers_view(outcome.tokenised))
        nodes = self.query_one("#tester-nodes", FitTable)
        nodes.clear()
        for node in outcome.tokenised.nodes if outcome.tokenised else ():
            nodes.add_row(*node_cells(node))

    def on_tester_failed(self, message: TesterFailed) -> None:
        self.clear_result("Not tokenised", "No headers: nothing was tokenised", message.text)

    def clear_result(self, title: str, headers: str, text: str = "") -> None:
        self.result_area.border_title = title
        self.result_area.load_text(text)
        self.query_one("#tester-headers", Static).update(Text(headers, style="dim"))
        self.query_one("#tester-nodes", FitTable).clear()
