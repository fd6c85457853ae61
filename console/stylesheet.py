"""The console's stylesheet: Textual's, parsed once for each set of theme variables.

Textual re-parses every CSS source whenever it refreshes the CSS (a theme set, a mode's screen behind the app's
CSS), in a fresh stylesheet with a cold parse cache, and the next screen's CSS then starts from a cold cache again:
at start, the whole CSS was parsed twice (25 ms each). Here a refresh only marks the rules to be parsed on next
use, and variables that have not changed keep the parse cache, so that only new sources are parsed. (Textual's
fresh stylesheet guards against CSS edited live with errors in it; the console's CSS is its own.)
"""

from __future__ import annotations

from textual.css.stylesheet import Stylesheet as TextualStylesheet


class Stylesheet(TextualStylesheet):
    def set_variables(self, variables: dict[str, str]) -> None:
        if variables != self._variables:
            super().set_variables(variables)

    def reparse(self) -> None:
        self._require_parse = True
        self._rules_map = None
