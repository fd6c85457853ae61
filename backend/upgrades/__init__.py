"""Data steps: repairs of stored data that need the engine's rules, run once per database when it is opened."""
