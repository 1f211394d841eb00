"""Choosing the address for the QR code, and the command line."""

from __future__ import annotations

import socket
import subprocess
import sys
from typing import Any

import pytest

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


def test_interfaces_come_from_the_os_on_every_platform(monkeypatch: pytest.MonkeyPatch) -> None:
    """net.py asks ifaddr (getifaddrs / GetAdaptersAddresses), not Linux's `ip` command: a Windows
    laptop's "Wi-Fi" adapter and a macOS "en0" are found; a Docker bridge ranks last."""
    import ifaddr

    from companion import net

    def adapter(name: str, *ips: str) -> Any:
        return ifaddr.Adapter(name, name, [ifaddr.IP(ip, 24, name) for ip in ips])
    monkeypatch.setattr(ifaddr, "get_adapters", lambda: [
        adapter("Loopback Pseudo-Interface 1", "127.0.0.1"), adapter("docker0", "172.17.0.1"),
        adapter("Wi-Fi", "192.168.1.20"), adapter("vEthernet (WSL)", "172.28.16.1")])
    monkeypatch.setattr(net, "_default_route_ip", lambda: "192.168.1.20")
    monkeypatch.setattr(net.socket, "gethostname", lambda: "localhost")
    best = net.candidates()
    assert best[0] == net.Candidate("192.168.1.20", "Wi-Fi", True)
    assert net.base_urls(8550)[0] == "http://192.168.1.20:8550"
    assert [c.ip for c in best].index("172.17.0.1") > [c.ip for c in best].index("192.168.1.20")


def test_sub_commands_through_argparse(capsys: pytest.CaptureFixture[str]) -> None:
    """`companion [serve] …` and `companion print …` are argparse sub-commands: a wrong option gets
    argparse's one-line message and exit code 2, no traceback; each --help is its own."""
    from companion.cli import main, parser

    assert main(["--bogus"]) == 2 and "unrecognized arguments: --bogus" in capsys.readouterr().err
    assert main(["serve", "--port", "abc"]) == 2 and "invalid int value" in capsys.readouterr().err
    assert main(["print", "--help"]) == 0 and "companion print" in capsys.readouterr().out
    assert main(["--help"]) == 0 and "--host-addresses" in capsys.readouterr().out
    assert parser().parse_known_args(["serve", "--port", "9000"])[0].port == 9000
