"""Secrets stay secret through the *flow* of every game (issue 17, item 7).

Two twin games start from different secret deals of one seat k (other plans, other modification
cards, a different hand entered) and are driven by the same public actions; seat k's sealed
choices take different hidden values in the twins until they are revealed. For every other seat
and for the host (seat None), at every step, both twins must give

    the same view(state, seat), the same legal(state, seat), the same history texts (en/de/fr),

and an action another seat or the host takes must be accepted by both twins alike. Unlike a twin
made by editing one state (tests/reliability/test_security.py), these twins are *played*: every
step the rules derive from the hands (who is waited for, which step follows, what the log says)
is worked out from each twin's own cards, so a table that waits only for the seats that *can* do
something is caught.

How each game deals its secrets:
- a seed that changes what a seat sees but not what the host sees deals secrets; such a game
  needs a twin-deal recipe, `twin_deal` in its folder's testing.py
  (test_games_that_deal_secrets_have_a_twin_recipe);
- every other secret is a sealed submission, found without game knowledge: an action of seat k
  that a later action of k overrides completely (B + decoy + real == B + real).
The walks avoid only what a game legitimately reveals about k's deal (LUTETIA: a proposal to a
space whose plan k holds in one twin only – its holder lays it face up).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from benchmarks.soak import pick_action
from companion import i18n
from companion.games import games, spec
from companion.games.base import RuleError

GAMES = games()
LANGS = ("en", "de", "fr")
TIME_BUDGET = 30.0  # seconds for all games' walks together, beyond 4 walks each (the machine is shared)


@dataclass
class Twins:
    a: dict[str, Any]
    b: dict[str, Any]
    k: int  # the seat whose secrets differ
    others: set[int] = field(default_factory=set)  # seats let in on a private exchange with k
    until_reveal: bool = False  # k's sealed answers differ for good: compare until the reveal
    avoid: Callable[[dict[str, Any]], bool] = lambda action: False  # legitimate reveals of the deal
    alive: Callable[[dict[str, Any]], bool] = lambda state: True  # the deals' difference still hidden
    notes: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- twin deals per game


def _deal(gid: str) -> Callable[..., dict[str, Any]] | None:
    """The game's twin-deal recipe (`twin_deal` in its folder's testing.py), or None."""
    return spec(gid).testing_hook("twin_deal")


def make_twins(gid: str, opts: dict[str, Any], n: int, seed: int, k: int, r: random.Random) -> Twins:
    game = GAMES[gid]
    seats = [{"name": f"P{i}", "colour": f"c{i}"} for i in range(n)]
    deal = _deal(gid)
    if deal is not None:
        return Twins(k=k, **deal(opts, seats, seed, k, r))
    st = game.setup(opts, seats, seed)
    return Twins(st, json.loads(json.dumps(st)), k)


# ---------------------------------------------------------------- what a seat / the host sees


def _messages(obj: Any) -> list[dict[str, Any]]:
    """Every {"key": ..., "params": ...} item in a view: the history / log entries."""
    out: list[dict[str, Any]] = []
    if isinstance(obj, dict):
        if isinstance(obj.get("key"), str) and isinstance(obj.get("params", {}), dict):
            out.append(obj)
        for v in obj.values():
            out += _messages(v)
    elif isinstance(obj, list):
        for v in obj:
            out += _messages(v)
    return out


def history_texts(view: dict[str, Any], names: list[str]) -> list[str]:
    texts = []
    for item in _messages(view):
        params = dict(item.get("params") or {})
        for key, v in list(params.items()):
            if key in ("seat", "player", "by", "to", "winner", "from_seat") and isinstance(v, int) \
                    and not isinstance(v, bool) and 0 <= v < len(names):
                params[key] = names[v]
        for lang in LANGS:
            shown = {k: (i18n.t(lang, v) if isinstance(v, str) and i18n.has(v) else v) for k, v in params.items()}
            texts.append(i18n.t(lang, item["key"], **shown))
    return texts


def _dump(x: Any) -> str:
    return json.dumps(x, sort_keys=True, ensure_ascii=False)


def check_same(gid: str, tw: Twins, n: int, where: str, texts: bool = False) -> int:
    """Views, legal actions and (with `texts`, or when the views differ) the history texts of
    every seat but k and of the host are the same in both twins. The texts are a function of the
    view's log items, so equal views give equal texts; rendering them all three languages at every
    step would cost most of the time budget, so they are rendered every few steps and at the end."""
    game = GAMES[gid]
    names = [f"P{i}" for i in range(n)]
    checked = 0
    for seat in [None, *range(n)]:
        if seat == tw.k or seat in tw.others:
            continue
        va, vb = game.view(tw.a, seat), game.view(tw.b, seat)
        same = va == vb  # (dict equality: C speed; a difference is then shown via JSON)
        if texts or not same:
            ta, tb = history_texts(va, names), history_texts(vb, names)
            diff = [(x, y) for x, y in zip(ta, tb, strict=False) if x != y][:2]
            assert ta == tb, f"{gid} {where}: seat {seat} reads other history texts: {diff or (len(ta), len(tb))}"
        assert game.legal(tw.a, seat) == game.legal(tw.b, seat), \
            f"{gid} {where}: seat {seat} gets other legal actions"
        if not same:
            keys = sorted(x for x in set(va) | set(vb) if _dump(va.get(x)) != _dump(vb.get(x)))
            raise AssertionError(f"{gid} {where}: seat {seat} sees seat {tw.k}'s secret in {keys}: "
                                 f"{[(x, va.get(x), vb.get(x)) for x in keys][:2]}")
        checked += 1
    return checked


# ---------------------------------------------------------------- the walk


def _apply(game: Any, st: dict[str, Any], action: dict[str, Any]) -> dict[str, Any] | None:
    try:
        return game.apply(st, action)
    except RuleError:
        return None


def _sealed_rounds(obj: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if isinstance(obj, dict):
        if {"seats", "choices", "locked", "revealed"} <= set(obj):
            out.append(obj)
        for v in obj.values():
            out += _sealed_rounds(v)
    elif isinstance(obj, list):
        for v in obj:
            out += _sealed_rounds(v)
    return out


def _open_choice(st: dict[str, Any], k: int) -> list[Any]:
    return [rnd["choices"].get(str(k)) for rnd in _sealed_rounds(st) if not rnd["revealed"]]


def _only_the_sealed_value_differs(b1: dict[str, Any], real: dict[str, Any], k: int) -> bool:
    """b1 is `real` with another value of seat k in an open sealed round, and nothing else."""
    if _open_choice(b1, k) == _open_choice(real, k):
        return False
    same = json.loads(json.dumps(b1))
    open_same = [rnd for rnd in _sealed_rounds(same) if not rnd["revealed"]]
    open_real = [rnd for rnd in _sealed_rounds(real) if not rnd["revealed"]]
    if len(open_same) != len(open_real):
        return False
    for x, y in zip(open_same, open_real, strict=True):
        if str(k) in y["choices"]:
            x["choices"][str(k)] = y["choices"][str(k)]
    return _dump(same) == _dump(real)


def _decoy(gid: str, tw: Twins, action: dict[str, Any], r: random.Random) -> tuple[dict[str, Any], bool] | None:
    """Another value for a sealed answer of seat k, as an action of the same type for twin B.

    (decoy, True): the real answer overrides it completely (B + decoy + real == B + real), so B
    follows A right after the comparison. (decoy, False): a one-shot sealed answer (submitted and
    locked at once) that puts another value into an open sealed round: the twins then differ
    until that round is revealed."""
    game = GAMES[gid]
    real = _apply(game, tw.b, action)
    if real is None:
        return None
    options = [x for x in game.legal(tw.b, tw.k) if x["type"] == action["type"]]
    for _ in range(4):
        d = pick_action(gid, tw.b, tw.k, options, r)
        if d is None:
            return None
        d = {**d, "seat": tw.k}
        if d == action:
            continue
        b1 = _apply(game, tw.b, d)
        if b1 is None:
            continue
        b2 = _apply(game, b1, action)
        if b2 is not None and _dump(b2) == _dump(real):
            return d, True
        if b2 is None and not tw.until_reveal and _only_the_sealed_value_differs(b1, real, tw.k):
            return d, False
    return None


def _private_partner(game: Any, before: dict[str, Any], after: dict[str, Any], n: int, k: int) -> int | None:
    """The one seat j that, besides k, sees an action of k (a hand-over under the table), or None."""
    if game.view(before, None) != game.view(after, None):
        return None
    seen = [s for s in range(n) if s != k and game.view(before, s) != game.view(after, s)]
    return seen[0] if len(seen) == 1 else None


def walk(gid: str, seed: int, steps: int) -> tuple[int, int]:
    """One pair of twins played for up to `steps` actions; returns (comparisons, secret moves)."""
    game = GAMES[gid]
    r = random.Random(f"twins:{gid}:{seed}")
    opts: dict[str, Any] = {}
    for o in game.OPTIONS:
        if o.kind == "choice":
            opts[o.name] = r.choice(o.choices)
        elif o.kind == "bool":
            opts[o.name] = r.random() < 0.5
    n = r.randint(game.MIN_SEATS, min(game.MAX_SEATS, 5))
    k = r.randrange(n)
    tw = make_twins(gid, opts, n, seed, k, r)
    checked = check_same(gid, tw, n, "after the deal", texts=True)
    secret_moves = 0
    for step in range(steps):
        if not tw.alive(tw.a):
            break
        actors = [x for x in [None, *range(n)] if game.legal(tw.a, x)]
        if not actors:
            break
        seats_acting = [x for x in actors if x is not None]
        actor = None if None in actors and (not seats_acting or r.random() < 0.1) else r.choice(seats_acting)
        templates = [x for x in game.legal(tw.a, actor) if not tw.avoid(x)]
        action = pick_action(gid, tw.a, actor, templates, r)
        if action is None:
            continue
        action = {**action, "seat": actor}
        a1 = _apply(game, tw.a, action)
        assert a1 is not None, f"{gid}: a legal action was refused: {action}"
        where = f"seed {seed} step {step} {action}"
        if tw.until_reveal and _open_choice(a1, tw.k) != _open_choice(tw.a, tw.k):
            break  # k's other sealed answer is revealed now: the twins may differ from here on
        if actor == tw.k:
            decoy = _decoy(gid, tw, action, r)
            partner = None if decoy or tw.others else _private_partner(game, tw.a, a1, n, tw.k)
            if decoy is not None:  # seat k answers something else in twin B
                d, follows = decoy
                tw.a, tw.b = a1, game.apply(tw.b, d)
                secret_moves += 1
                if follows:  # compare, then B takes A's answer (k changed its mind)
                    checked += check_same(gid, tw, n, where + f" (twin B: {d})")
                    tw.b = game.apply(tw.b, action)
                else:
                    tw.until_reveal = True
            elif partner is not None and r.random() < 0.5:  # only k and j know: B does not do it
                tw.a = a1
                tw.others.add(partner)
                secret_moves += 1
            else:
                b1 = _apply(game, tw.b, action)
                if b1 is None:
                    continue  # seat k cannot do this with its other cards: it does something else
                tw.a, tw.b = a1, b1
        elif actor in tw.others:  # let in on k's secret: its own secrets differ too
            b1 = _apply(game, tw.b, action)
            if b1 is None:
                continue
            tw.a, tw.b = a1, b1
        else:
            b1 = _apply(game, tw.b, action)
            assert b1 is not None, f"{gid} {where}: one twin refuses what the other accepts"
            tw.a, tw.b = a1, b1
        checked += check_same(gid, tw, n, where, texts=step % 25 == 0)
    check_same(gid, tw, n, f"seed {seed} at the end", texts=True)
    return checked, secret_moves


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_twins_from_other_secret_deals_look_the_same_to_everyone_else(gid: str) -> None:
    start = time.monotonic()
    budget = TIME_BUDGET / len(GAMES)
    checked = moves = walks = 0
    seed = 0
    while walks < 4 or time.monotonic() - start < budget:
        seed += 1
        c, m = walk(gid, seed, 260)
        checked, moves, walks = checked + c, moves + m, walks + 1
        if walks >= 40:
            break
    print(f"{gid}: {walks} walks, {checked} comparisons, {moves} secret moves")
    assert checked > 200, f"{gid}: only {checked} comparisons"


def test_games_that_deal_secrets_have_a_twin_recipe() -> None:
    """A seed that changes what a seat sees, but not what the host sees, deals secrets: such a
    game must tell this test how to deal its twins (`twin_deal` in its testing.py), or its secret
    deal goes unchecked."""
    for gid, game in GAMES.items():
        seats = [{"name": f"P{i}", "colour": ""} for i in range(game.MIN_SEATS)]
        a, b = game.setup({}, seats, 1), game.setup({}, seats, 2)
        if _dump(game.view(a, None)) != _dump(game.view(b, None)):
            continue  # the seed shows on the table (a face-up display): not a secret
        secret = any(_dump(game.view(a, s)) != _dump(game.view(b, s)) for s in range(len(seats)))
        assert not secret or _deal(gid) is not None, \
            f"{gid}: the seed deals secrets; add twin_deal to its testing.py"


def test_the_lutetia_twins_really_differ_and_reach_the_after_vote_step() -> None:
    """The LUTETIA twins hold other cards for seat k, and the walks get through approvals."""
    from companion.games.lutetia import rules as L

    r = random.Random(3)
    tw = make_twins("lutetia", {}, 3, 7, 1, r)
    assert L.view(tw.a, 1)["me"] != L.view(tw.b, 1)["me"]
    assert L.view(tw.a, None) == L.view(tw.b, None)
    afters = 0
    for seed in range(1, 6):
        game = GAMES["lutetia"]
        rr = random.Random(seed)
        st = game.setup({}, [{"name": f"P{i}"} for i in range(3)], seed)
        for _ in range(200):
            actors = [x for x in [0, 1, 2] if game.legal(st, x)]
            if not actors or game.result(st):
                break
            s = rr.choice(actors)
            st = game.apply(st, {**pick_action("lutetia", st, s, game.legal(st, s), rr), "seat": s})
            afters += st["phase"] == "after"
    assert afters > 5
