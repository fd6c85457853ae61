"""Helpers of the property user and group user tests: invitations over HTTP, as a client sends them."""

from __future__ import annotations

import httpx


def invite(client: httpx.Client, kind: str, holder_id: str, email: str, role: str = "user", **fields) -> httpx.Response:
    return client.post(f"/api/v1/{kind}_users", json={"invite": {f"{kind}_id": holder_id, "user_email": email,
                                                                 "role": role, **fields}})


def new_property(client: httpx.Client, title: str = "Harbour Inn", **fields) -> str:
    created = client.post("/api/v1/properties", json={"property": {"title": title, "currency": "GBP", **fields}})
    assert created.status_code == 201, created.text
    return created.json()["data"]["id"]
