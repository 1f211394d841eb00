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
