-- How many bookings each property has in each status, kept by triggers (SQLite's 0026): the bookings list's
-- `meta.total` is a sum over a few rows per property, and the newest-first order has an index of its own. The
-- upsert takes the count's row lock, so two properties' writers in parallel never lose a count.
CREATE TABLE booking_counts (
    property_id text NOT NULL,
    status text NOT NULL,
    bookings integer NOT NULL,
    PRIMARY KEY (property_id, status)
);

INSERT INTO booking_counts (property_id, status, bookings)
    SELECT property_id, status, count(*) FROM bookings GROUP BY property_id, status;

CREATE FUNCTION booking_counts_add(p text, s text, delta integer) RETURNS void LANGUAGE sql AS $$
    INSERT INTO booking_counts AS c (property_id, status, bookings) VALUES (p, s, delta)
    ON CONFLICT (property_id, status) DO UPDATE SET bookings = c.bookings + delta;
$$;
CREATE FUNCTION booking_counts_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        PERFORM booking_counts_add(OLD.property_id, OLD.status, -1);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM booking_counts_add(NEW.property_id, NEW.status, 1);
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER booking_counts_rows AFTER INSERT OR DELETE ON bookings
    FOR EACH ROW EXECUTE FUNCTION booking_counts_follow();
CREATE TRIGGER booking_counts_update AFTER UPDATE OF property_id, status ON bookings
    FOR EACH ROW WHEN (OLD.property_id <> NEW.property_id OR OLD.status <> NEW.status)
    EXECUTE FUNCTION booking_counts_follow();

CREATE INDEX bookings_newest ON bookings (inserted_at DESC, id);
