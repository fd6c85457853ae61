-- The names of a booking's guests (the customer's and each room's), folded for search (backend/listing.py, `fold`),
-- one person a line. NULL until the engine has read them from the booking's latest revision: a booking stored before
-- this step is named when an engine next opens the database (backend/bookings/finding.py).
ALTER TABLE bookings ADD COLUMN guest_names TEXT;
CREATE INDEX bookings_unnamed ON bookings(id) WHERE guest_names IS NULL;
