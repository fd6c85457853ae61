"""Engine: the one facade that the console, the CLI and HTTP mode call."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from datetime import timedelta
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from backend.bookings.store import has_legacy_cards, has_unnamed_bookings
from backend.core.changes import noter
from backend.core.config import Config
from backend.core.errors import CannotStart
from backend.core.events import Change, EventBus
from backend.identity.service import Identity
from backend.outbox import changes
from backend.properties.store import property_count
from backend.upgrades.steps import run_pending
from storage import Connection, SqliteStore, Store, is_postgres_url, open_store
from storage.reads import ReadStore, replica_statuses

if TYPE_CHECKING:
    from backend.bookings.service import Bookings
    from backend.channels.service import Channels
    from backend.chat.drafts import Drafts
    from backend.chat.embed import ChatEmbed
    from backend.chat.notes import ThreadNotes
    from backend.chat.service import Chat
    from backend.chat.stay import ThreadStays
    from backend.chat.templates import MessageTemplates
    from backend.core.keys import Keys
    from backend.distribution.service import Distribution
    from backend.identity.models import Actor
    from backend.identity.users import Users
    from backend.inventory.availability_rules import AvailabilityRules
    from backend.inventory.service import Inventory
    from backend.message_rules.service import MessageRules
    from backend.outbox.deliverer import Deliverer, Route, Sweep
    from backend.outbox.lease import ServerAddresses
    from backend.properties.applications import Applications
    from backend.properties.facilities import Facilities
    from backend.properties.media import Media
    from backend.properties.service import Properties
    from backend.reviews.service import Reviews
    from backend.shopping.service import Shopping
    from backend.vault.capture import Capture, CaptureTarget
    from backend.vault.card_form import CardForm
    from backend.vault.keeping import Vault
    from backend.vault.pci_keys import PciKeys
    from backend.vault.service import Tokenisation
    from backend.webhooks.service import Webhooks


class Engine:
    """Each service is built on first use, and its modules imported then: the console's start needs the inbox's few
    (identity, chat), and a third of a second of imports (inventory, bookings, distribution, pydantic models) waits
    for the area that needs it."""

    def __init__(self, store: Store, config: Config | None = None) -> None:
        self.store = store
        self.config = config or Config()
        self.events = EventBus()
        self.events.subscribe(noter(store))  # other processes' consoles learn the kind
        self.keys.check(store)  # before anything is written: a database of other keys is refused as it is
        self.identity = Identity(store)
        self.facilities.seed()
        if has_legacy_cards(store):
            self.bookings.cards.move_legacy(store, self.keys)
        if has_unnamed_bookings(store):
            from backend.bookings.finding import name_unnamed

            name_unnamed(store)
        run_pending(self)
        self._captures: dict[str, Capture] = {}  # by the secure listener's address (capture_via)
        self.reads = self._reads()

    def _reads(self) -> Store | ReadStore:
        """Where reads that may be behind by `replica_lag_bound` go (the shopping API's): the hot standbys of
        `read_dbs`, each checked now, while they keep up; the store itself without any."""
        if not self.config.read_dbs:
            return self.store
        _replicas_need_postgres(self.store.dialect.name == "postgresql")
        from storage.replicas import read_store

        return read_store(self.store, self.config.read_dbs,  # type: ignore[arg-type]  # PostgreSQL's: checked above
                          self.config.replica_lag_bound)

    @cached_property
    def property_users(self) -> Users:
        from backend.identity.users import Users

        return Users(self.store, "property", self._unassign)

    @cached_property
    def group_users(self) -> Users:
        from backend.identity.users import Users

        return Users(self.store, "group", self._unassign)

    def _unassign(self, conn: Connection, user_id: str) -> None:
        """A withdrawn user's threads on the properties they no longer reach are nobody's (in the same transaction)."""
        from backend.chat.store import unassign_unreached

        unassign_unreached(conn, user_id, self.chat.now())

    def _unassign_property(self, conn: Connection, property_id: str) -> None:
        """A property a group let go: its threads assigned to users who no longer reach it are nobody's."""
        from backend.chat.store import unassign_unreaching

        unassign_unreaching(conn, property_id, self.chat.now())

    @cached_property
    def facilities(self) -> Facilities:
        from backend.properties.facilities import Facilities

        return Facilities(self.store)

    @cached_property
    def media(self) -> Media:
        from backend.properties.media import Media

        return Media(self.store, self.config.base_url, self.config.fetch_timeout, self.config.logo_max_bytes,
                     self.config.fetch_private_addresses, self.config.attachment_max_bytes)

    @cached_property
    def properties(self) -> Properties:
        from backend.properties.service import Properties

        return Properties(self.store, self.events, self.media, self.facilities, self.inventory.hotel_policies,
                          self.inventory.photos, self.config.clock, self._unassign_property)

    @cached_property
    def channels(self) -> Channels:
        from backend.channels.service import Channels

        return Channels(self.store, self.events, lambda: self.keys, self.config.fetch_private_addresses,
                        self.config.clock)

    @cached_property
    def applications(self) -> Applications:
        from backend.properties.applications import Applications

        return Applications(self.store, self.events, self.properties)

    @cached_property
    def keys(self) -> Keys:
        return keys_of(self.store.path if isinstance(self.store, SqliteStore) else None, self.config)

    @cached_property
    def inventory(self) -> Inventory:
        from backend.inventory.service import Inventory

        return Inventory(self.store, self.events, self.config.clock, self.media.id_of)

    @cached_property
    def availability_rules(self) -> AvailabilityRules:
        from backend.inventory.availability_rules import AvailabilityRules

        return AvailabilityRules(self.store, self.events, self.config.clock)

    @cached_property
    def shopping(self) -> Shopping:
        from backend.shopping.service import Shopping

        return Shopping(self.reads, self.config.clock)

    @cached_property
    def bookings(self) -> Bookings:
        from backend.bookings.cards import BookingCards
        from backend.bookings.service import Bookings

        return Bookings(self.store, self.events, BookingCards(lambda: self.vault, lambda: self.card_form,
                                                              lambda: self.keys),
                        self.config.clock)

    @cached_property
    def chat(self) -> Chat:
        from backend.chat.attachments import Attachments
        from backend.chat.service import Chat

        return Chat(self.store, self.events, Attachments(self.store, self.config.base_url,
                                                         self.config.attachment_max_bytes), self.config.clock)

    @cached_property
    def reviews(self) -> Reviews:
        from backend.reviews.service import Reviews

        return Reviews(self.store, self.events, self.config.clock)

    @cached_property
    def embed(self) -> ChatEmbed:
        from backend.chat.embed import ChatEmbed

        return ChatEmbed(self.store, self.chat)

    @cached_property
    def drafts(self) -> Drafts:
        from backend.chat.drafts import Drafts

        return Drafts(self.store, self.chat)

    @cached_property
    def notes(self) -> ThreadNotes:
        from backend.chat.notes import ThreadNotes

        return ThreadNotes(self.store, self.events, self.chat)

    @cached_property
    def message_templates(self) -> MessageTemplates:
        from backend.chat.templates import MessageTemplates

        return MessageTemplates(self.store, self.chat)

    @cached_property
    def message_rules(self) -> MessageRules:
        from backend.message_rules.service import MessageRules

        return MessageRules(self.store, self.chat, self.config.clock)

    @cached_property
    def thread_stays(self) -> ThreadStays:
        from backend.chat.stay import ThreadStays

        return ThreadStays(self.store, self.chat, self.bookings, self.shopping)

    # The card vault: its modules (lxml, jsonpath-ng, httpx) are a tenth of a second of import that the console's
    # start and the main listeners never need.

    @cached_property
    def pci_keys(self) -> PciKeys:
        from backend.vault.pci_keys import PciKeys

        return PciKeys(self.store)

    @cached_property
    def vault(self) -> Vault:
        from backend.vault.keeping import Vault

        return Vault(self.store, self.keys, self.config.clock, cvv_ttl=timedelta(hours=self.config.vault_cvv_hours),
                     purge_days=self.config.vault_purge_days)

    @cached_property
    def tokenisation(self) -> Tokenisation:
        from backend.vault.service import Tokenisation

        return Tokenisation(self.store, self.vault, self.config.clock, self.config.tokenise_max_bytes)

    @cached_property
    def card_form(self) -> CardForm:
        from backend.vault.card_form import CardForm

        return CardForm(self.store, self.vault, self.config.pci_url)

    @cached_property
    def capture(self) -> Capture:
        """The server's capture, through its own secure listener."""
        return self._capture_at(self.config.capture_url)

    def _capture_at(self, secure_url: str) -> Capture:
        from backend.vault.capture import Capture

        return Capture(self.tokenisation, secure_url, self.config.capture_allow_list,
                       lambda: self.keys.internal_secret, self.config.capture_timeout, self.config.tokenise_max_bytes,
                       self.config.fetch_private_addresses)

    def capture_target(self, given: str | None = None) -> CaptureTarget | None:
        """Where a capture from this process (the console's tester) reaches the secure listener: the address it was
        given (`frontdesk --secure-url`), else the one that the `frontdesk serve` running on this database recorded,
        else nowhere. Read afresh each time: servers start and stop."""
        from backend.vault.capture import CaptureTarget

        if given:
            return CaptureTarget(given.rstrip("/"), "option")
        server = self.running_server()
        return CaptureTarget(server.secure, "server") if server else None

    def capture_via(self, target: CaptureTarget) -> Capture:
        """Capture through the secure listener at `target` (`capture` is the server's own)."""
        if target.url not in self._captures:
            self._captures[target.url] = self._capture_at(target.url)
        return self._captures[target.url]

    # --- events out ---------------------------------------------------------------------------

    @cached_property
    def webhooks(self) -> Webhooks:
        from backend.webhooks.service import Webhooks
        from backend.webhooks.trials import Trials

        config = self.config
        trials = Trials(config.webhook_tests_per_minute, shared=config.limits_storage, workers=config.workers)
        return Webhooks(self.store, self.events, self.properties, self.inventory.ari, lambda: self.keys,
                        config.fetch_private_addresses, trials)

    @cached_property
    def distribution(self) -> Distribution:
        from backend.distribution.service import Distribution

        return Distribution(self.store, self.events, self.channels, self.inventory.ari.calendar, self.config.clock,
                            lambda: self.keys, self.config.fetch_private_addresses)

    def routes(self) -> list[Route]:
        """Where the outbox's events go: each kind of destination."""
        return [self.webhooks.route, self.distribution.route]

    def sweeps(self) -> tuple[Sweep, ...]:
        """What the deliverer records of time passing: bookings not acknowledged, the nights that enter or
        leave each property's window, photo uploads no photo took, and the messages rules send."""
        from backend.bookings.non_acked import tell_non_acked
        from backend.distribution.window_moves import sweep
        from backend.properties.media import prune_uploads

        return (tell_non_acked, sweep, prune_uploads, self.message_rules.sweep)

    def outbox_status(self, actor: Actor) -> dict[str, Any]:
        """How far behind the outbox is for what the actor manages: each webhook and ARI channel, and the oldest change
        waiting for any active one (backend/outbox/status.py); and each read replica of this process, in use or why
        not (storage/reads.py `ReplicaStatus`; none without `read_dbs`). Forbidden to one who manages neither."""
        from backend.outbox.status import summary

        status = summary(self.store, lambda: [*self.webhooks.statuses(actor), *self.distribution.statuses(actor)],
                         self.config.clock())
        return {**status, "read_replicas": [asdict(replica) for replica in replica_statuses(self.reads)]}

    @contextmanager
    def delivering(self, kind: str, addresses: ServerAddresses | None = None, *,
                   after: float = 0.0) -> Iterator[Deliverer]:
        """Run the deliverer while the block runs: it delivers if this process gets the lease (`serve`, or the
        `console` when no server holds the database), and on PostgreSQL in every `serve` (backend/outbox/deliverer.py);
        any commit of this process wakes it at once, and the stamper's NOTIFY any commit of another. A server gives its listeners'
        `addresses`, recorded beside the lease while it holds it (`running_server`). The deliverer makes its routes
        and takes its first look `after` seconds on (a console paints its first page first)."""
        from backend.outbox.deliverer import Deliverer
        from backend.outbox.lease import deliverer_lease

        deliverer = Deliverer(self.store, self.routes, deliverer_lease(self.store, kind, addresses), self.config.clock,
                              max_attempts=self.config.delivery_max_attempts,
                              backoff_base=self.config.delivery_backoff, sweeps=self.sweeps())
        unsubscribe = self.events.subscribe(lambda _event: deliverer.wake.set())
        deliverer.start(after)
        try:
            yield deliverer
        finally:
            unsubscribe()
            deliverer.stop()

    @classmethod
    def open(cls, target: str | Path, config: Config | None = None) -> Engine:
        """The engine over the database at `target`: a SQLite file's path, or a `postgresql://` URL. Without keys
        it can use, the database is refused before it is touched."""
        config = config or Config()
        if config.read_dbs:
            _replicas_need_postgres(is_postgres_url(target))
        if config.db_direct and not is_postgres_url(target):
            raise CannotStart("--db-direct is the PostgreSQL server's own address when --db is a pooler's: a SQLite "
                              "--db has no pooler; leave --db-direct out")
        _ = keys_of(None if is_postgres_url(target) else Path(target), config).data_key  # read for its check
        return cls(open_store(target, direct=config.db_direct), config)

    @property
    def location(self) -> str:
        """Where the database is: a path, or a URL without its password."""
        return self.store.location

    def running_server(self) -> ServerAddresses | None:
        """The listeners of the `frontdesk serve` running on this database now, if one is."""
        from backend.outbox.lease import running_server

        return running_server(self.store)

    def change_stamp(self) -> int:
        """Changes when another process commits: how a console notices writes by other processes."""
        return self.store.change_stamp()

    def changes_mark(self) -> changes.Mark:
        """Where `changes_since` starts: now."""
        return changes.newest(self.store)

    def changes_since(self, mark: changes.Mark) -> tuple[changes.Mark, frozenset[Change]]:
        """What was written since `mark` (by any process; backend/outbox/changes.py): each change's kind and subject;
        and the next mark."""
        return changes.since(self.store, mark)

    def close(self) -> None:
        """Give the database's connections back (a PostgreSQL pool's are closed; SQLite's this thread's), and the
        replicas'."""
        if self.reads is not self.store:
            self.reads.close()
        self.store.close()

    def is_empty(self) -> bool:
        return property_count(self.store) == 0


def _replicas_need_postgres(postgres: bool) -> None:
    if not postgres:
        raise CannotStart("read replicas (--read-db) are hot standbys of a PostgreSQL primary: a SQLite --db has "
                          "none; give --db postgresql://…, or leave --read-db out")


def keys_of(sqlite_path: Path | None, config: Config) -> Keys:
    """The database's keys: the file the config names, else the one beside a SQLite file, else the environment."""
    from backend.core.keys import Keys

    return Keys(config.keys_path or (sqlite_path.with_name(sqlite_path.name + ".keys") if sqlite_path else None))
