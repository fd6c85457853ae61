-- Photos (reference §12), as SQLite's 0035: one table that a property's and a room type's `content.photos` and
-- /api/v1/photos all read and write; positions dense and unique per property and room type.
CREATE TABLE photos (
    id text PRIMARY KEY,
    property_id text NOT NULL REFERENCES properties(id) ON DELETE CASCADE,
    room_type_id text REFERENCES room_types(id) ON DELETE CASCADE,
    url text NOT NULL,
    kind text NOT NULL DEFAULT 'photo',
    position integer NOT NULL,
    author text,
    description text,
    title text,
    media_id text REFERENCES media(id),
    inserted_at text NOT NULL,
    updated_at text NOT NULL
);
CREATE UNIQUE INDEX photos_place ON photos(property_id, COALESCE(room_type_id, ''), position);
CREATE INDEX photos_room_type ON photos(room_type_id);
CREATE INDEX photos_media ON photos(media_id);

-- The photos kept in `content` until now move here, in their list's order, numbered from 0.
INSERT INTO photos (id, property_id, room_type_id, url, kind, position, author, description, title, inserted_at,
                    updated_at)
SELECT gen_random_uuid()::text, p.id, NULL, e.value->>'url', COALESCE(e.value->>'kind', 'photo'),
       (ROW_NUMBER() OVER (PARTITION BY p.id ORDER BY e.n) - 1)::integer,
       e.value->>'author', e.value->>'description', e.value->>'title', p.updated_at, p.updated_at
FROM properties p CROSS JOIN LATERAL jsonb_array_elements(p.content::jsonb -> 'photos') WITH ORDINALITY AS e(value, n)
WHERE e.value->>'url' IS NOT NULL;

INSERT INTO photos (id, property_id, room_type_id, url, kind, position, author, description, title, inserted_at,
                    updated_at)
SELECT gen_random_uuid()::text, r.property_id, r.id, e.value->>'url', COALESCE(e.value->>'kind', 'photo'),
       (ROW_NUMBER() OVER (PARTITION BY r.id ORDER BY e.n) - 1)::integer,
       e.value->>'author', e.value->>'description', e.value->>'title', r.updated_at, r.updated_at
FROM room_types r CROSS JOIN LATERAL jsonb_array_elements(r.details::jsonb -> 'photos') WITH ORDINALITY AS e(value, n)
WHERE e.value->>'url' IS NOT NULL;

UPDATE properties SET content = (content::jsonb - 'photos')::text WHERE content::jsonb ? 'photos';
UPDATE room_types SET details = (details::jsonb - 'photos')::text WHERE details::jsonb ? 'photos';
