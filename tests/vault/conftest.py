"""A stand-in for the vault: deterministic 32-hex tokens, and a record of every call."""

from __future__ import annotations

from datetime import date

import pytest

from backend.vault.cards import CardData


class FakeVault:
    def __init__(self) -> None:
        self.calls: list[list[CardData]] = []
        self.departures: list[date | None] = []

    def __call__(self, cards: list[CardData], departures: list[date | None]) -> list[str]:
        assert len(cards) == len(departures)
        self.calls.append(list(cards))
        self.departures += departures
        issued = sum(len(call) for call in self.calls[:-1])
        return [f"{issued + n + 1:032x}" for n in range(len(cards))]

    @property
    def cards(self) -> list[CardData]:
        return [card for call in self.calls for card in call]


@pytest.fixture
def vault() -> FakeVault:
    return FakeVault()
