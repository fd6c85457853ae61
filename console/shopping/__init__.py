"""Shopping: a shopping channel previewed as a meta channel sees it, and test bookings."""
