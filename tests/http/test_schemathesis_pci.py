"""Schemathesis over the pci listener's OpenAPI: tokenisation profiles, tokenize, capture and the vault
by token. Whatever it sends, the answer is never a 5xx and is what the document says (the checks of
tests/http/test_schemathesis.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests
import schemathesis

from backend.core.config import Config
from backend.vault import samples
from tests.conftest import UNTHROTTLED, LiveServer, free_port
from tests.http.test_schemathesis import CHECKS, PCI_FUZZ, _aim_at_real_objects


class PciTarget:
    def __init__(self, server: LiveServer, key: str, ids: dict[str, list[str]]) -> None:
        self.server = server
        self.key = key
        self.ids = ids
        self.cases = 0
        self.session = requests.Session()


@pytest.fixture(scope="module")
def pci_target(session_db) -> Iterator[PciTarget]:
    # No secure listener here: a capture of its address would fail fast, as a 502; fuzzed URLs are not under it.
    port = free_port()
    engine = session_db("schemathesis-pci").engine(
                         Config(pci_url=f"http://127.0.0.1:{port}", capture_timeout=1.0,
                                failed_auth_per_minute=UNTHROTTLED))
    key = engine.pci_keys.add("schemathesis").token
    made = engine.tokenisation.create(samples.profile("ota_res_retrieve"))
    profile_ids = [p["id"] for p in engine.tokenisation.profiles()] + [made["id"]]
    # Cards in the vault, so that reading, wiping and deleting by token reach real ones too.
    tokens = engine.tokenisation.tokenise(made["name"], samples.message("ota_res_retrieve"), "schemathesis").tokens
    with LiveServer(engine, "pci", port) as server:
        target = PciTarget(server, key, {"profile_id": profile_ids, "token": [t for t in tokens if t]})
        yield target
        target.session.close()
    print(f"schemathesis on pci: {target.cases} cases")


@pytest.fixture(scope="module")
def pci_schema(pci_target: PciTarget) -> schemathesis.BaseSchema:
    return schemathesis.openapi.from_url(f"{pci_target.server.url}/openapi.json")


schema = schemathesis.pytest.from_fixture("pci_schema")


@schema.parametrize()
@PCI_FUZZ
def test_answers_are_documented(case: schemathesis.Case, pci_target: PciTarget) -> None:
    _aim_at_real_objects(case, pci_target.ids)
    case.query = {**(case.query or {}), "api_key": pci_target.key}
    response = case.call(session=pci_target.session)
    pci_target.cases += 1
    case.validate_response(response, checks=CHECKS)
