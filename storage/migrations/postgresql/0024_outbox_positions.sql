-- The outbox's commit-safe positions. Writers of different scopes commit in parallel, and a sequence value is
-- handed out at insert, not at commit: a deliverer reading by `seq` would pass an event still in flight below one
-- already committed, for good. Each event is stamped with `pos` after its transaction ended, in the order
-- transactions got their ids (`xid`, assigned after the scope lock, so in commit order per scope), and only below
-- the oldest transaction still running. `outbox_head` is the last position stamped, which stays when events are
-- pruned: where cursors may go.
ALTER TABLE events ADD COLUMN xid xid8 NOT NULL DEFAULT pg_current_xact_id();
ALTER TABLE events ADD COLUMN pos bigint UNIQUE;
-- Every event so far committed under the one-writer lock, so in sequence order: its position is its sequence.
UPDATE events SET pos = seq;
CREATE INDEX events_unstamped ON events (xid, seq) WHERE pos IS NULL;
CREATE TABLE outbox_head (pos bigint NOT NULL);
INSERT INTO outbox_head (pos)
    SELECT coalesce((SELECT last_value FROM pg_sequences WHERE sequencename = 'events_seq_seq'), 0);
