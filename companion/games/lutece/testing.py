"""What the generic tests need to know about Lutèce's secrets (tests/reliability/test_security.py).

`secret_twin(state, k)` edits a copy of a state (already deep-copied, open sealed rounds already
changed) so that every secret of seat k besides its sealed pick differs: sealed bribe amounts.
"""

from __future__ import annotations

from typing import Any


def secret_twin(s: dict[str, Any], k: int) -> None:
    if s["options"]["bribes"] == "sealed" and s["phase"] == "choose":
        stakes = s["stakes"].get(str(k), [0, 0])
        total = sum(stakes) + s["gold"][k]
        s["stakes"][str(k)] = [total, 0] if stakes != [total, 0] else [0, total]
        s["gold"][k] = 0


# The restart benchmark's "long game" policy (benchmarks/restart.py): actions a real table takes
# now and then, not as the main flow (taken only a few percent of the time).
def long_rare(state: dict[str, Any], action: dict[str, Any]) -> bool:
    """The host forcing a reveal; a cost correction during the choice."""
    return action["type"] == "reveal" or (action["type"] == "set_cost" and state["phase"] == "choose")
