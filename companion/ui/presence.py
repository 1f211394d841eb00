"""A session's presence at its table, for Session (companion/ui/session.py): the socket comes and goes.

`Presence` is the part of `Session` that counts this screen present at the table while its socket
is there (by the device token it holds: Table.connect / disconnect), takes it off the table's list
of screens to redraw while it is away, and lets a session that never sat go soon after its socket
dropped (companion/ui/sessions.py: Flet's own session lifetime).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.table.table import Table
from companion.ui.sessions import delete_now, expire_now, unseated_grace, waiting_add, waiting_remove

if TYPE_CHECKING:
    import flet as ft


class Presence:
    """Mixed into Session: the table, token and seat are the session's own, as is `_changed` (its
    redraw, the table's listener)."""

    page: ft.Page
    table: Table | None
    token: str | None
    seat: int | None
    _present: bool
    _changed: Callable[[Table], None]
    _dropped = False  # on_disconnect came, and no on_connect since
    _let_go: asyncio.TimerHandle | None = None
    _counted: str | None = None  # the token this screen is counted present with (Table.connect)

    def _on_disconnect(self, e: Any) -> None:
        """The socket is gone (a reload, a sleeping phone, a closed tab): not counted present, not
        redrawn while away (it leaves the table's list of screens to redraw, and comes back on
        connect), and let go soon if it never sat (see _let_go_later)."""
        self._dropped = True
        if self.table is not None:
            self.table.unsubscribe(self._changed)
            self._count_out(self.table)
        self._let_go_later()

    def _count_in(self, table: Table) -> None:
        """This screen is here: its device's token is counted present at the table (once)."""
        if self._present or self.token is None:
            return
        self._present = True
        self._counted = self.token
        table.connect(self.token)

    def _count_out(self, table: Table) -> None:
        """This screen is away (or leaves the table): the count it added goes – with the token it
        was counted with, whatever the seat or the screen's token is by now."""
        if self._present:
            self._present = False
            table.disconnect(self._counted if self._counted is not None else self.seat)
            self._counted = None

    def _online(self) -> bool:
        """Whether this screen has a socket now (Flet's session holds a connection, and no
        disconnect came since the last connect)."""
        session = self.page.session
        return not self._dropped and session is not None and session.connection is not None

    def _away_from(self, table: Table) -> None:
        """A screen that went away while it was being set up (route() subscribed it, or counted
        its seat present, after its disconnect): off the table's list, not present."""
        table.unsubscribe(self._changed)
        if table is self.table:
            self._count_out(table)

    def _let_go_later(self) -> None:
        """A session that never sat (home, a join screen, an error, a host page without its key)
        is let go `unseated_grace()` seconds after its socket dropped, not kept for Flet's hour:
        nothing on it is worth keeping (a returning tab gets a new session and the same screen).
        A seated phone, a spectator and the host keep theirs (Flet's session timeout): they come
        back to it."""
        self._keep()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._let_go = loop.call_later(unseated_grace(), self._let_go_if_never_sat)
        if self.token is None:
            waiting_add(id(self), self._let_go_if_never_sat)

    def _keep(self) -> None:
        waiting_remove(id(self))
        if self._let_go is not None:
            self._let_go.cancel()
            self._let_go = None

    def _let_go_if_never_sat(self, now: bool = False) -> None:
        """Its grace is over (or, `now`, the budget of waiting sessions is full): end it."""
        self._keep()
        if self._online() or self.token is not None:
            return
        if self.table is not None:
            self._away_from(self.table)
        if now:
            delete_now(self.page.session)
        else:
            expire_now(self.page.session)
