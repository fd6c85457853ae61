"""Bookings from channels and their revisions, with card data masked or sealed."""

from backend.bookings.service import Bookings

__all__ = ["Bookings"]
