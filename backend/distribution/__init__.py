"""ARI to channels: each channel's availability, rates and restrictions as the outbox's `ari` events say they changed,
by pull (a cursor feed its adapter reads and acks: pull) or push (signed calls to its `ari_url` in the service's JSON
or OpenTravel XML: route, json_format, ota_format, message). Only the plans and room types mapped to the channel go,
by its codes (mapped); values are read when they leave (reading), consecutive days with the same values as one
range (collapse). settings holds what a channel's `settings` say and keeps its outbox destination; full_sync queues
a channel's whole window; service is what the engine offers (`engine.distribution`).
"""
