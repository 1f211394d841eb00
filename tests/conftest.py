"""Test-wide set-up: the test-only game Guess (tests/games/guess/) joins the registry, so every
test that takes its games from the registry plays it too – random play, secrecy twins, replay and
restart, bad input, screens (docs/ADDING_A_GAME.md). The product never lists it."""

from companion import games
from tests.games.guess import SPEC as GUESS

games.add(GUESS)
