"""Sealed vote / bid: the generic game of the table platform.

One folder: rules.py (the Game protocol), screens.py (phone/host/result screens), display.py (its
part of the table display), messages.py
(the catalog). The registry finds SPEC.
"""

from companion.games.base import GameSpec
from companion.games.sealed_vote import messages, rules

SPEC = GameSpec(id=rules.ID, rules=rules, screens="companion.games.sealed_vote.screens",
                display="companion.games.sealed_vote.display", catalog=messages.MESSAGES,
                testing="companion.games.sealed_vote.testing",
                order=0)
