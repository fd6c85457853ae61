"""No card number or CVV in clear anywhere on disk or in the log, as a PCI DSS assessor would look.

`frontdesk serve` runs as a user runs it, with its log in a file. A card number and a CVV made for this
test alone go everywhere a card can go: guarantees on the main and secure listeners, free-form fields
of bookings, guests' and staff's chat messages, OTA messages tokenised in the vault, capture, a logo
address. Then the database, its -wal and -shm (read while the server runs) and the log are searched.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from types import SimpleNamespace

import httpx

from backend.core.card_data import luhn_ok
from backend.vault import samples
from tests.chat.test_chat_api import Desk
from tests.conftest import User, free_port
from tests.shopping.shop import booking, check, day, make_shop
from tests.test_serve import _frontdesk, _wait_for


def unique_card() -> tuple[str, str]:
    """A Luhn-valid Visa number and a 4-digit CVV that no other test uses."""
    generator = random.Random(os.urandom(8))
    while True:
        number = "4" + "".join(generator.choice("0123456789") for _ in range(15))
        if luhn_ok(number) and number != "4111111111111111":
            return number, f"{generator.randrange(1000, 10000)}"


def spaced(number: str, separator: str = " ") -> str:
    return separator.join(number[i:i + 4] for i in range(0, 16, 4))


def test_no_card_number_or_cvv_in_clear_in_the_database_or_the_log(tmp_path):
    number, cvv = unique_card()
    db = tmp_path / "pci.db"
    token = _frontdesk("users", "add", "assessor@example.com", db=db).stdout.strip().splitlines()[-1]
    pci_key = _frontdesk("pci-keys", "add", db=db).stdout.strip().splitlines()[-1]
    ports = [free_port() for _ in range(3)]
    main, secure, pci = (f"http://127.0.0.1:{p}" for p in ports)
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "console", "serve", "--db", str(db), "--port", str(ports[0]),
         "--secure-port", str(ports[1]), "--pci-port", str(ports[2])],
        stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        _wait_for(f"{pci}/api/v1/health")
        with httpx.Client(base_url=main, headers={"Authorization": f"Bearer {token}"}, timeout=30) as client:
            _use_the_card_everywhere(User(None, token, client), number, cvv, main, secure, pci, pci_key)
        on_disk = {suffix: (tmp_path / f"pci.db{suffix}").read_bytes() for suffix in ("", "-wal", "-shm")}
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(15)
        log.close()
    on_disk["log"] = (tmp_path / "serve.log").read_bytes()

    assert on_disk["-wal"], "the server wrote through its WAL, which is searched too"
    for where, content in on_disk.items():
        for clear in (number, spaced(number), spaced(number, "."), spaced(number, "-")):
            assert clear.encode() not in content, f"the card number in clear in {where}"
        for quoted in (f'"{cvv}"', f">{cvv}<", f"={cvv}", f": {cvv}"):
            assert quoted.encode() not in content, f"the CVV in clear in {where}"


def _use_the_card_everywhere(user: User, number: str, cvv: str, main: str, secure: str, pci: str, key: str) -> None:
    guarantee = {"card_number": number, "cvv": cvv, "expiration_date": "12/2031", "cardholder_name": "A Ssessor",
                 "card_type": "visa", "meta": {"note": f"virtual card {spaced(number)}"}}
    free_text = {"notes": f"card {spaced(number)} cvv: {cvv}, or {spaced(number, '.')}",
                 "meta": {"card": number, number: "as a key", "cardCvv": cvv}}
    shop = make_shop(user, rooms=5)
    with httpx.Client(base_url=secure, timeout=30) as secure_client, httpx.Client(base_url=main, timeout=30) as anyone:
        for client, reservation in ((secure_client, "PCI-S"), (anyone, spaced(number, "-"))):
            body = booking(shop, day(2), day(4), reservation_id=reservation, guarantee=guarantee, **free_text)
            body["booking"]["customer"]["name"] = f"Card {number}"
            body["booking"]["rooms"][0]["guests"] = [{"name": "G", "surname": f"Card {number}"}]
            check(client.post(f"{shop.meta}/push_booking", json=body), 201)

    desk = Desk(user, (None, SimpleNamespace(url=main)))
    desk.guest_says(f"here is my card {spaced(number)} cvv: {cvv}")
    check(desk.client.post(f"/api/v1/bookings/{desk.booking_id}/messages",
                           json={"message": {"message": f"we took {number}"}}))
    desk.adapter.close()

    with httpx.Client(base_url=pci, params={"api_key": key}, timeout=30) as vault:
        message = json.loads(samples.message("bookings"))
        message["data"][0]["attributes"]["guarantee"].update(card_number=number, cvv=cvv)
        check(vault.post("/api/v1/tokenize", params={"profile": "frontdesk"}, json=message))
        check(vault.post("/api/v1/tokenization_profiles", json={"tokenization_profile": {
            **samples.profile("ota_hotel_res_notif"), "name": "ota"}}), 201)
        xml = samples.message("ota_hotel_res_notif").replace(b"4000056655665556", number.encode())
        assert number.encode() in xml
        tokenised = vault.post("/api/v1/tokenize", params={"profile": "ota"}, content=xml)
        assert tokenised.status_code == 200 and number not in tokenised.text
        captured = vault.post("/api/v1/capture", headers={"Authorization": f"Bearer {user.token}"}, params={
            "profile": "frontdesk", "method": "get", "url": f"{secure}/api/v1/bookings"})
        assert captured.status_code == 200 and number not in captured.text

    refused = user.client.post("/api/v1/properties", json={"property": {
        "title": "Logo", "currency": "EUR", "logo_url": f"http://xn--{number}.example/{cvv}.png"}})
    assert refused.status_code == 422
    assert httpx.get(f"{main}/api/v1/properties", headers={"Authorization": f"Bearer fd_{number}"}).status_code == 401
