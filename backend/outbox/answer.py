"""The outbox status route's answer as its OpenAPI document describes it (backend/outbox/status.py builds it, and
storage/reads.py `ReplicaStatus` each read replica's line)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class Waiting(BaseModel):
    type: Literal["webhook", "channel"]
    id: str
    name: str


class DestinationStatus(Waiting):
    is_active: bool
    waiting: int = Field(description="changes waiting for it (counted up to 1,000)")
    oldest_waiting_at: str | None = Field(description="when the oldest of them happened (UTC); null when none waits")
    oldest_waiting_age: int | None = Field(description="its age in seconds")
    failing_since: str | None = Field(description="UTC; null while deliveries to it succeed")


class ReadReplica(BaseModel):
    """A hot standby of `--read-db`, as the process that answered sees it."""

    location: str = Field(description="its address without user or password: postgresql://host:port/database")
    state: Literal["in_use", "down", "lagging", "refused"] = Field(
        description="in_use: shopping reads go to it; else they go to the primary: down (it does not answer), lagging "
                    "(further behind than --replica-lag-bound), refused (no longer a standby of the primary's "
                    "database: promoted, say)")
    why: str | None = Field(description='lagging: "2.3 s past the 1 s bound" (or "not caught up yet"); refused: what '
                                        "it is instead; else null")
    lag_seconds: float | None = Field(description="how far behind the primary it may be, from its last look (an upper "
                                                  "bound; kept from before while it is down; null before any)")
    since: str = Field(description="when it came to this state (UTC)")


class OutboxStatus(BaseModel):
    oldest_waiting_at: str | None = Field(description="the oldest change waiting for an active destination (UTC)")
    oldest_waiting_age: int | None = Field(description="its age in seconds")
    oldest_waiting_for: Waiting | None
    destinations: list[DestinationStatus]
    read_replicas: list[ReadReplica] = Field(description="each --read-db of `frontdesk serve`; empty without any")


class OutboxStatusItem(BaseModel):
    id: Literal["outbox"]
    type: Literal["outbox_status"]
    attributes: OutboxStatus


class OutboxStatusEnvelope(BaseModel):
    data: OutboxStatusItem
