"""What a browser holds for a table, found for its Session (companion/ui/session.py).

`Credentials` is the part of `Session` that works out who this browser is at the table its
address names: the credentials it shows without being asked (`_in_hand`, for Hub.admit), and the
seat or watcher's token (`/t/CODE`), the host key (`/host/CODE`, `/display/CODE`) or the shared
device's token (`/shared/CODE`) – from the address, the host-key cookie, a one-time ticket or the
browser's storage, each where that page allows it. It sets the session's `role` and `token`.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from companion.games.base import RuleError
from companion.table.hub import InHand
from companion.table.store import StoreError
from companion.table.table import Table

if TYPE_CHECKING:
    import flet as ft

    from companion.ui import boot
    from companion.ui.session import Server

RELOAD = "reload"  # _host_token: the page is being loaded again


class Credentials:
    """Mixed into Session: what it reads and sets is the session's own (below), as are the storage
    (`_get`, `save`), presence (`_online`, `_count_in`), `_lifecycle`, `open_page` and `t` it calls."""

    page: ft.Page
    server: Server
    conn: boot.Conn
    role: str
    token: str | None
    seat: int | None
    error: str | None
    _prefetched: dict[str, Any]
    _stored: dict[str, Any]

    def _in_hand(self, kind: str, code: str, query: dict[str, list[str]]) -> InHand:
        """The credentials this browser shows without being asked – its address (`?s=`, `?k=`), its
        host-key cookie, what its page read from storage at load: a seat or watcher's token (kind
        "t"), the host key ("host", "display") or the shared device's token ("shared", never from
        the address). Nothing is asked of the browser (issue 33: a storage request for
        `seat:CODE` told a locked-out guesser that CODE exists)."""
        if kind == "shared":
            return InHand("device", [self._prefetched.get(f"shared:{code}")])
        if kind == "t":
            return InHand("seat", [(query.get("s") or [None])[0], self._prefetched.get(f"seat:{code}")])
        toks = [self.conn.host_keys.get(code), self._prefetched.get(f"host:{code}")]
        if kind == "host":
            toks.append((query.get("k") or [None])[0])
        return InHand("host", toks)

    async def _host_token(self, table: Table, query: dict[str, list[str]], route: str) -> str | None:
        """The host key from this browser's cookie for the table (`tc_h_CODE`, companion/ui/boot.py),
        else its storage; a one-time "host on another device" ticket (`?h=`) is exchanged for the
        key, which is stored, and the page opened again without the ticket. Without a valid key
        this screen only watches. The key never goes into the address: the host screen is the
        one the whole table looks at. Returns RELOAD when the page is being opened again."""
        self.role = "host"
        storage_key = f"host:{table.code}"
        ticket = (query.get("h") or [None])[0]
        if ticket is not None and self.server.redeem_ticket(table.code, ticket):
            await self.become_host(table.code, table.host_token)
            return RELOAD
        # An old host link's `?k=` never reaches a browser's session (the page's script moves it into
        # storage and out of the address first); a client without that script may still send it.
        tok = (query.get("k") or [None])[0]
        if not table.is_host(tok):
            tok = self.conn.host_keys.get(table.code)
        if not table.is_host(tok):
            tok = await self._get(storage_key, late=route)
        if isinstance(tok, str) and table.is_host(tok):
            self.token = tok
            if self._stored.get(storage_key) != tok:
                await self.save(storage_key, tok)
        else:
            self.role = "watch"
        return None

    async def _display_key(self, table: Table) -> bool:
        """/display/CODE (the table display on a second screen, issue 18.1) is the host's: it needs
        the host's key – from this browser's host cookie for the table, else its storage – like the
        host page; never from the address (the display is what the whole table reads)."""
        tok = self.conn.host_keys.get(table.code)
        if not table.is_host(tok):
            tok = await self._get(f"host:{table.code}")
        if isinstance(tok, str) and table.is_host(tok):
            self.role = "display"
            self.token = tok
            return True
        self.role = "display_denied"
        return False

    async def _shared_key(self, table: Table, query: dict[str, list[str]]) -> str | None:
        """/shared/CODE: the table's shared device (pass-and-play, issue 29). A one-time ticket from
        the host (`?d=`, Table admin → "Open the shared device") is exchanged for a new device token
        (the table's `device` entry: a device that held the last one loses the shared seats), kept in
        this browser's storage, and the address moves on without the ticket. Otherwise the token
        comes from storage only – never from the address. Role "shared" with it, else
        "shared_denied". Returns the address to move to (without the ticket) after a ticket."""
        storage_key = f"shared:{table.code}"
        ticket = (query.get("d") or [None])[0]
        if ticket is not None and self.server.redeem_device_ticket(table.code, ticket):
            try:
                reply = await table.request(table.host_token, {"op": "device"})
            except (RuleError, StoreError) as e:
                self.role = "join_error"
                self.error = self.t(e.key, **e.params) if isinstance(e, RuleError) else self.t("ui.err.store")
                return None
            await self.save(storage_key, reply["token"])
            self.role = "shared"
            self.token = reply["token"]
            self.page.on_app_lifecycle_state_change = self._lifecycle  # (hidden: covered)
            return f"/shared/{table.code}"  # (the used ticket leaves the address)
        tok = await self._get(storage_key)
        if table.is_device(tok):
            self.role = "shared"
            self.token = tok
            self.page.on_app_lifecycle_state_change = self._lifecycle  # (hidden: covered)
        else:
            self.role = "shared_denied"
        return None

    async def become_host(self, code: str, key: str) -> None:
        """Keep a host key in this browser (storage; the page's script copies it into the
        table's cookie at every load) and open the host screen anew, without the key in the address."""
        try:
            await asyncio.wait_for(self.prefs.set(f"host:{code}", key), 5)
        except Exception:
            pass
        await self.open_page(f"/host/{code}")

    async def _seat_token(self, table: Table, query: dict[str, list[str]], route: str) -> str | None:
        """The phone's seat token – from the address (`?s=`, put there when the seat was taken: a
        tab Flet re-creates after a server restart has no working storage, Flet #6412, but it
        sends its address), else from the browser's storage – and its seat, marked present.
        Returns the address to move to when the token came from storage, else None."""
        self.role = "phone"
        address = None
        tok = (query.get("s") or [None])[0]
        if tok and (table.seat_of(tok) is not None or table.is_spectator(tok)):
            if self._stored.get(f"seat:{table.code}") != tok:
                await self.save(f"seat:{table.code}", tok)
        else:
            tok = await self._get(f"seat:{table.code}", late=route)
            address = f"/t/{table.code}?s={tok}"
        self.token = tok if isinstance(tok, str) else None
        self.seat = table.seat_of(self.token)
        if self.token is not None and self._online():
            # (counted by its token, seated or not: seated again by the host, or on a free seat it
            # picks, it shows "here" at once – issue 30.5)
            self._count_in(table)
        return address
