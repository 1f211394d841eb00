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
import unicodedata
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


# ---- the plug-in, whole (issue 32.4): the platform takes what it needs of a game from its spec ----

PLATFORM = ["companion/printing/*.py", "companion/i18n/*.py", "companion/games/__init__.py", "companion/games/base.py"]


def _plain(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


def test_no_platform_module_names_a_game() -> None:
    """The printing machinery, the catalog and the registry name no game: each game's options,
    previews, texts and display come from its spec (a new game touches its folder only)."""
    from companion.i18n import t

    names = set()
    for gid, sp in specs().items():
        names |= {gid, _plain(t("en", sp.rules.NAME)).split(" (")[0]}
    named = []
    for pattern in PLATFORM:
        for path in sorted(ROOT.glob(pattern)):
            text = _plain(path.read_text(encoding="utf-8"))
            named += [f"{path.relative_to(ROOT)}: {n}" for n in sorted(names) if re.search(rf"\b{re.escape(n)}\b", text)]
    assert not named, named


def test_the_platform_catalog_holds_no_game_text() -> None:
    """A game's texts – its printed cards' too – are in its own catalog (companion/games/<id>/locale/):
    no platform key names a game, and every printed text of the platform's catalog ("print.*") is
    used by the platform's printing code, not by one game's alone."""
    from companion.i18n import CORE

    ids = set(specs())
    assert not [k for k in CORE["en"] if ids & set(k.split("."))]
    code = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "companion" / "printing").glob("*.py"))
    unused = [k for k in CORE["en"] if k.startswith("print.")
              and k not in code and re.sub(r"\.[a-z_]+$", ".{", k) not in code]  # print.colour.{name}
    assert not unused, unused
    for gid, sp in specs().items():
        if sp.printing:
            own = [k for k in sp.catalog["en"] if k.startswith(f"{gid}.print.")]
            assert own, f"{gid}: its printed texts are not in its own catalog"
            assert all(k in sp.catalog[lang] for lang in ("de", "fr") for k in own), gid


@pytest.mark.parametrize("gid", [g for g, s in specs().items() if s.printing])
def test_companion_print_prints_every_printing_game(gid: str, tmp_path: Path) -> None:
    """`companion print GAME` finds the game through the registry (the test-only game too): its
    first deck, in German, a PDF with its pages – and the committed printables are the product's only."""
    from companion.printing import decks, printables
    from companion.printing.cli import main

    first = decks.game_items(gid)[0].name
    out = tmp_path / f"{gid}.pdf"
    assert main(["print", gid, "--deck", first, "--dpi", "50", "--lang", "de", "--workers", "1", "-o", str(out)]) == 0
    pdf = out.read_bytes()
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page") >= 2  # fronts and backs
    assert (gid in {s["game"] for s in printables.specs()}) == (not specs()[gid].test_only)


def test_the_test_game_has_every_part_a_game_can_have() -> None:
    """Guess, the proof of "one folder + one line", has a display and printed cards too: the generic
    display and printing tests run it (test_display.py, test_printing_*.py, above)."""
    sp = spec("guess")
    for part in (sp.screens, sp.display, sp.printing, sp.catalog and "tests.games.guess.messages"):
        assert isinstance(part, str) and part.startswith("tests.games.guess."), part


def test_the_rules_layer_imports_no_flet_and_no_screen() -> None:
    """The pure layer (each game's rules and its split-off modules, games/base.py, the table) imports
    neither Flet nor the screens: only a game's screens.py and display.py draw. Read from the source, so
    a new module (a rules.py split in two) is checked as soon as it exists."""
    import ast

    root = Path(__file__).resolve().parent.parent / "companion"
    pure = [p for p in sorted((root / "games").rglob("*.py")) if p.name not in ("screens.py", "display.py")]
    pure += sorted((root / "table").rglob("*.py"))
    assert len(pure) > 20
    bad = []
    for path in pure:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            bad += [f"{path.relative_to(root)}: {n}" for n in names
                    if n == "flet" or n.startswith(("flet.", "companion.ui"))]
    assert not bad, bad
