"""LUTETIA – the pure rules (rules page: shared/rules/lutetia.md, source: seed 000_6765f10833ce661a).

One folder: rules.py (the Game protocol; with plans.py, vote.py and scoring.py), screens.py
(phone/host/result screens), display.py (its part of the table display), messages.py (the catalog),
testing.py (its secrets, for the generic tests), printing.py (printed cards and boards). The registry finds SPEC.
"""

from companion.games.base import GameSpec
from companion.games.lutetia import messages, rules

SPEC = GameSpec(id=rules.ID, rules=rules, screens="companion.games.lutetia.screens",
                display="companion.games.lutetia.display", catalog=messages.MESSAGES,
                testing="companion.games.lutetia.testing", printing="companion.games.lutetia.printing", order=30)
