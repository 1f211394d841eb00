"""Quo Vadis (Reiner Knizia): the pure rules, for a table that keeps the senators on the board.

One folder: rules.py (the Game protocol), screens.py (phone/host/result screens), display.py (its
part of the table display), messages.py
(the catalog), testing.py (its secrets, for the generic
tests), printing.py (printed cards and boards). The registry finds SPEC.
"""

from companion.games.base import GameSpec
from companion.games.quovadis import messages, rules

SPEC = GameSpec(id=rules.ID, rules=rules, screens="companion.games.quovadis.screens",
                display="companion.games.quovadis.display", catalog=messages.MESSAGES,
                testing="companion.games.quovadis.testing", printing="companion.games.quovadis.printing", order=10)
