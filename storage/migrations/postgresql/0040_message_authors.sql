-- Who wrote a property reply: the staff user, and the API token when it came through the API (an integration,
-- not a person at the console). Older replies keep NULL: their writer was never recorded.
ALTER TABLE messages ADD COLUMN user_id text REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE messages ADD COLUMN api_token_id text REFERENCES api_tokens(id) ON DELETE SET NULL;
