-- Data steps: repairs of stored data that need the engine's own rules (masking card numbers already stored in clear,
-- sealing secrets with the vault's key), run once per database by backend/data_steps.py when an engine opens it.
-- `changed` is how many values the step found and changed, for operators to read.
CREATE TABLE data_steps (
    name TEXT PRIMARY KEY,
    applied_at TEXT NOT NULL,
    changed INTEGER NOT NULL DEFAULT 0
);
