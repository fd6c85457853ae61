-- Who wrote a property reply: the staff user, and the API token when it came through the API (an integration,
-- not a person at the console). Older replies keep NULL: their writer was never recorded.
ALTER TABLE messages ADD COLUMN user_id TEXT REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE messages ADD COLUMN api_token_id TEXT REFERENCES api_tokens(id) ON DELETE SET NULL;
