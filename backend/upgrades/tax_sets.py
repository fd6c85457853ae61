"""The taxes that rate plans embedded before taxes and tax sets were the engine's own (storage 0033) moved into each
plan's own tax set, the one rule then pricing them: a data step. Amounts are read as they were priced, in the plan's
currency (rounded to its digits); a plan's taxes all share level 0, as they shared their base."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import TYPE_CHECKING

from pydantic_core import from_json

from backend.core.money import format_minor, to_minor
from backend.inventory.tax_sets import own_set
from backend.upgrades.steps import DataStep
from backend.upgrades.store import plans_with_embedded_taxes, set_plan_details
from storage import Connection

if TYPE_CHECKING:
    from backend.engine import Engine


def move(engine: Engine, conn: Connection) -> int:
    """How many taxes were moved."""
    moved = 0
    for plan in plans_with_embedded_taxes(conn):
        details = from_json(plan["details"])
        taxes = details.pop("taxes", None)
        if taxes is None:  # "taxes" was some other text of the details
            continue
        currency = plan["currency"]
        own_set(conn, plan["id"], plan["property_id"], plan["title"], currency, [
            {**tax, "rate": str(tax["rate"]) if tax["mode"] == "percent" else
             format_minor(to_minor(Decimal(str(tax["rate"])), currency), currency)} for tax in taxes])
        set_plan_details(conn, plan["id"], json.dumps(details))
        moved += len(taxes)
    return moved


STEP = DataStep("tax_sets", "taxes of rate plans moved into their own tax sets", move)
