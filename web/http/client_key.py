"""Who a client is, as every count by client sees it: an IPv4 address, or an IPv6 address's /64.

A provider gives each IPv6 subscriber a /64 at least (a /56 or /48 is common),
and a host picks any address in it at will: counted by its whole address, one subscriber would hold as many
allowances as it cares to use addresses.  So IPv6 is counted by its /64, the
smallest block one subscriber gets, as the field's limiters do (a /64 by
default in GitLab's per-address limits and rama's client-address key, for
instance).  Hosts on one /64 (a home, an office) then share one count, as the
hosts behind one IPv4 address already do.  An IPv4-mapped address
(``::ffff:192.0.2.1``, what a dual-stack socket reports for an IPv4 peer) is
that IPv4 address.

Every count by client uses :func:`client_key`, so they agree on who a client
is: the search allowance and the search slots' fair shares
(web/searches/rate_limit.py, from the address a trusted proxy forwarded when
there is one) and the connections each address holds open in a worker
(web/http/connections_per_address.py).
"""

from __future__ import annotations

import ipaddress

IPV6_PREFIX = 64  # bits of an IPv6 address that name its subscriber's network


def client_key(address: str) -> str:
    """The key ``address`` (a client's IP address, as text) is counted under.

    IPv4 is itself; IPv6 is its /64; IPv4-mapped IPv6 is its IPv4 address.
    Anything that is not an IP address (no address at all, a Unix socket) is
    itself.  Never raises.

    >>> client_key("192.0.2.1")
    '192.0.2.1'
    >>> client_key("2001:db8:1:2:3:4:5:6"), client_key("2001:DB8:1:2::9")
    ('2001:db8:1:2::/64', '2001:db8:1:2::/64')
    >>> client_key("::ffff:192.0.2.1")
    '192.0.2.1'
    """
    if ":" not in address:
        return address  # IPv4 (or no address): as the socket or the proxy wrote it
    try:
        ip = ipaddress.IPv6Address(address)
    except ValueError:
        return address
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    host_bits = 128 - IPV6_PREFIX
    return str(ipaddress.IPv6Network((int(ip) >> host_bits << host_bits, IPV6_PREFIX)))
