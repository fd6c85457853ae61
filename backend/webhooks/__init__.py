"""Webhooks for integrators, as the service's Webhooks API has them: a property's events POSTed to a callback URL
(models: what a webhook is; masks: which events it wants; payloads: what it is sent; route: how the deliverer
sends it, signed; service: managing webhooks, their delivery log and test calls)."""
