"""ARI to channels: each channel's availability, rates and restrictions as the outbox's `ari` events say they changed,
by pull (a cursor feed its adapter reads and acks: pull) or push (signed calls to its `ari_url` in the service's JSON
or OpenTravel XML: route, json_format, ota_format, message). Only the plans and room types mapped to the channel go,
by its codes (mapped); values are read when they leave (reading), consecutive days with the same values as one
range (collapse), nights a channel must stop selling as closings (a stop sell, no availability). settings holds what
a channel's `settings` say and keeps its outbox destination; full_sync queues a channel's whole window; remap tells a
channel what its mapping's changes mean (a plan newly mapped: its window; one it no longer sells: closed);
window_moves tells channels the nights that enter or leave each property's window (time passing, the property's
settings); service is what the engine offers (`engine.distribution`).
"""
