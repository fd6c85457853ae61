"""Channels: the OTAs and meta channels a property is sold on, the properties connected to each and the rate
plans each sells."""
