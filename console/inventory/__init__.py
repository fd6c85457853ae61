"""Inventory: room types, rate plans and their editors, and the ARI calendar with its range edits."""
