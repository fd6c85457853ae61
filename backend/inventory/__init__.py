"""Inventory: room types, rate plans, hotel policies, and availability, rates and restrictions per night."""

# The service is in backend.inventory.service: importing a module of this package (as the console's start does)
# must not import the service and all it needs.
