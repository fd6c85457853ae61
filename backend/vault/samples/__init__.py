"""Sample third-party messages with a matching profile each, written for Frontdesk with public test
card numbers: for the tests, the benchmark and the console's profile tester.

    bookings             Frontdesk's booking list (3 bookings, one without a guarantee); headers placement
    ota_hotel_res_notif  OTA_HotelResNotifRQ, 2 reservations, PaymentCard attributes; headers placement
    ota_res_retrieve     OTA_ResRetrieveRS, 3 reservations, CardNumber/PlainText; token in CardNumber/@Token
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any, cast

SAMPLES = {"bookings": "json", "ota_hotel_res_notif": "xml", "ota_res_retrieve": "xml"}


def message(name: str) -> bytes:
    return files(__package__).joinpath(f"{name}.{SAMPLES[name]}").read_bytes()


def profile(name: str) -> dict[str, Any]:
    """The create body of the sample's profile."""
    return cast(dict[str, Any], json.loads(files(__package__).joinpath(f"{name}.profile.json").read_text("utf-8")))
