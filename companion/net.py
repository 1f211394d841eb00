"""Which address goes into the QR code.

Phones must reach the host over the table's Wi-Fi, so the join URL uses the machine's LAN
address. Many apps pick a VirtualBox, Docker, VPN or 169.254 address; we rank the candidates:
a private address on the interface of the default route first, then other private
addresses, then anything else; loopback, link-local and docker/veth/virtual/VPN-looking
interfaces last. `--public-url` overrides all of it.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass

import ifaddr

VIRTUAL_PREFIXES = ("docker", "br-", "veth", "virbr", "vbox", "vmnet", "tun", "tap", "wg", "zt", "tailscale",
                    "utun", "lxc", "lxd", "cni", "flannel", "podman", "vboxnet", "ham", "ppp")


@dataclass(frozen=True)
class Candidate:
    ip: str
    iface: str = ""
    default_route: bool = False

    def score(self) -> int:
        """Lower is better."""
        try:
            addr = ipaddress.ip_address(self.ip)
        except ValueError:
            return 100
        if addr.is_loopback:
            return 90
        if addr.is_link_local:
            return 80
        if self.iface.lower().startswith(VIRTUAL_PREFIXES):
            return 70
        if addr.is_private:
            if self.ip.startswith("172.17.") or self.ip.startswith("192.168.56."):  # docker0 / vbox defaults
                return 60
            return 0 if self.default_route else 10
        return 30 if self.default_route else 40


def rank(cands: list[Candidate]) -> list[Candidate]:
    seen: dict[str, Candidate] = {}
    for c in cands:
        if c.ip not in seen or (c.default_route and not seen[c.ip].default_route):
            seen[c.ip] = c
    return sorted(seen.values(), key=lambda c: (c.score(), c.ip))


def _default_route_ip() -> str | None:
    """The source address the OS would use to reach the outside; sends no packet (UDP connect)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere, nothing is sent
        return s.getsockname()[0]
    except OSError:
        return None
    finally:
        s.close()


def _interfaces() -> list[Candidate]:
    """Every IPv4 address of every network interface, on Linux, macOS and Windows alike (ifaddr:
    getifaddrs on POSIX, GetAdaptersAddresses on Windows), plus what the host name resolves to."""
    out: list[Candidate] = []
    try:
        for adapter in ifaddr.get_adapters():
            name = str(adapter.nice_name or adapter.name)
            out += [Candidate(str(ip.ip), name) for ip in adapter.ips if ip.is_IPv4]
    except (OSError, ValueError, AttributeError):  # (an unusual platform: the host name still helps)
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            out.append(Candidate(str(info[4][0])))
    except OSError:
        pass
    return out


def candidates() -> list[Candidate]:
    default_ip = _default_route_ip()
    cands = _interfaces()
    if default_ip:
        cands = [Candidate(c.ip, c.iface, c.ip == default_ip) for c in cands]
        if not any(c.ip == default_ip for c in cands):
            cands.append(Candidate(default_ip, "", True))
    cands.append(Candidate("127.0.0.1", "lo"))
    return rank(cands)


def base_urls(port: int, public_url: str | None = None) -> list[str]:
    """Join bases, best first."""
    urls = [f"http://{c.ip}:{port}" for c in candidates()]
    if public_url:
        urls = [public_url.rstrip("/")] + [u for u in urls if u != public_url.rstrip("/")]
    return urls
