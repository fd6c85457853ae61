"""The pci listener's key: as `?api_key=` (the service's form) or in the header `api-key`, never in
`Authorization`, which capture forwards to the main API."""

from __future__ import annotations

import httpx


def test_the_pci_key_is_taken_from_the_query_or_the_api_key_header(pci, live):
    key = live[0].pci_keys.add("header").token
    with httpx.Client(base_url=pci.url, timeout=10) as client:
        assert client.get("/api/v1/tokenization_profiles", params={"api_key": key}).status_code == 200
        assert client.get("/api/v1/tokenization_profiles", headers={"api-key": key}).status_code == 200
        refused = client.get("/api/v1/tokenization_profiles", headers={"Authorization": f"Bearer {key}"})
        assert refused.status_code == 401 and refused.json()["errors"]["code"] == "unauthorized"
        assert client.get("/api/v1/tokenization_profiles", headers={"api-key": "nope"}).status_code == 401
