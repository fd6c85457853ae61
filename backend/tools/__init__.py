"""Tools around the engine, not part of it: the demo portfolio, its conversations, and simulated guest traffic."""
