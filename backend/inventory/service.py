"""The inventory service: room types, rate plans, hotel policies, photos, taxes and tax sets, and ARI, as the engine
offers them. `media_of(url)`: the upload a photo's url names (backend/properties/media.py), if any."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from backend.core.events import EventBus
from backend.inventory.ari import Ari
from backend.inventory.photos import Photos
from backend.inventory.rooms import HotelPolicies, RatePlans, RoomTypes
from backend.inventory.tax_sets import Taxes, TaxSets
from storage import Store


class Inventory:
    def __init__(self, store: Store, events: EventBus, clock: Callable[[], datetime],
                 media_of: Callable[[str], str | None] = lambda url: None) -> None:
        self.photos = Photos(store, events, media_of)
        self.room_types = RoomTypes(store, events, clock, self.photos)
        self.rate_plans = RatePlans(store, events, clock)
        self.hotel_policies = HotelPolicies(store, events, self.room_types)
        self.taxes = Taxes(store, events)
        self.tax_sets = TaxSets(store, events)
        self.ari = Ari(store, events, clock)
