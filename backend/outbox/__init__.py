"""Events out: every change that matters outside is recorded in the transaction of the change (record), and the
deliverer sends it to the destinations that want it (webhooks, channels), at least once, in order per destination,
with retries and backoff (deliverer): one per database on SQLite (lease), one per `serve` process on PostgreSQL,
each destination served by one of them at a time."""
