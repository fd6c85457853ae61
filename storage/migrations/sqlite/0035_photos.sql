-- Photos (reference §12): one table that a property's and a room type's `content.photos` and /api/v1/photos all
-- read and write. A property's own photos have no room type. Positions count from 0 (the cover) and are dense and
-- unique per property and room type (backend/inventory/photos.py keeps them so; the index is the backstop).
-- `media_id`: the upload (POST /photos/upload) the photo shows, which keeps the upload from being pruned.
CREATE TABLE photos (
    id TEXT PRIMARY KEY,
    property_id TEXT NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    room_type_id TEXT REFERENCES room_types(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT 'photo',
    position INTEGER NOT NULL,
    author TEXT,
    description TEXT,
    title TEXT,
    media_id TEXT REFERENCES media(id),
    inserted_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX photos_place ON photos(property_id, COALESCE(room_type_id, ''), position);
CREATE INDEX photos_room_type ON photos(room_type_id);
CREATE INDEX photos_media ON photos(media_id);

-- The photos kept in `content` until now move here, in their list's order (a property's list was kept sorted by
-- position), numbered from 0.
INSERT INTO photos (id, property_id, room_type_id, url, kind, position, author, description, title, inserted_at,
                    updated_at)
SELECT lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
       substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + abs(random() % 4), 1) ||
       substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))),
       p.id, NULL, json_extract(e.value, '$.url'), COALESCE(json_extract(e.value, '$.kind'), 'photo'),
       ROW_NUMBER() OVER (PARTITION BY p.id ORDER BY e.key) - 1,
       json_extract(e.value, '$.author'), json_extract(e.value, '$.description'), json_extract(e.value, '$.title'),
       p.updated_at, p.updated_at
FROM properties p, json_each(p.content, '$.photos') e
WHERE json_extract(e.value, '$.url') IS NOT NULL;

INSERT INTO photos (id, property_id, room_type_id, url, kind, position, author, description, title, inserted_at,
                    updated_at)
SELECT lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
       substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + abs(random() % 4), 1) ||
       substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))),
       r.property_id, r.id, json_extract(e.value, '$.url'), COALESCE(json_extract(e.value, '$.kind'), 'photo'),
       ROW_NUMBER() OVER (PARTITION BY r.id ORDER BY e.key) - 1,
       json_extract(e.value, '$.author'), json_extract(e.value, '$.description'), json_extract(e.value, '$.title'),
       r.updated_at, r.updated_at
FROM room_types r, json_each(r.details, '$.photos') e
WHERE json_extract(e.value, '$.url') IS NOT NULL;

UPDATE properties SET content = json_remove(content, '$.photos') WHERE json_type(content, '$.photos') IS NOT NULL;
UPDATE room_types SET details = json_remove(details, '$.photos') WHERE json_type(details, '$.photos') IS NOT NULL;
