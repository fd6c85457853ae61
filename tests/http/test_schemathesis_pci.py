"""Schemathesis over the pci listener's OpenAPI: tokenisation profiles, tokenize, capture and the vault
by token. Whatever it sends, the answer is never a 5xx and every failure has the error shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests
import schemathesis
from schemathesis.checks import not_a_server_error

from backend.config import Config
from backend.engine import Engine
from backend.vault import samples
from tests.conftest import LiveServer, free_port
from tests.http.test_schemathesis import FUZZ, _aim_at_real_objects, _assert_error_shape


class PciTarget:
    def __init__(self, server: LiveServer, key: str, ids: dict[str, list[str]]) -> None:
        self.server = server
        self.key = key
        self.ids = ids
        self.session = requests.Session()


@pytest.fixture(scope="module")
def pci_target(tmp_path_factory) -> Iterator[PciTarget]:
    engine = Engine.open(tmp_path_factory.mktemp("schemathesis-pci") / "frontdesk.db",
                         Config(capture_timeout=1.0))  # no secure listener here: captures fail fast, as a 502
    key = engine.pci_keys.add("schemathesis").token
    made = engine.tokenisation.create(samples.profile("ota_res_retrieve"))
    profile_ids = [p["id"] for p in engine.tokenisation.profiles()] + [made["id"]]
    with LiveServer(engine, "pci", free_port()) as server:
        target = PciTarget(server, key, {"profile_id": profile_ids})
        yield target
        target.session.close()


@pytest.fixture(scope="module")
def pci_schema(pci_target: PciTarget) -> schemathesis.BaseSchema:
    return schemathesis.openapi.from_url(f"{pci_target.server.url}/openapi.json")


schema = schemathesis.pytest.from_fixture("pci_schema")


@schema.parametrize()
@FUZZ
def test_no_server_error(case: schemathesis.Case, pci_target: PciTarget) -> None:
    _aim_at_real_objects(case, pci_target.ids)
    case.query = {**(case.query or {}), "api_key": pci_target.key}
    response = case.call(session=pci_target.session)
    case.validate_response(response, checks=[not_a_server_error])
    _assert_error_shape(response)
