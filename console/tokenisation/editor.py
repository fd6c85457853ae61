"""The tokenisation profile editor: the profile as JSON (the create shape), checked by the engine as
you type, saved whole. Built-in profiles open read-only.

The check runs 300 ms after the last keystroke, in a worker: the engine compiles every selector,
which is quick but not free, and a check that is overtaken is dropped.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Button, Label, Static, TextArea
from textual.worker import get_current_worker

from backend.core.errors import FrontdeskError, ValidationFailed
from backend.vault import samples
from backend.vault.profiles import compile_profile
from console.kit.choice import Choice
from console.kit.confirm import close_editor
from console.kit.labels import describe
from console.kit.screens import ModalScreen
from console.tokenisation.keys import PROFILE_EDITOR
from console.tokenisation.samples import FIRST, sample_options

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp

CHECK_DELAY = 0.3  # seconds of quiet before the engine checks what was typed


class Checked(Message):
    def __init__(self, problems: list[str]) -> None:
        super().__init__()
        self.problems = problems  # empty: valid


class SaveRefused(Message):
    def __init__(self, problems: list[str]) -> None:
        super().__init__()
        self.problems = problems


class ProfileSaved(Message):
    def __init__(self, profile: dict[str, Any]) -> None:
        super().__init__()
        self.profile = profile


def problem_lines(error: FrontdeskError) -> list[str]:
    """`field: message`, one a line, as the engine names them."""
    if isinstance(error, ValidationFailed):
        return [f"{field}: {message}" if field else message
                for field, messages in error.details.items() for message in messages]
    return [describe(error)]


def parse(text: str) -> tuple[Any, str | None]:
    """The JSON typed, or the reason it isn't JSON."""
    try:
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        return None, f"not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"


class ProfileEditor(ModalScreen[str | None]):
    """Dismissed with the saved profile's name, or None when closed without saving."""

    BINDINGS = PROFILE_EDITOR

    app: ConsoleApp

    def __init__(self, profile: dict[str, Any] | None, source: dict[str, Any]) -> None:
        """`profile` as the engine lists it (None for a new one); `source` its create shape."""
        super().__init__(classes="dialog-screen")
        self.profile = profile
        self.read_only = bool(profile and profile["built_in"])
        self.initial = json.dumps(source, indent=2, ensure_ascii=False)
        self.check_timer: Timer | None = None
        self.saving = False

    def compose(self) -> ComposeResult:
        if self.profile is None:
            title = "New tokenisation profile"
        elif self.read_only:
            title = f"Profile “{self.profile['name']}” · built-in, read-only"
        else:
            title = f"Edit profile “{self.profile['name']}”"
        with Vertical(id="profile-editor", classes="dialog -fits-short"):
            yield Label(title, classes="dialog-title", markup=False)
            if self.profile is None:
                with Horizontal(id="profile-start-bar", classes="filters"):
                    yield Label("Start from the sample", classes="filter-label")
                    yield Choice(sample_options(), FIRST, id="profile-start")
            yield TextArea(self.initial, id="profile-json", read_only=self.read_only, show_line_numbers=True,
                           soft_wrap=False)
            yield Static("", id="profile-check", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Close" if self.read_only else "Cancel", id="cancel")
                if not self.read_only:
                    yield Button("Save (ctrl+s)", id="save", variant="primary")

    @property
    def editor(self) -> TextArea:
        return self.query_one("#profile-json", TextArea)

    def on_mount(self) -> None:
        self.editor.focus()
        if self.read_only:  # not checked: a built-in's name is refused in an operator's profile
            check = self.query_one("#profile-check", Static)
            check.update("Built-in profiles can't be changed: n in the list makes one of your own")
            check.add_class("-read-only")
        else:
            self.check_now()

    # --- checking as you type ------------------------------------------------------------------

    def on_text_area_changed(self) -> None:
        if self.check_timer is not None:
            self.check_timer.stop()
        self.check_timer = self.set_timer(CHECK_DELAY, self.check_now)

    def check_now(self) -> None:
        data, not_json = parse(self.editor.text)
        if not_json:
            self.show([not_json])
        else:
            self.check(data)

    @work(thread=True, exclusive=True, group="check")
    def check(self, data: Any) -> None:
        worker = get_current_worker()
        try:
            compile_profile(data)
            problems: list[str] = []
        except FrontdeskError as error:
            problems = problem_lines(error)
        if not worker.is_cancelled:
            self.post_message(Checked(problems))

    def on_checked(self, message: Checked) -> None:
        self.show(message.problems)

    def show(self, problems: list[str], refused: bool = False) -> None:
        check = self.query_one("#profile-check", Static)
        check.set_class(bool(problems), "-invalid")
        if not problems:
            check.update("✓ valid")
            return
        count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
        heading = f"✕ Not saved, {count}:" if refused else f"✕ {count}:"
        check.update(Text("\n".join([heading, *(f"  {line}" for line in problems)])))

    def on_choice_changed(self, event: Choice.Changed) -> None:
        if event.choice.id == "profile-start":
            self.initial = json.dumps(samples.profile(str(event.value)), indent=2, ensure_ascii=False)
            self.editor.load_text(self.initial)

    # --- saving and leaving --------------------------------------------------------------------

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        else:
            self.action_close()

    def action_save(self) -> None:
        if self.read_only:
            self.app.bell()
            return
        data, not_json = parse(self.editor.text)
        if not_json:
            self.show([not_json], refused=True)
        elif not self.saving:
            self.saving = True
            self.save(data)

    @work(thread=True, exclusive=True, group="save")
    def save(self, data: Any) -> None:
        tokenisation = self.app.engine.tokenisation
        try:
            saved = (tokenisation.create(data) if self.profile is None
                     else tokenisation.update(self.profile["id"], data))
        except FrontdeskError as error:
            self.post_message(SaveRefused(problem_lines(error)))
        else:
            self.post_message(ProfileSaved(saved))

    def on_save_refused(self, message: SaveRefused) -> None:
        self.saving = False
        self.show(message.problems, refused=True)

    def on_profile_saved(self, message: ProfileSaved) -> None:
        self.notify(f"Saved profile “{message.profile['name']}”")
        self.dismiss(message.profile["name"])

    def has_changes(self) -> bool:
        return not self.read_only and self.editor.text != self.initial

    def action_close(self) -> None:
        close_editor(self, "profile")
