"""SQLite storage: connections, schema migrations, transactions. Knows no domain rule."""

from storage.db import Store, new_id, owner_only, utc_now

__all__ = ["Store", "new_id", "owner_only", "utc_now"]
