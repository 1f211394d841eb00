"""The registry and the game protocol every game shares (companion/games/__init__.py, base.py):
one folder a game, found by discovery; sample() draws legal concrete actions from any state; one
result shape (Result) for every game. Every test here runs for every registered game, the
test-only game Guess included (tests/conftest.py)."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games import games, spec, specs
from companion.games.base import GameSpec, Result
from tests.gameplay import play

ROOT = Path(__file__).resolve().parents[1]


def test_the_product_lists_the_game_folders_and_never_the_test_game() -> None:
    """Without the tests' hook the registry holds what companion/games/*/ has, in the host's order."""
    out = subprocess.run([sys.executable, "-c", "from companion.games import games; print(list(games()))"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    listed = eval(out)  # a list of ids
    folders = sorted(p.parent.name for p in (ROOT / "companion" / "games").glob("*/__init__.py"))
    assert sorted(listed) == folders and "guess" not in listed
    assert listed[0] == "sealed_vote"  # the host's list starts with the generic game, as before
    assert "guess" in games()  # ... and the tests have it


def test_the_test_game_is_its_folder_and_nothing_else() -> None:
    """Adding a game touches its folder: only the tests' hook names Guess outside tests/games/guess/."""
    named = []
    for path in [*ROOT.joinpath("companion").rglob("*.py"), *ROOT.joinpath("tests").rglob("*.py"),
                 *ROOT.joinpath("benchmarks").rglob("*.py")]:
        if "games/guess" in path.as_posix() or path.name in ("test_games_registry.py", "conftest.py"):
            continue
        text = path.read_text(encoding="utf-8")
        if re.search(r"games[./]guess|[\"']guess[\"'.]", text):  # its package, its id, its catalog keys
            named.append(str(path.relative_to(ROOT)))
    assert not named, named


@pytest.mark.parametrize("gid", list(games()))
def test_spec_has_everything_a_tool_needs(gid: str) -> None:
    sp = specs()[gid]
    assert isinstance(sp, GameSpec) and sp.id == gid == sp.rules.ID
    for name in ("setup", "legal", "apply", "view", "result", "outcome"):
        assert callable(getattr(sp.rules, name)), name
    screens = sp.screen_module()
    assert callable(screens.phone) and callable(screens.host)
    display = sp.display_module()  # the table display's part (docs/ADDING_A_GAME.md), named by the spec
    assert display is not None and callable(display.status) and callable(display.board), gid
    assert set(sp.catalog) == {"en", "de", "fr"} and sp.rules.NAME in sp.catalog["en"]


@pytest.mark.parametrize("gid", list(games()))
def test_sample_gives_legal_concrete_actions_and_games_end_in_one_result_shape(gid: str) -> None:
    sp = spec(gid)
    g = sp.rules
    ended = 0
    for seed in range(6):
        r = random.Random(seed)
        n = r.randint(g.MIN_SEATS, min(g.MAX_SEATS, 5))
        state, log, states = play(sp, seed, n, steps=3000, r=r)
        assert log, f"{gid}: nothing was played"
        assert json.loads(json.dumps(log)) == log  # plain data, as the table logs it
        for before, action in zip(states, log, strict=False):
            assert action["seat"] is None or 0 <= action["seat"] < n
            assert action["type"] in {a["type"] for a in g.legal(before, action["seat"])}
        if sp.done(state) and g.result(state) is not None:
            ended += 1
        res = sp.outcome(state)
        if res is None:
            continue
        assert isinstance(res, Result)
        assert len(res.ranks) == len(res.scores) == n and (not res.breakdown or len(res.breakdown) == n)
        assert all(res.ranks[w] == 1 for w in res.winners) and min(res.ranks) == 1
        assert res.tie_break is None or isinstance(res.tie_break, str)
        json.dumps(res.as_dict())
    assert ended or gid == "sealed_vote", f"{gid}: no random game ended"


@pytest.mark.parametrize("gid", list(games()))
def test_sample_from_a_given_subset_stays_in_it(gid: str) -> None:
    sp = spec(gid)
    g = sp.rules
    r = random.Random(1)
    n = g.MIN_SEATS
    state, _, states = play(sp, 1, n, steps=40, r=r)
    for st in states[::4]:
        for seat in [None, *range(n)]:
            legal = g.legal(st, seat)
            if not legal:
                assert sp.sample(st, seat, r) is None
                continue
            kind = legal[0]["type"]
            a = sp.sample(st, seat, r, [x for x in legal if x["type"] == kind])
            assert a is None or a["type"] == kind
