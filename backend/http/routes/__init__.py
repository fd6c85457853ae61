"""One router a resource; each route parses, calls the engine and wraps the answer.

Reads are `async def`: a WAL read is a fraction of a millisecond and never waits for a writer, so
it runs on the event loop rather than paying a thread-pool round trip. Writes are plain `def` and
run in the thread pool, because `BEGIN IMMEDIATE` may wait for another writer (or a logo fetch for
the network) and must not stall the loop.
"""
