-- ARI to channels (backend/distribution/): the secret that signs a push channel's calls (Standard Webhooks). Kept
-- as it is, not hashed: signing needs it. Made when a channel first turns to push, shown once.
ALTER TABLE channels ADD COLUMN ari_secret TEXT;
