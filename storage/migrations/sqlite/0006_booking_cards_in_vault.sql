-- A booking's card lives in the card vault: each revision holds the vault's token of its card (or none).
-- The engine moves the cards that booking_cards held into the vault when it first opens the database
-- (backend/bookings/cards.py, move_legacy) and empties that table, which stays only for that move.
ALTER TABLE booking_revisions ADD COLUMN card_token TEXT;
