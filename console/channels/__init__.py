"""Channels: the list, the channel dialogs, ARI sync and delivery logs, and the integrators' webhooks."""
