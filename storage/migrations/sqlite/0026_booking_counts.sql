-- How many bookings each property has in each status, kept by triggers: the bookings list's `meta.total` is then a
-- sum over a few rows per property instead of a count over every booking (issue 24: a page of 50 took 463 ms at
-- 100,000 bookings). The newest-first order gets an index of its own, so the first page stops at its 50th row.
CREATE TABLE booking_counts (
    property_id TEXT NOT NULL,
    status TEXT NOT NULL,
    bookings INTEGER NOT NULL,
    PRIMARY KEY (property_id, status)
) WITHOUT ROWID;

INSERT INTO booking_counts (property_id, status, bookings)
    SELECT property_id, status, count(*) FROM bookings GROUP BY property_id, status;

CREATE TRIGGER booking_counts_insert AFTER INSERT ON bookings BEGIN
    INSERT INTO booking_counts (property_id, status, bookings) VALUES (NEW.property_id, NEW.status, 1)
    ON CONFLICT (property_id, status) DO UPDATE SET bookings = bookings + 1;
END;

CREATE TRIGGER booking_counts_delete AFTER DELETE ON bookings BEGIN
    UPDATE booking_counts SET bookings = bookings - 1 WHERE property_id = OLD.property_id AND status = OLD.status;
END;

CREATE TRIGGER booking_counts_update AFTER UPDATE OF property_id, status ON bookings
WHEN OLD.property_id <> NEW.property_id OR OLD.status <> NEW.status
BEGIN
    UPDATE booking_counts SET bookings = bookings - 1 WHERE property_id = OLD.property_id AND status = OLD.status;
    INSERT INTO booking_counts (property_id, status, bookings) VALUES (NEW.property_id, NEW.status, 1)
    ON CONFLICT (property_id, status) DO UPDATE SET bookings = bookings + 1;
END;

CREATE INDEX bookings_newest ON bookings(inserted_at DESC, id);
