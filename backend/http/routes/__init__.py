"""One router a resource; each route parses, calls the engine and wraps the answer."""
