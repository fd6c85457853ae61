"""The engine's sample messages, each with its profile, as the tokenisation screens offer them."""

from __future__ import annotations

from backend.vault import samples

TITLES = {"bookings": "Frontdesk bookings · JSON", "ota_hotel_res_notif": "OTA_HotelResNotifRQ · XML",
          "ota_res_retrieve": "OTA_ResRetrieveRS · XML"}
FIRST = "bookings"  # what a new profile starts from


def sample_options() -> list[tuple[str, str]]:
    """(title, sample name) for a choice."""
    return [(TITLES.get(name, name), name) for name in samples.SAMPLES]
