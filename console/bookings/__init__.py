"""Bookings: the list, a booking's page, acknowledgements and reports to its channel."""
