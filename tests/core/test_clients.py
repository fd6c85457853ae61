"""Who counts as one client, and counts per key over a moving window (backend/core/clients.py)."""

from __future__ import annotations

from backend.core.clients import MovingWindow, client_of


def test_one_client_is_an_ipv4_address_or_an_ipv6_64():
    assert client_of("2001:db8:1:2::1") == client_of("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert client_of("2001:db8:1:3::1") != client_of("2001:db8:1:2::1")
    assert client_of("::ffff:203.0.113.5") == client_of("203.0.113.5") == "203.0.113.5"
    assert client_of("203.0.113.5") != client_of("203.0.113.6")


def test_a_moving_window_counts_a_burst_across_any_boundary_and_says_how_long_to_wait():
    now = [0.0]
    window = MovingWindow(3, 60, clock=lambda: now[0])

    for moment in (50.0, 70.0, 100.0):  # across what a fixed minute would split
        now[0] = moment
        assert window.hit("a") is None
    now[0] = 101.0
    refused = window.hit("a")

    assert refused == 9 and window.wait("a") == 9  # until the event of 50.0 is a minute old
    assert window.hit("b") is None  # other keys are counted apart
    now[0] = 110.0
    assert window.wait("a") is None and window.hit("a") is None and window.wait("a") == 20
