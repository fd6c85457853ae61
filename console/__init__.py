"""The Textual console and the `frontdesk` command line. cli.py imports Textual (through console.app)
only when the console opens, so that `frontdesk serve` stays headless."""
