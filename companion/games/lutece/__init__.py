"""Lutèce (Nicolas Sato, Superlude 2015): the pure rules the companion stands in for.

One folder: rules.py (the Game protocol; the score cards and result in scoring.py), screens.py
(phone/host/result screens), display.py (its part of the table display), messages.py (the catalog),
testing.py (its secrets, for the generic tests), printing.py (printed cards and boards). The registry finds SPEC.
"""

from companion.games.base import GameSpec
from companion.games.lutece import messages, rules

SPEC = GameSpec(id=rules.ID, rules=rules, screens="companion.games.lutece.screens",
                display="companion.games.lutece.display", catalog=messages.MESSAGES,
                testing="companion.games.lutece.testing", printing="companion.games.lutece.printing", order=20)
