"""Message rules: messages that send themselves. A rule sends a saved reply to a booking's guest on a booking event
(backend/message_rules/). The list (screen.py, over the Inbox: shift+r there, or the palette) says in plain words when
each sends, which saved reply, for whom, how many it sent and whether it is paused; a dialog writes one (editor.py),
p pauses or resumes it, and v shows what it would send to a booking of its property, filled in (preview.py)."""
