-- The shopping property list's index (backend/inventory/sellable.py): per channel, arrival date and property, for
-- each kind of room a mapped rate plan sells (its currency, the room's occupancy limits and the plan's largest
-- option), which stay lengths can be sold from that date. Bit n-1 of `nights` set: a stay of n nights (up to 30)
-- can be sold by some plan of that kind, its window aside; the window depends on the clock, so the property's
-- facts for it are kept beside and applied when read. Written in the transaction of every change it reads
-- (ARI, bookings, rooms, rate plans, mappings, a property's settings or being sold); only for active properties
-- connected to the channel. Filled for existing databases by the data step
-- `sellable_nights`.
CREATE TABLE sellable_nights (
    channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
    date TEXT NOT NULL,
    property_id TEXT NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    currency TEXT NOT NULL,
    adults INTEGER NOT NULL,
    children INTEGER NOT NULL,
    infants INTEGER NOT NULL,
    persons INTEGER NOT NULL,
    nights INTEGER NOT NULL,
    timezone TEXT NOT NULL,
    cut_off_time TEXT NOT NULL,
    cut_off_days INTEGER NOT NULL,
    state_length INTEGER NOT NULL,
    PRIMARY KEY (channel_id, date, property_id, currency, adults, children, infants, persons)
) WITHOUT ROWID;
CREATE INDEX sellable_nights_property ON sellable_nights(property_id, date);
-- How many active properties each channel is connected to: the total of the property list's plain pages, kept by
-- the same writer in the same transactions (a count of every row would grow with the channel).
CREATE TABLE channel_sold_counts (
    channel_id TEXT PRIMARY KEY REFERENCES channels(id) ON DELETE CASCADE,
    properties INTEGER NOT NULL
);
-- The property list's pages walk the titles in order.
CREATE INDEX properties_title ON properties(title, id);
