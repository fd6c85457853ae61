"""`frontdesk`: the console by default, plus demo, serve, users (and who is given which property or group), groups
and tokens.

Every subcommand takes `--db PATH_OR_URL` (else `$FRONTDESK_DB`, else the user data directory): a SQLite file, or
a `postgresql://` URL, whose keys come from `--keys PATH` (else `$FRONTDESK_KEYS`) or the environment. A database
that cannot be used as it is (unreachable, refused, of another version, other keys) is one line on stderr and exit
1, and nothing is written. Commands that issue a secret print it once, as the last line of their output, so scripts
can take `tail -1`. Textual is imported only when the console opens, so `frontdesk serve` stays headless.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from backend.core.config import Config
from storage.paths import default_db_path

if TYPE_CHECKING:
    from backend.engine import Engine
    from backend.identity.users import Users

DB_HELP = ("A SQLite database file, or a postgresql://user@host/db URL (else $FRONTDESK_DB, else the user data "
           "directory).")
KEYS_HELP = ("The card key and internal secret of a PostgreSQL database: a file, made there if missing (else "
             "$FRONTDESK_KEYS, else FRONTDESK_DATA_KEY and FRONTDESK_INTERNAL_SECRET). SQLite keeps <db>.keys beside "
             "its file.")


def _target(value: str | None) -> str | Path | None:
    """A database as given: a PostgreSQL URL as it is, anything else a path."""
    from storage import is_postgres_url

    return value if value is None or is_postgres_url(value) else Path(value)


def _set(name: str) -> Callable[[click.Context, click.Parameter, str | None], None]:
    def keep(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
        if value is not None:
            ctx.ensure_object(dict)[name] = _target(value) if name == "db" else Path(value)

    return keep


def _refusals() -> tuple[type[Exception], ...]:
    """What a command answers with one line: a domain error, a database or keys it cannot use."""
    from backend.core.errors import CannotStart, FrontdeskError
    from backend.core.keys import KeyFileError
    from storage import StoreError

    return FrontdeskError, StoreError, KeyFileError, CannotStart


def _say(error: Exception) -> None:
    from backend.core.errors import FrontdeskError

    if isinstance(error, FrontdeskError):
        click.echo(f"error: {error.title}" + (f": {error.details}" if error.details else ""), err=True)
    else:
        click.echo(f"error: {error}", err=True)
    sys.exit(1)


def command(group: click.Group, name: str | None = None) -> Callable:
    """A subcommand that takes `--db` and `--keys` and turns refusals into one line on stderr and exit 1."""

    def decorate(f: Callable) -> click.Command:
        @functools.wraps(f)
        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                return f(*args, **kwargs)
            except _refusals() as error:
                _say(error)

        run = click.option("--db", metavar="PATH_OR_URL", default=None, expose_value=False, callback=_set("db"),
                           help=DB_HELP)(run)
        run = click.option("--keys", metavar="PATH", default=None, expose_value=False, callback=_set("keys"),
                           help=KEYS_HELP)(run)
        return group.command(name)(run)

    return decorate


def _prefixes(_ctx: click.Context, _param: click.Parameter, values: tuple[str, ...]) -> tuple[str, ...]:
    """Whole http(s) addresses with a host: a bare word would allow nothing, or worse, be read loosely."""
    for value in values:
        if not re.fullmatch(r"https?://[^/\s@]+(/\S*)?", value):
            raise click.BadParameter(f"{value!r} is not an http(s) address such as https://api.channel.example/v1/")
    return values


def _address(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    return value if value is None else _prefixes(ctx, param, (value,))[0]


def _postgres_url(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    return value if value is None else _postgres_urls(ctx, param, (value,))[0]


def _postgres_urls(_ctx: click.Context, _param: click.Parameter, values: tuple[str, ...]) -> tuple[str, ...]:
    from storage import is_postgres_url

    for value in values:
        if not is_postgres_url(value):
            raise click.BadParameter(f"{value!r} is not a PostgreSQL address such as "
                                     "postgresql://user@host/frontdesk")
    return values


SECONDS = click.FloatRange(min=0, min_open=True)


def _engine(**config: Any):
    from backend.core.config import Config
    from backend.engine import Engine

    given = click.get_current_context().obj
    return Engine.open(given["db"], Config(keys_path=given.get("keys"), **config))


@click.group(invoke_without_command=True)
@click.option("--db", "db", metavar="PATH_OR_URL", envvar="FRONTDESK_DB", default=lambda: str(default_db_path()),
              show_default="the user data directory", help=DB_HELP)
@click.option("--keys", "keys", metavar="PATH", envvar="FRONTDESK_KEYS", default=None, help=KEYS_HELP)
@click.option("--as", "as_user", metavar="EMAIL",
              help="Open the console as this user (see `frontdesk users list`): their groups, their threads. "
                   "Default: the local operator, who sees every group.")
@click.option("--secure-url", metavar="URL", callback=_address,
              help="Where the console's tester captures: the secure API of the `frontdesk serve` on this database. "
                   "Default: the address that server recorded when it started.")
@click.option("--read-db", "read_dbs", multiple=True, metavar="URL", callback=_postgres_urls,
              help="A hot standby of the --db PostgreSQL primary that the console's Shopping preview reads from, as "
                   "`frontdesk serve --read-db` (repeatable); the Channels area says how each one is doing.")
@click.option("--replica-lag-bound", type=SECONDS, default=Config.replica_lag_bound, show_default=True,
              metavar="SECONDS", help="How far behind the primary a --read-db may be for a read.")
@click.pass_context
def main(ctx: click.Context, db: str, keys: str | None, as_user: str | None, secure_url: str | None,
         read_dbs: tuple[str, ...], replica_lag_bound: float) -> None:
    """Frontdesk, a channel manager in your terminal. Without a command, opens the console
    (filling an empty database with demo data first)."""
    ctx.ensure_object(dict).update(db=_target(db), keys=Path(keys) if keys else None)
    if ctx.invoked_subcommand is None:
        from backend.core.errors import NotFound
        from backend.tools.demo import load_demo_if_empty
        from console.app import run_console

        try:
            engine = _engine(read_dbs=read_dbs, replica_lag_bound=replica_lag_bound)
        except _refusals() as error:
            _say(error)
        load_demo_if_empty(engine)
        if as_user is not None:
            try:
                as_user = engine.identity.actor_for(as_user).email
            except NotFound:
                click.echo(f"error: there is no user {as_user}; `frontdesk users list` shows them", err=True)
                sys.exit(1)
        run_console(engine, as_user, secure_url)
    elif as_user is not None or secure_url is not None or read_dbs:
        raise click.UsageError("--as, --secure-url and --read-db are the console's; they go with no command")


@command(main)
def demo() -> None:
    """Fill an empty database with demo data; prints the demo integrator's API token last."""
    from backend.tools.demo import INTEGRATOR_EMAIL, load_demo_if_empty

    engine = _engine()
    token = load_demo_if_empty(engine)
    if token is None:
        click.echo("error: the database already holds properties; demo data goes only into an empty one", err=True)
        sys.exit(1)
    click.echo(f"Demo data loaded into {engine.location}.")
    click.echo(f"API token of {INTEGRATOR_EMAIL} (shown once):")
    click.echo(token.token)


