"""Who answers a thread (a in the Inbox): a pick of the users of the property's group, or nobody. The current
assignee is marked and under the cursor; you are named as "you"."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from console.kit.screens import ModalScreen

NOBODY = "-"  # the option that unassigns (an id no user has)


@dataclass(frozen=True)
class Assignment:
    """What the dialog answers: the chosen user (`id`, `email`), or None for nobody."""

    user: dict[str, Any] | None


def person(user: dict[str, Any], me: str) -> str:
    return f"{user['email']} (you)" if user["id"] == me else user["email"]


class AssignDialog(ModalScreen[Assignment | None]):
    """Dismissed with the Assignment chosen, or None when cancelled."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, guest: str, users: list[dict[str, Any]], current: str | None, me: str) -> None:
        super().__init__(classes="dialog-screen")
        self.guest = guest
        self.users = users
        self.current = current
        self.me = me

    def compose(self) -> ComposeResult:
        # You first, after nobody: taking a thread yourself is what staff do most. The current one is marked.
        people = [{"id": NOBODY, "email": "Nobody (unassigned)"},
                  *sorted(self.users, key=lambda u: (u["id"] != self.me, u["email"]))]
        options = [Option(("● " if user["id"] == (self.current or NOBODY) else "  ") + person(user, self.me),
                          id=user["id"]) for user in people]
        with Vertical(id="assign-dialog", classes="dialog"):
            yield Label(f"Who answers {self.guest}?", classes="dialog-title", markup=False)
            yield OptionList(*options, id="assign-options")
            yield Static("The users of the property's group · enter chooses · esc cancels", classes="dialog-hint",
                         markup=False)

    def on_mount(self) -> None:
        options = self.query_one("#assign-options", OptionList)
        options.highlighted = options.get_option_index(self.current or NOBODY)
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        chosen = next((u for u in self.users if u["id"] == event.option.id), None)
        self.dismiss(Assignment(chosen))
