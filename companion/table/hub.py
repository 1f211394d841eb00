"""All tables of one server process: create, find by join code (O(1)), load at start-up.

Join codes are 4 letters without look-alikes (no B/8, I/1, O/0, S/5, Z/2), so a code read
aloud or typed from a screen is hard to get wrong. Guessing codes is slowed per client.
"""

from __future__ import annotations

import math
import secrets
import time
from collections import defaultdict, deque
from typing import Any

from companion import i18n
from companion.games.base import RuleError
from companion.table.store import Store, StoreError
from companion.table.table import Table

CODE_ALPHABET = "ACDEFGHJKLMNPQRTUVWXY"
CODE_LEN = 4
GUESS_LIMIT = 10  # wrong codes per client per window
GUESS_WINDOW = 60.0


def normalise_code(raw: Any) -> str:
    if not isinstance(raw, str):
        return ""
    return "".join(raw.split()).upper()[:12]


def problem_text(lang: str, problem: dict[str, str]) -> str:
    """The host's message for one entry of `Hub.problems` (a table or the data file)."""
    params = {k: v for k, v in problem.items() if k != "key"}
    return i18n.t(lang, problem.get("key") or "ui.err.table_restore", **params)


class Hub:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}
        self.problems: list[dict[str, str]] = []  # tables that could not be restored
        self._guesses: dict[str, deque[float]] = defaultdict(deque)

    def load_all(self) -> None:
        """Load every table that can be read; one that cannot (a damaged page of the data file, a
        log the rules refuse) is listed in `problems` for the host and set aside, never rewritten."""
        try:
            codes = self.store.tables()
        except StoreError as e:
            self.problems.append({"key": "ui.err.tables_unreadable", "code": "", "reason": e.reason})
            codes = []
        for code in codes:
            try:
                self.tables[code] = Table.load(self.store, code)
            except StoreError as e:
                self.problems.append({"code": code, "reason": e.reason})
            except Exception as e:  # a log the rules refuse: whatever it raises, the other tables load
                self.problems.append({"code": code, "reason": f"{type(e).__name__}: {e}"})
        # the store's own findings (a file set aside, a damaged log) come first
        self.problems[:0] = [p for p in getattr(self.store, "problems", []) if p not in self.problems]

    def new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LEN))
            if code not in self.tables and all(p["code"] != code for p in self.problems):
                return code  # (a table that could not be restored keeps its code)

    def create(self, game_id: str, options: dict[str, Any] | None, seats: list[dict[str, Any]],
               seed: int | None = None) -> Table:
        code = self.new_code()
        t = Table.create(self.store, code, game_id, options, seats, seed)
        self.tables[code] = t
        return t

    def get(self, code: Any) -> Table | None:
        return self.tables.get(normalise_code(code))

    def lookup(self, code: Any, client: str = "") -> Table:
        """Find a table for a phone; wrong codes are counted per client and slowed down."""
        now = time.monotonic()
        q = self._guesses[client]
        while q and now - q[0] > GUESS_WINDOW:
            q.popleft()
        if len(q) >= GUESS_LIMIT:
            raise RuleError("tbl.err.too_many_guesses", seconds=max(1, math.ceil(GUESS_WINDOW - (now - q[0]))))
        t = self.get(code)
        if t is None:
            q.append(now)
            raise RuleError("tbl.err.no_table", code=normalise_code(code)[:8])
        return t
