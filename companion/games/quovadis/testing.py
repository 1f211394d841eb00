"""What the generic tests need to know about Quo Vadis' secrets (tests/reliability/test_security.py).

`secret_twin(state, k)` edits a copy of a state (already deep-copied, open sealed rounds already
changed) so that every secret of seat k besides its sealed votes differs: laurels in hand,
laurels received, its private log.
"""

from __future__ import annotations

from typing import Any


def secret_twin(s: dict[str, Any], k: int) -> None:
    if s["phase"] != "over":
        p = s["players"][k]
        p["received"] += 977
        p["chips"].append({"value": 5, "caesar": True, "path": "9-13"})
        s["plog"][str(k)].append({"key": "quovadis.plog.received", "params": {"n": 977}})


# The restart benchmark's "long game" policy (benchmarks/restart.py).
def long_rare(state: dict[str, Any], action: dict[str, Any]) -> bool:
    """Laurel hand-overs and promises (any seat, any time), the host closing a vote."""
    return action["type"] in ("give", "promise", "close_vote")


def long_ends(state: dict[str, Any], action: dict[str, Any]) -> bool:
    """A move into the Senate's last free seat ends the game once its vote is through (a step
    later, when a one-step lookahead can no longer avoid it)."""
    from companion.games.quovadis import rules as Q

    return (action["type"] == "move" and action.get("to") == Q.SENATE
            and Q._free(state, Q.SENATE) <= 1)
