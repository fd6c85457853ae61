"""The bar across the top of every screen: the product, the areas (clickable), where we are, the database.

One widget drawing one line: every screen has the bar, and each widget costs a screen its opening (as eleven
widgets it was a sixth of an editor's). A tab is a span that runs `app.area(mode)` when clicked, so hovering
lights it as a link.

When the full bar leaves no room for the database (120 columns), the product keeps only its mark, and then the
tabs' counts their brackets; when the tabs still do not fit (80 columns), those other than the current one shorten
their titles (to four letters, three if that is still too wide, then two), so that every area still shows. The
crumb comes next; the database takes what room is left, losing the start of its path first. The Inbox tab carries
the count of conversations with unread guest messages, the Reviews tab that of reviews not answered yet (those a
reply can still reach), both kept live by the app.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content
from textual.markup import escape
from textual.widget import Widget

if TYPE_CHECKING:
    from console.kit.app import ConsoleApp

BRAND = "◆ Frontdesk"
# The areas whose tabs carry a count, and the app's attribute holding it.
BADGED = {"inbox": "unread_threads", "reviews": "unanswered_reviews"}
MOST = 999  # above this a badge reads "999+"
LEAST_CRUMB = 6  # columns below which the crumb is left out (the status line names the screen too)
CUTS = (4, 3, 2)  # letters the other tabs' titles keep, tried in turn until the bar fits
LEAST_PATH = 10  # columns below which the database is left out rather than shown as "…" and a few letters


def badge(count: int, short: bool) -> str:
    """" (18)"; in a short bar " 18"."""
    if not count:
        return ""
    shown = f"{min(count, MOST)}{'+' if count > MOST else ''}"
    return f" {shown}" if short else f" ({shown})"


def fit_label(label: str, room: int) -> str:
    """The database's label in `room` columns: a user's name kept before the path's end ("anna@… · …/fd.db"),
    and the path's start dropped first, as its end names the file."""
    if len(label) <= room:
        return label
    user, between, path = label.rpartition(" · ")
    keep = room - len(user + between) - 1
    if keep >= LEAST_PATH // 2 or not user:
        return user + between + "…" + path[len(path) - keep:]
    return label[:room - 1] + "…"


class AppBar(Widget):
    app: ConsoleApp

    def __init__(self, area: str, crumb: str = "") -> None:
        super().__init__()
        self.area = area
        self.crumb = crumb

    def on_mount(self) -> None:
        for counted in BADGED.values():
            self.watch(self.app, counted, lambda _count: self.refresh(), init=False)

    def render(self) -> Content:
        width = self.size.width or self.app.size.width  # before its first layout, as wide as the app
        tabs = [(area.mode, area.key, area.title) for area in self.app.AREAS]
        label = self.app.db_label
        least = min(len(label), LEAST_PATH)
        # The product's name gives way to the database's, then the counts' brackets; then, if the tabs still do
        # not fit, the other tabs' titles are cut.
        for brand, short in ((True, False), (False, False), (False, True)):
            line = self._line(tabs, brand, short, None)
            if line.cell_length + 2 + least <= width:
                break
        else:
            for cut in CUTS:
                if line.cell_length <= width:
                    break
                line = self._line(tabs, False, True, cut)
        room = width - line.cell_length - 4  # for the crumb, within " › " and a space
        if self.crumb and room >= LEAST_CRUMB:
            line += Content(" › ") + Content(self.crumb).truncate(room, ellipsis=True) + " "
        room = width - line.cell_length - 2  # for the database, within a space each side
        if room >= least:
            line += Content.styled(fit_label(label, room).rjust(room + 1) + " ", "$text-muted")
        return line

    def _line(self, tabs: list[tuple[str, str, str]], brand: bool, short: bool, cut: int | None) -> Content:
        """The product (its name, or only its mark) and the tabs, their counts bracketed or `short`, the titles
        full (`cut` None) or, but the current tab's, cut to `cut` letters."""
        parts = [f" [bold $primary]{BRAND if brand else BRAND[0]}[/]  "]
        for mode, key, title in tabs:
            count = badge(getattr(self.app, BADGED[mode]), short) if mode in BADGED else ""
            if mode == self.area:
                parts.append(f"[bold $text on $primary 30%] {key} {escape(title)}{count} [/]")
                continue
            shown = f"{title[:cut]}…" if cut is not None and len(title) > cut + 1 else title
            parts.append(f"[@click=app.area('{mode}')] {key} {escape(shown)}[b]{count}[/b] [/]")
        return Content.from_markup("".join(parts))
