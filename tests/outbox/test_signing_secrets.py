"""Signing secrets (a webhook's, a push channel's) are kept sealed with the vault's key: the database file holds none in
clear, those an older version stored in clear are sealed once when the database is next opened, and every call is
still signed with the secret its receiver was shown (checked with the `standardwebhooks` package a consumer uses)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import httpx
from standardwebhooks.webhooks import Webhook

from tests.conftest import delivering_site, serve_site
from tests.distribution.hotel import make_hotel, settled
from tests.receiver import Receiver
from tests.shopping.shop import check, day
from tests.stores import Database
from tests.webhooks.hooks import make_hook


def on_disk(folder: Path) -> bytes:
    """What the database and its write-ahead log hold (not the key file beside them)."""
    return b"".join(path.read_bytes() for path in (folder / "frontdesk.db", folder / "frontdesk.db-wal")
                    if path.exists())


def in_clear(secret: str, folder: Path) -> bool:
    return secret.removeprefix("whsec_").encode() in on_disk(folder)


def test_new_signing_secrets_never_reach_the_file_in_clear(tmp_path, receiver):
    with serve_site(Database(tmp_path / "frontdesk.db"), fetch_private_addresses=True) as site:
        user = site.user()
        hotel = make_hotel(user.client, settings={"ari_distribution": "push", "ari_url": f"{receiver.url}/ari"})
        hook = make_hook(user.client, hotel.property_id, f"{receiver.url}/hooks")
        rotated = check(user.client.post(f"/api/v1/channels/{hotel.channel_id}/ari_secret"))
        secrets = [hotel.channel["ari_secret"], hook["secret"], rotated["data"]["attributes"]["ari_secret"]]
        site.engine.store.forget_history()
        assert not [secret for secret in secrets if in_clear(secret, tmp_path)]


def test_secrets_stored_in_clear_are_sealed_at_the_next_open_and_still_sign(tmp_path, receiver: Receiver):
    with serve_site(Database(tmp_path / "frontdesk.db"), fetch_private_addresses=True) as site:
        user = site.user()
        hotel = make_hotel(user.client, settings={"ari_distribution": "push", "ari_url": f"{receiver.url}/ari"})
        hook = make_hook(user.client, hotel.property_id, f"{receiver.url}/hooks")
        channel_secret, hook_secret = hotel.channel["ari_secret"], hook["secret"]
        with site.engine.store.transaction() as conn:  # as the version before kept them
            conn.execute("UPDATE channels SET ari_secret = ? WHERE id = ?", (channel_secret, hotel.channel_id))
            conn.execute("UPDATE webhooks SET secret = ? WHERE id = ?", (hook_secret, hook["id"]))
            conn.execute("DELETE FROM data_steps WHERE name = 'signing_secrets_sealed'")
        assert in_clear(channel_secret, tmp_path) and in_clear(hook_secret, tmp_path)
        site.engine.store.close()

    with delivering_site(Database(tmp_path / "frontdesk.db"), 3) as site:
        assert site.engine.store.scalar("SELECT changed FROM data_steps WHERE name = 'signing_secrets_sealed'") == 2
        assert not in_clear(channel_secret, tmp_path) and not in_clear(hook_secret, tmp_path)
        with httpx.Client(base_url=site.main.url, headers={"Authorization": f"Bearer {user.token}"},
                          timeout=10) as client:
            check(client.post(f"/api/v1/webhooks/{hook['id']}/test"))
            dataclasses.replace(hotel, client=client).restrict({"date_from": day(1), "date_to": day(2), "rate": "90"})
            settled(site.engine, hotel.channel_id)
    pushed = [arrival for arrival in receiver.received if arrival.path == "/ari"]
    tested = [arrival for arrival in receiver.received if arrival.path == "/hooks"]
    assert pushed and tested
    for arrival in pushed:
        Webhook(channel_secret).verify(arrival.body, arrival.headers)
    for arrival in tested:
        Webhook(hook_secret).verify(arrival.body, arrival.headers)
