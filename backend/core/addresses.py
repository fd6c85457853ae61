"""The address guard of every call Frontdesk makes to an address someone else chose: a logo, a webhook's callback,
a channel's `ari_url`, capture's allow-listed hosts.

An address may be called when it is one host's global unicast address. An IPv6 address that carries an IPv4 one
(IPv4-mapped, IPv4-compatible, SIIT's translated form, NAT64's well-known prefix, 6to4, Teredo) is judged by the
IPv4 inside, which is what a connection to it reaches: `[::ffff:127.0.0.1]` is loopback, `[64:ff9b::a9fe:a9fe]` the
link-local 169.254.169.254. Loopback, private, link-local, shared (100.64/10), benchmarking and documentation
addresses are refused unless the operator allows private addresses (`fetch_private_addresses`, an intranet's or the
tests' loopback receivers); multicast, broadcast, reserved and unspecified addresses always are.

A host name is resolved once, and every address it gives must pass: the caller then connects to one of those
addresses and never resolves the name again (backend/core/outbound_client.py), so a DNS answer that changes between the
check and the connection (DNS rebinding) reaches nothing.
"""

from __future__ import annotations

import socket
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address

PRIVATE = "points to a private or local address; it must be on the public internet"
NO_HOST = "points to a multicast, broadcast or reserved address, which is no one host's"
UNRESOLVED = "does not resolve"

# IPv6 forms whose last 32 bits are the IPv4 address reached: mapped, SIIT's translated, NAT64's well-known prefix,
# and the deprecated compatible form (whose `::` and `::1` are IPv6's own, judged as they are).
CARRY_IPV4 = (IPv6Network("::ffff:0:0/96"), IPv6Network("::ffff:0:0:0/96"), IPv6Network("64:ff9b::/96"),
              IPv6Network("::/96"))
IPV6_OWN = (IPv6Address("::"), IPv6Address("::1"))
IPV6_UNICAST = (IPv6Network("2000::/3"), IPv6Network("fc00::/7"), IPv6Network("fe80::/10"), IPv6Network("::1/128"))
IPV6_GLOBAL = IPv6Network("2000::/3")
THIS_NETWORK = IPv4Network("0.0.0.0/8")


class AddressRefused(Exception):
    """A call out was refused before any connection: `problem` says why, in the words of a field's error."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


def refusal(address: IPv4Address | IPv6Address, private_allowed: bool) -> str | None:
    """Why `address` may not be called, or None when it may."""
    for reached in inner(address):
        if not _one_host(reached):
            return NO_HOST
        if not private_allowed and not _public(reached):
            return PRIVATE
    return None


def inner(address: IPv4Address | IPv6Address) -> tuple[IPv4Address | IPv6Address, ...]:
    """The addresses a connection to `address` reaches: the IPv4 one an IPv6 form carries (a Teredo address carries
    two, its server's and its client's), else the address itself."""
    if isinstance(address, IPv4Address) or address in IPV6_OWN:
        return (address,)
    if any(address in network for network in CARRY_IPV4):
        return (IPv4Address(int(address) & 0xFFFFFFFF),)
    if address.sixtofour is not None:
        return (address.sixtofour,)
    return address.teredo or (address,)


def _one_host(address: IPv4Address | IPv6Address) -> bool:
    if address.is_multicast or address.is_unspecified:
        return False
    if isinstance(address, IPv4Address):
        return not address.is_reserved and address not in THIS_NETWORK  # 240/4 and broadcast; "this network"
    return any(address in network for network in IPV6_UNICAST)


def _public(address: IPv4Address | IPv6Address) -> bool:
    return address.is_global and (isinstance(address, IPv4Address) or address in IPV6_GLOBAL)


def checked(host: str, port: int | None, private_allowed: bool) -> list[str]:
    """The addresses of `host`, resolved once and every one allowed, to connect to in order. AddressRefused when
    any is refused (a name that also resolves to loopback is refused whole); OSError when the name does not
    resolve."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos if info[0] in (socket.AF_INET, socket.AF_INET6)))
    if not addresses:
        raise OSError(f"{host} has no IPv4 or IPv6 address")
    for address in addresses:
        problem = refusal(ip_address(address), private_allowed)
        if problem:
            raise AddressRefused(problem)
    return addresses


def host_problem(host: str, private_allowed: bool) -> str | None:
    """Why a URL's host may not be called, for the field that names it (a logo URL, a callback URL, an `ari_url`),
    or None. Checked when the URL is given, so that a caller hears of it at once; every call checks again, since a
    name may resolve elsewhere later. A name is not resolved here when private addresses are allowed: an intranet's
    names may resolve only from inside it."""
    try:
        literal = ip_address(host)
    except ValueError:
        literal = None
    if literal is not None:
        return refusal(literal, private_allowed)
    if private_allowed:
        return None
    try:
        checked(host, None, private_allowed)
    except AddressRefused as refused:
        return refused.problem
    except (OSError, UnicodeError):
        return UNRESOLVED
    return None
