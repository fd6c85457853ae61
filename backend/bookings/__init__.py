"""Bookings from channels and their revisions, with card data masked or sealed."""

# The service is imported from backend.bookings.service: importing a module of this package (as the console's start
# does) must not import the service and all it needs.
