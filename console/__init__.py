"""The Textual console and the `frontdesk` command line. Nothing here imports Textual at module level
except console.app and the screens, so `frontdesk serve` stays headless."""
