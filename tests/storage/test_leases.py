"""The deliverer's lease, on every store: one holder at a time, a server takes it from a console, a holder that
dies loses it, and a server's record is trusted only while it holds the lease (the console's tester finds the
secure listener by it)."""

from __future__ import annotations

import subprocess
import sys
import time

from backend.outbox.lease import ServerAddresses, deliverer_lease, running_server
from storage import Store

ADDRESSES = ServerAddresses("http://127.0.0.1:9100", "http://127.0.0.1:9101", "http://127.0.0.1:9102",
                            public_secure="https://secure.hotel.example")


def test_one_holder_and_a_server_takes_it_from_a_console(store: Store):
    first, second = deliverer_lease(store, "serve"), deliverer_lease(store, "serve")
    console = deliverer_lease(store, "console")
    assert first.acquire() and first.acquire()  # renewed
    assert not second.acquire() and not console.acquire()
    assert console.holder_kind() == "serve"
    first.release()
    assert console.holder_kind() is None
    assert console.acquire()
    assert console.holder_kind() == "console"
    # A server gets it at once, or (PostgreSQL, where a lock is not taken from its holder) once the console has
    # let go of it at its next renewal.
    assert second.acquire() or (not console.acquire() and second.acquire())
    assert not console.acquire()
    assert second.holder_kind() == "serve"
    for lease in (first, second, console):
        lease.close()


def test_a_server_holding_the_lease_is_found_and_gone_once_it_releases_it(store: Store):
    server = deliverer_lease(store, "serve", ADDRESSES)
    assert running_server(store) is None  # not before it holds the lease
    assert server.acquire()
    assert running_server(store) == ADDRESSES
    server.release()
    assert running_server(store) is None
    server.close()


def test_a_console_holding_the_lease_is_no_server(store: Store):
    console = deliverer_lease(store, "console")
    assert console.acquire()
    assert running_server(store) is None
    console.close()


def test_a_holder_killed_loses_the_lease_and_its_record_counts_for_nothing(store: Store):
    """A `frontdesk serve` that takes the lease and is killed (-9) before it lets go: the next taker has it at once
    (SQLite: its process is gone from this host; PostgreSQL: its connection, and the lock with it)."""
    holder = subprocess.Popen([sys.executable, "-c", HOLD, store.location], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    assert running_server(store) == ADDRESSES
    holder.kill()
    holder.wait(10)
    taker = deliverer_lease(store, "console")
    deadline = time.monotonic() + 5
    while not taker.acquire() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert taker.holder_kind() == "console"
    assert running_server(store) is None
    taker.close()


HOLD = """
import sys, time
from backend.outbox.lease import ServerAddresses, deliverer_lease
from storage import open_store
lease = deliverer_lease(open_store(sys.argv[1]), "serve", ServerAddresses(
    "http://127.0.0.1:9100", "http://127.0.0.1:9101", "http://127.0.0.1:9102",
    public_secure="https://secure.hotel.example"))
assert lease.acquire()
print("held", flush=True)
time.sleep(60)
"""
