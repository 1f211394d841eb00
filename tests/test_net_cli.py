"""Choosing the address for the QR code, and the command line."""

from __future__ import annotations

import socket
import subprocess
import sys

from companion.cli import port_free
from companion.net import Candidate, rank


def test_lan_address_on_default_route_wins():
    cands = [Candidate("127.0.0.1", "lo"), Candidate("172.17.0.1", "docker0"), Candidate("169.254.3.4", "eth1"),
             Candidate("10.8.0.2", "tun0"), Candidate("192.168.56.1", "vboxnet0"),
             Candidate("192.168.1.23", "wlan0", default_route=True), Candidate("192.168.1.99", "eth0")]
    order = [c.ip for c in rank(cands)]
    assert order[0] == "192.168.1.23"
    assert order[1] == "192.168.1.99"
    assert order.index("127.0.0.1") > order.index("10.8.0.2")
    assert set(order[-5:]) == {"127.0.0.1", "172.17.0.1", "169.254.3.4", "10.8.0.2", "192.168.56.1"}


def test_port_in_use_names_the_option():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()
    port = s.getsockname()[1]
    try:
        msg = port_free("127.0.0.1", port)
        assert msg and "--port" in msg and str(port) in msg
    finally:
        s.close()


def test_help_documents_every_option():
    out = subprocess.run([sys.executable, "-m", "companion", "--help"], capture_output=True, text=True,
                         timeout=60).stdout
    for opt in ("--host", "--port", "--data-dir", "--public-url", "--no-browser", "print"):
        assert opt in out
