"""The inventory service: room types, rate plans, hotel policies, taxes and tax sets, and ARI, as the engine offers
them."""

from __future__ import annotations

from backend.core.events import EventBus
from backend.inventory.ari import Ari
from backend.inventory.rooms import HotelPolicies, RatePlans, RoomTypes
from backend.inventory.tax_sets import Taxes, TaxSets
from storage import Store


class Inventory:
    def __init__(self, store: Store, events: EventBus, clock) -> None:
        self.room_types = RoomTypes(store, events, clock)
        self.rate_plans = RatePlans(store, events, clock)
        self.hotel_policies = HotelPolicies(store, events, self.room_types)
        self.taxes = Taxes(store, events)
        self.tax_sets = TaxSets(store, events)
        self.ari = Ari(store, events, clock)
