"""The console's screens: one main screen per area (mode), and the editors and dialogs they open."""
