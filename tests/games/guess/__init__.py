"""Guess: the test-only game (docs/ADDING_A_GAME.md). Its folder is all there is of it; the
tests register it (tests/conftest.py: `companion.games.add(SPEC)`), the product never lists it."""

from companion.games.base import GameSpec
from tests.games.guess import messages, rules

SPEC = GameSpec(id=rules.ID, rules=rules, screens="tests.games.guess.screens", display="tests.games.guess.display",
                catalog=messages.MESSAGES, printing="tests.games.guess.printing",
                test_only=True)
