"""Inbox: guests' threads and the conversation, replies and files."""
