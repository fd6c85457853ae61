"""Properties: the physical premises that everything else hangs from."""

from backend.properties.service import Properties

__all__ = ["Properties"]
