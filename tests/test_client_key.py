"""Who a client is (web/http/client_key.py): an IPv4 address, an IPv6 address's /64; the
connections one client holds open in a worker are counted under that key too."""

from __future__ import annotations

import socket

import pytest

from web.http.answer_headers import EVERY_ANSWER, header_lines
from web.http.client_key import client_key
from web.http.connections_per_address import REFUSAL, ConnectionsPerAddress


@pytest.mark.parametrize(
    "address, key",
    [
        ("192.0.2.1", "192.0.2.1"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:DB8:0001:0002:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),  # any spelling of it
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("fe80::1%eth0", "fe80::/64"),
        ("::1", "::/64"),
        ("::ffff:192.0.2.1", "192.0.2.1"),
        ("::ffff:c000:201", "192.0.2.1"),
        ("unknown", "unknown"),  # no address at all
        ("not:an:address", "not:an:address"),
    ],
)
def test_the_key_of_a_client_address(address, key):
    assert client_key(address) == key


def test_connections_from_one_64_share_one_cap_and_a_mapped_ipv4_address_shares_its_ipv4_cap():
    cap = ConnectionsPerAddress(1)
    outcome: dict[str, str] = {}

    def connect(address: str, meanwhile: tuple[str, ...] = ()) -> None:
        """A connection from ``address``; the connections from ``meanwhile`` arrive while it is open."""
        server_side, client_side = socket.socketpair()
        with server_side, client_side:
            client_side.shutdown(socket.SHUT_WR)  # its request sent: a refusal need not wait for it

            def serve(listener, client, addr) -> None:
                outcome[address] = "served"
                for other in meanwhile:
                    connect(other)

            cap.guard(serve)(None, server_side, (address, 50_000, 0, 0))
            if address not in outcome:
                outcome[address] = "refused" if client_side.recv(len(REFUSAL) + 1) == REFUSAL else "?"

    connect("2001:db8:1:2::1", meanwhile=("2001:db8:1:2:ffff::9", "2001:db8:1:3::1"))
    connect("192.0.2.1", meanwhile=("::ffff:192.0.2.1", "192.0.2.2"))
    assert outcome == {
        "2001:db8:1:2::1": "served",
        "2001:db8:1:2:ffff::9": "refused",  # the same /64, while the first holds its one place
        "2001:db8:1:3::1": "served",
        "192.0.2.1": "served",
        "::ffff:192.0.2.1": "refused",
        "192.0.2.2": "served",
    }
    assert not cap.open  # every place given back


def test_the_caps_refusal_carries_the_headers_every_answer_does():
    head = REFUSAL.partition(b"\r\n\r\n")[0]
    assert head.startswith(b"HTTP/1.1 429 ") and header_lines(EVERY_ANSWER) in head
