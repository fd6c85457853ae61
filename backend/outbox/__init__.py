"""Events out: every change that matters outside is recorded in the transaction of the change (record), and one
deliverer per database (lease) sends it to the destinations that want it (webhooks, channels), at least once, in
order per destination, with retries and backoff (deliverer)."""
