"""What the generic tools need to know about the sealed vote.

`long_script(n_seats, actions)`: the restart benchmark's log for a game that never ends by itself
(benchmarks/restart.py): rounds of secret submits, locks (the last reveals) and the host's next
question, as (seat or None for the host, action) pairs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

LONG_SEATS = 6


def long_script(actions: int) -> Iterator[tuple[int | None, dict[str, Any]]]:
    n = rnd = 0
    while n < actions:
        for i in range(LONG_SEATS):
            if n < actions:
                yield i, {"type": "submit", "value": "sv.yes" if i % 2 else "sv.no"}
                n += 1
        for i in range(LONG_SEATS):
            if n < actions:
                yield i, {"type": "lock"}
                n += 1
        if n < actions:
            rnd += 1
            yield None, {"type": "ask", "question": f"Q{rnd}"}
            n += 1
