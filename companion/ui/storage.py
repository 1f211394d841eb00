"""The browser's storage, for a Session (companion/ui/session.py): Flet's SharedPreferences.

`Storage` is the part of `Session` that reads and writes the browser's storage: made when first
used (`prefs`), a read that gives up after 5 s – and, for a seat token or host key, takes an answer
that comes later (`_get` late=ROUTE: the phone says it is looking meanwhile: `finding`) –, and
writes that never make the screen wait (`save`, `clear`).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

import flet as ft

if TYPE_CHECKING:
    from companion.table.table import Table


class Storage:
    """Mixed into Session: what it reads and sets is the session's own (below), as are `route` and
    `render`, which a late answer calls."""

    page: ft.Page
    table: Table | None
    token: str | None
    _prefs: ft.SharedPreferences | None
    _prefetched: dict[str, Any]
    _asks: set[asyncio.Future[Any]]
    _background: set[asyncio.Future[Any]]
    _finding: bool
    _stored: dict[str, Any]
    _finding_timer: asyncio.TimerHandle | None
    _closed: bool
    _route: str

    @property
    def prefs(self) -> ft.SharedPreferences:
        """The browser's storage (Flet's SharedPreferences service), made when first used.

        Not at session start: registering the service is a socket message of its own, and a phone
        drawn from the boot cookie asks its storage nothing before its first screen (issue 31.4:
        one message fewer before a slow phone's first screen). Registered on this session's own
        page whatever the caller's context: a service made the usual way registers on
        `ft.context.page`, which is the *sender's* page inside a pubsub callback (the chime's
        storage read runs in one, ui/sound.py)."""
        if self._prefs is None:
            prefs = contextvars.Context().run(ft.SharedPreferences)  # (no page in that context)
            self.page._services.register_service(prefs)
            self._prefs = prefs
        return self._prefs

    @property
    def finding(self) -> bool:
        """The browser's storage has not answered yet: whose seat this is is not known (the join
        screen says it is looking rather than offering seats: a tap there would take a second one)."""
        return self._finding

    async def _get(self, key: str, late: str | None = None) -> Any:
        """A value from the browser's storage, None if it does not answer within 5 s.

        late=ROUTE (for a seat token or host key): an answer that comes after the 5 s is not thrown
        away – if this screen still shows ROUTE without a token then, it is drawn again with it.
        """
        if key in self._prefetched:
            return self._prefetched.pop(key)
        async def ask() -> Any:
            return await self.prefs.get(key)  # (registering the service may fail too: in the future)
        fut = asyncio.ensure_future(ask())
        self._asks.add(fut)
        fut.add_done_callback(self._asks.discard)
        try:
            return await asyncio.wait_for(asyncio.shield(fut), 5)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if self._closed and not (task is not None and task.cancelling()):
                return None  # the session closed (_on_close cancelled the read): route() stops
            raise
        except Exception:
            if late is not None and not self._closed:
                # Not an answer: until it comes (or for 15 s), the phone says it is looking
                # rather than offering the join buttons (a tap there would take a second seat).
                self._finding = True
                fut.add_done_callback(functools.partial(self._late_answer, key, late))
                self._finding_timer = asyncio.get_running_loop().call_later(15, self._stop_finding)
            else:
                fut.cancel()
            return None

    def _stop_finding(self) -> None:
        if self._finding:
            self._finding = False
            self.render(force=True)

    def _late_answer(self, key: str, route: str, fut: asyncio.Future[Any]) -> None:
        self._finding = False
        if fut.cancelled() or fut.exception() is not None or not isinstance(fut.result(), str):
            return
        if self._route != route or self.token is not None or self.table is None:
            return
        self._prefetched[key] = fut.result()
        contextvars.copy_context().run(self.page.run_task, self.route, route)

    async def save(self, key: str, value: str) -> None:
        """Store in the browser, without waiting for it (a re-created session's storage never
        answers, Flet #6412: the screen must not wait 5 s for that)."""
        async def store() -> None:
            try:
                await asyncio.wait_for(self.prefs.set(key, value), 5)
            except Exception:
                pass
        self.in_background(store())

    def in_background(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run `work` on the loop without waiting for it (held until it ends: a task nobody holds may
        be collected half-way). RuntimeError without a running loop."""
        self._background.add(task := asyncio.ensure_future(work))
        task.add_done_callback(self._background.discard)

    async def clear(self, key: str) -> None:
        """Empty `key` in the browser's storage (a seat given back), and known to be empty."""
        self._stored[key] = ""
        await self.save(key, "")