def _sources(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    """CSP sources only: a `;` or a line break would smuggle other directives into the page's policy."""
    if not re.fullmatch(r"[A-Za-z0-9*:/.\-' ]+", value):
        raise click.BadParameter("space-separated CSP sources, such as 'self' https://pms.example")
    return value


def _origins(_ctx: click.Context, _param: click.Parameter, values: tuple[str, ...]) -> tuple[str, ...]:
    """Origins as a browser sends them (scheme, host, port; no path), or `*`: anything else would never match, and
    would go into the card form's Content-Security-Policy. Kept as the browser writes them (backend/http/cors.py)."""
    from backend.http.cors import origin

    kept = []
    for value in values:
        if (found := origin(value)) is None:
            raise click.BadParameter(f"{value!r} is not an origin such as https://book.hotel.example, or *")
        kept.append(found)
    return tuple(dict.fromkeys(kept))


def _proxies(_ctx: click.Context, _param: click.Parameter, value: str | None) -> tuple[str, ...]:
    """Addresses and networks, comma-separated, or `*`: uvicorn would take anything else as a literal that no client
    address ever is, and trust nobody without saying so."""
    import ipaddress

    proxies = tuple(item.strip() for item in (value or "").split(",") if item.strip())
    for proxy in (proxy for proxy in proxies if proxy != "*"):
        try:
            ipaddress.ip_network(proxy)
        except ValueError:
            raise click.BadParameter(f"{proxy!r} is not an IP address or network such as 10.0.0.5 or 10.0.0.0/24, "
                                     "or *") from None
    return proxies


def _redis_url(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not re.fullmatch(r"rediss?://\S+", value):
        raise click.BadParameter(f"{value!r} is not a Redis address such as redis://127.0.0.1:6379/0")
    return value


COUNT = click.IntRange(min=1)


@command(main)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, help="Main API listener.")
@click.option("--secure-port", default=8001, show_default=True, help="Secure API listener (card data).")
@click.option("--pci-port", default=8002, show_default=True, help="Card tokenisation listener.")
@click.option("--ssl-certfile", type=click.Path(exists=True, dir_okay=False), default=None,
              help="TLS certificate for the secure and pci listeners.")
@click.option("--ssl-keyfile", type=click.Path(exists=True, dir_okay=False), default=None)
@click.option("--fetch-private-addresses", is_flag=True,
              help="Let logo URLs point at loopback or private networks (refused by default).")
@click.option("--chat-frame-ancestors", default=Config.chat_frame_ancestors, show_default=True, metavar="SOURCES",
              callback=_sources, help="Who may put the web chat page in an iframe (CSP frame-ancestors, e.g. "
                                      "'https://pms.example'; * for any site).")
@click.option("--capture-allow", "capture_allow_list", multiple=True, metavar="URL_PREFIX", callback=_prefixes,
              help="Let capture also GET under this http(s) address, e.g. a channel's API (repeatable).")
@click.option("--public-url", metavar="URL", callback=_address,
              help="The main API's address as clients reach it (a proxy's; needed on 0.0.0.0). "
                   "Default: where it listens.")
@click.option("--public-secure-url", metavar="URL", callback=_address,
              help="The secure API's address as clients reach it. Default: where it listens.")
@click.option("--public-pci-url", metavar="URL", callback=_address,
              help="The pci listener's address as clients reach it. Default: where it listens.")
@click.option("--pci-docs", is_flag=True, help="Serve the interactive docs (/docs) on the pci listener too.")
@click.option("--cors-origin", "cors_origins", multiple=True, metavar="ORIGIN", callback=_origins,
              help="A site whose pages may call the shopping API and frame the card capture form, e.g. "
                   "https://book.hotel.example, or * for any (repeatable; none by default).")
@click.option("--header-timeout", type=SECONDS, default=Config.header_timeout, show_default=True,
              help="Seconds a connection has to send a request's headers (from connecting, or from the last answer).")
@click.option("--body-timeout", type=SECONDS, default=Config.body_timeout, show_default=True,
              help="Seconds a request's body has to arrive in full, beside what its length takes at --body-min-rate; "
                   "later is a 408.")
@click.option("--body-min-rate", type=COUNT, default=Config.body_min_rate, show_default=True, metavar="BYTES",
              help="Bytes a second a body is given time for, beside --body-timeout (a 14 MiB upload: about a minute).")
@click.option("--max-waiting-bodies", type=COUNT, default=Config.max_waiting_bodies, show_default=True,
              help="Requests of one client whose bodies are still arriving, per listener; one more is answered 429.")
@click.option("--idle-timeout", type=SECONDS, default=Config.idle_timeout, show_default=True,
              help="Seconds a keep-alive connection may stay silent between requests.")
@click.option("--max-connections", type=COUNT, default=Config.max_connections, show_default=True,
              help="Open connections per listener; one more is answered 503 and closed.")
@click.option("--max-requests", type=COUNT, default=Config.max_requests, show_default=True,
              help="Requests in progress per listener (not counting those whose bodies are arriving); one more is "
                   "answered 503.")
@click.option("--failed-auth-per-minute", type=COUNT, default=Config.failed_auth_per_minute, show_default=True,
              help="401 answers in a minute to one client and credential, or to one client for credentials that "
                   "match nothing, before they are answered 429.")
@click.option("--workers", type=COUNT, default=1, show_default=True,
              help="Worker processes, each with an engine of its own, sharing the three listeners (one: this "
                   "process serves alone).")
@click.option("--limits-storage", metavar="URL", callback=_redis_url,
              help="A Redis (redis://host:port/db) where every worker and host counts failed credentials and "
                   "webhook test calls. Default: each worker's memory, each limit divided by --workers.")
@click.option("--read-db", "read_dbs", multiple=True, metavar="URL", callback=_postgres_urls,
              help="A hot standby of the --db PostgreSQL primary that the shopping API reads from while it is no more "
                   "than --replica-lag-bound behind (repeatable); bookings and every write read the primary.")
@click.option("--replica-lag-bound", type=SECONDS, default=Config.replica_lag_bound, show_default=True,
              metavar="SECONDS", help="How far behind the primary a --read-db may be for a read; further, or down, and "
                                      "the primary answers.")
@click.option("--db-direct", metavar="URL", callback=_postgres_url,
              help="The PostgreSQL server's own address when --db is a pooler's (PgBouncer in transaction mode): "
                   "the lease and the migrations, which need a session of their own, connect here.")
@click.option("--forwarded-allow-ips", metavar="IPS", callback=_proxies,
              help="Proxies whose X-Forwarded-For names the client: addresses or networks, comma-separated, or * "
                   "(none by default: the connecting address is the client).")
def serve(host: str, port: int, secure_port: int, pci_port: int, ssl_certfile: str | None,
          ssl_keyfile: str | None, fetch_private_addresses: bool, chat_frame_ancestors: str,
          capture_allow_list: tuple[str, ...], public_url: str | None, public_secure_url: str | None,
          public_pci_url: str | None, pci_docs: bool, cors_origins: tuple[str, ...],
          forwarded_allow_ips: tuple[str, ...], workers: int, limits_storage: str | None, read_dbs: tuple[str, ...],
          replica_lag_bound: float, db_direct: str | None, **load: float) -> None:
    """Run the main, secure and pci HTTP listeners over one engine."""
    from backend.http.server import Listeners, serve as run

    given = click.get_current_context().obj
    run(given["db"],
        Listeners(host, port, secure_port, pci_port, ssl_certfile, ssl_keyfile, fetch_private_addresses,
                  chat_frame_ancestors, capture_allow_list, public_url=public_url,
                  public_secure_url=public_secure_url, public_pci_url=public_pci_url, pci_docs=pci_docs,
                  cors_origins=cors_origins, forwarded_allow_ips=forwarded_allow_ips, limits_storage=limits_storage,
                  read_dbs=read_dbs, replica_lag_bound=replica_lag_bound, db_direct=db_direct, **load),
        given.get("keys"), workers)


@command(main)
@click.option("--count", default=0, show_default=True, help="Events to play; 0 plays until interrupted.")
@click.option("--every", default=3.0, show_default=True, help="Seconds between events.")
@click.option("--seed", type=int, default=None, help="Repeat a run: the same seed plays the same traffic.")
@click.option("--server", default=None, help="Base URL of a running `frontdesk serve`; without it, the database.")
@click.option("--channel", "channel_keys", multiple=True, metavar="ID:INBOUND_KEY",
              help="With --server: a channel to play as (repeatable).")
def simulate(count: int, every: float, seed: int | None, server: str | None, channel_keys: tuple[str, ...]) -> None:
    """Play guest traffic into the inbox: OTA bookings whose guests write, follow-ups with files, Airbnb
    inquiries. Into the database by default, or into a running server through its channels' inbound API. It plays
    the channels' side of staff's replies too: each takes the replies waiting in its outbox and acknowledges them."""
    import random

    import httpx

    from backend.tools.simulate import EngineSink, HttpSink, Traffic, run

    if server is None:
        engine = _engine()
        sink: EngineSink | HttpSink = EngineSink(engine)
        today = engine.config.clock().date()
    else:
        keys = dict(pair.partition(":")[::2] for pair in channel_keys)
        if not keys or not all(keys.values()):
            raise click.UsageError("--server needs at least one --channel ID:INBOUND_KEY")
        sink = HttpSink(httpx.Client(base_url=server, timeout=10), keys)
        today = datetime.now(UTC).date()
    try:
        channels = sink.channels()
        if not any(c["rate_plans"] for c in channels):
            raise click.ClickException("no Booking.com or Airbnb channel sells a property with the chat app here")
        run(Traffic(channels, sink, today, random.Random(seed)), count, every, click.echo)
    except httpx.HTTPError as error:
        raise click.ClickException(f"the server refused or could not be reached: {error}") from None
    except KeyboardInterrupt:
        click.echo("stopped")


@main.group()
def users() -> None:
    """Users of the API and the console, and the properties and groups they are given (as owner or user)."""


@command(users, "add")
@click.argument("email")
def users_add(email: str) -> None:
    """Create a user with a default group of their own; prints their first API token last."""
    actor, token = _engine().identity.add_user(email)
    click.echo(f"User {actor.email} created; token id {token.id}, shown once:")
    click.echo(token.token)


ROLES = click.Choice(("user", "owner"))  # reference §11.2; the engine holds what each may do


def _given(f: Callable) -> Callable:
    """`--property ID` or `--group ID`: what users are given (one of the two, for the commands that need one)."""
    f = click.option("--group", "group_id", metavar="ID", default=None, help="A group (`groups list` shows ids).")(f)
    return click.option("--property", "property_id", metavar="ID", default=None, help="A property.")(f)


def _holder(property_id: str | None, group_id: str | None) -> tuple[Engine, Users, str]:
    """The engine, its property users or group users, and the property's or the group's id."""
    if property_id and group_id:
        raise click.UsageError("give --property or --group, not both")
    if not (property_id or group_id):
        raise click.UsageError("give --property ID or --group ID")
    engine = _engine()
    if property_id:
        return engine, engine.property_users, property_id
    return engine, engine.group_users, str(group_id)


def _role(role: str, members: Users, holder_id: str) -> str:
    """"an owner of property …", "a user of group …"."""
    return f"{'an' if role == 'owner' else 'a'} {role} of {members.kind} {holder_id}"


@command(users, "list")
@_given
def users_list(property_id: str | None, group_id: str | None) -> None:
    """E-mail addresses of every user; with --property or --group, the users given it: id, e-mail, role."""
    if not (property_id or group_id):
        for email in _engine().identity.users():
            click.echo(email)
        return
    engine, members, holder_id = _holder(property_id, group_id)
    for m in members.of(engine.identity.operator(), holder_id):
        click.echo(f"{m['id']}  {m['user']['email']}  {m['role']}")


@command(users, "invite")
@click.argument("email")
@_given
@click.option("--role", type=ROLES, default="user", show_default=True,
              help="An owner also manages the users and may delete; a user does the rest.")
def users_invite(email: str, property_id: str | None, group_id: str | None, role: str) -> None:
    """Give the user EMAIL a property or a group, in a role (a new address becomes a user: `tokens add` gives them
    an API token); prints the membership's id last."""
    engine, members, holder_id = _holder(property_id, group_id)
    member = members.invite(engine.identity.operator(), {members.holder: holder_id, "user_email": email, "role": role})
    click.echo(f"{member['user']['email']} is {_role(role, members, holder_id)}; id:")
    click.echo(member["id"])


@command(users, "role")
@click.argument("email")
@click.argument("role", type=ROLES)
@_given
def users_role(email: str, role: str, property_id: str | None, group_id: str | None) -> None:
    """Change the role of EMAIL on a property or a group to ROLE (never the last owner's to user)."""
    engine, members, holder_id = _holder(property_id, group_id)
    operator = engine.identity.operator()
    members.update(operator, members.find(operator, holder_id, email)["id"], {"role": role})
    click.echo(f"{email} is now {_role(role, members, holder_id)}.")


@command(users, "remove")
@click.argument("email")
@_given
def users_remove(email: str, property_id: str | None, group_id: str | None) -> None:
    """Take a property or a group from the user EMAIL (never from its last owner); the user stays."""
    engine, members, holder_id = _holder(property_id, group_id)
    operator = engine.identity.operator()
    members.withdraw(operator, members.find(operator, holder_id, email)["id"])
    click.echo(f"{email} removed from {members.kind} {holder_id}.")


@main.group()
def groups() -> None:
    """Groups: every property and channel belongs to one; users belong to several."""


@command(groups, "add")
@click.argument("title")
@click.argument("members", nargs=-1, required=True)
def groups_add(title: str, members: tuple[str, ...]) -> None:
    """Create a group TITLE whose members are the users MEMBERS (e-mail addresses); prints its id."""
    click.echo(_engine().identity.add_group(title, list(members)))


@command(groups, "list")
@click.argument("email")
def groups_list(email: str) -> None:
    """Groups of the user EMAIL."""
    identity = _engine().identity
    for group in identity.groups(identity.actor_for(email)):
        click.echo(f"{group['id']}  {group['title']}{'  (default)' if group['is_default'] else ''}")


@main.group()
def tokens() -> None:
    """API tokens: random, shown once, stored only as a hash, revocable."""


@command(tokens, "add")
@click.argument("email")
def tokens_add(email: str) -> None:
    """Issue another API token for EMAIL; prints it last."""
    token = _engine().identity.add_token(email)
    click.echo(f"Token id {token.id} for {email}, shown once:")
    click.echo(token.token)


@command(tokens, "list")
@click.argument("email")
def tokens_list(email: str) -> None:
    """Tokens of EMAIL: id, first characters, when issued, whether revoked."""
    for t in _engine().identity.tokens(email):
        click.echo(f"{t['id']}  {t['prefix']}…  {t['inserted_at']}  {_state(t)}")


@command(tokens, "revoke")
@click.argument("token_or_id")
def tokens_revoke(token_or_id: str) -> None:
    """Revoke a token, given its id (see `tokens list`) or the token itself."""
    _engine().identity.revoke_token(token_or_id)
    click.echo("Token revoked.")


def _state(secret: dict[str, Any]) -> str:
    """Of an API token or a tokenisation key, as the list commands show it."""
    return f"revoked {secret['revoked_at']}" if secret["revoked_at"] else "active"


@main.group("pci-keys")
def pci_keys() -> None:
    """API keys of the card tokenisation listener (`?api_key=`): shown once, stored as a hash, revocable."""


@command(pci_keys, "add")
@click.option("--label", default="", help="What the key is for, shown by `pci-keys list`.")
def pci_keys_add(label: str) -> None:
    """Issue a tokenisation API key; prints it last."""
    key = _engine().pci_keys.add(label)
    click.echo(f"Tokenisation key id {key.id}, shown once:")
    click.echo(key.token)


@command(pci_keys, "list")
def pci_keys_list() -> None:
    """Keys: id, first characters, label, when issued, whether revoked."""
    for k in _engine().pci_keys.list():
        click.echo(f"{k['id']}  {k['prefix']}…  {k['label'] or '-'}  {k['inserted_at']}  {_state(k)}")


@command(pci_keys, "revoke")
@click.argument("key_or_id")
def pci_keys_revoke(key_or_id: str) -> None:
    """Revoke a key, given its id (see `pci-keys list`) or the key itself."""
    _engine().pci_keys.revoke(key_or_id)
    click.echo("Key revoked.")


@main.group()
def vault() -> None:
    """The card vault."""


@command(vault, "purge")
@click.option("--days", type=click.IntRange(min=0), default=None,
              help="Keep cards this many days after departure (default 30, the engine's setting).")
def vault_purge(days: int | None) -> None:
    """Remove cards past their purge date (days after departure) and CVVs past their expiry; run it daily."""
    removed = _engine().vault.purge("cli", days)
    click.echo(f"Purged {removed['cards']} cards and {removed['cvvs']} CVVs.")


@main.group("db")
def database() -> None:
    """The database itself: moving it to PostgreSQL."""


@database.command("copy")
@click.option("--from", "source", metavar="PATH", required=True, help="The SQLite database to copy (it stays as it is).")
@click.option("--to", "target", metavar="URL", required=True, help="An empty PostgreSQL database: postgresql://…")
@click.option("--keys", metavar="PATH", default=None,
              help="Where the copy's keys go: the SQLite database's own, written there (0600) if the file is missing; "
                   "a file there must hold those very keys. Else FRONTDESK_DATA_KEY and FRONTDESK_INTERNAL_SECRET.")
def database_copy(source: str, target: str, keys: str | None) -> None:
    """Copy every table of a SQLite database into an empty PostgreSQL one, in one transaction, checking each
    table's row count; then serve it with `--db URL --keys PATH`."""
    from backend.engine import Engine
    from storage import is_postgres_url, open_store

    if not is_postgres_url(target):
        raise click.BadParameter("must be a postgresql:// URL", param_hint="--to")
    if not Path(source).is_file():
        raise click.BadParameter(f"{source} is not a database file", param_hint="--from")
    try:
        engine = Engine.open(Path(source))  # migrated, and its data steps run, as any command does first
        if keys is not None:
            engine.keys.copy_to(Path(keys))
        elif not os.environ.get("FRONTDESK_DATA_KEY"):
            raise click.UsageError("give --keys PATH: the copy needs the keys its cards were sealed with")
        from storage.copy import copy_database

        copy = open_store(target)
        copied = copy_database(engine.store, copy)
    except _refusals() as error:
        _say(error)
    click.echo(f"Copied {sum(copied.values())} rows of {len(copied)} tables into {copy.location}.")
    for table, rows in copied.items():
        if rows:
            click.echo(f"  {table}: {rows}")
