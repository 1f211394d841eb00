"""One random player for every game, on the pure rules: a seat (or the host) that can act is
drawn, and the game's own `sample()` (GameSpec.sample, companion/games/<id>/) gives its action;
the seat is stamped as the table does. No game knowledge here."""

from __future__ import annotations

import random
from typing import Any

from companion.games import spec as game_spec
from companion.games.base import GameSpec, resolve_options


def seats(n: int) -> list[dict[str, Any]]:
    return [{"name": f"P{i}", "colour": f"c{i}"} for i in range(n)]


def actors(sp: GameSpec, state: dict[str, Any], n: int) -> list[int | None]:
    return [s for s in [None, *range(n)] if sp.rules.legal(state, s)]


def random_step(sp: GameSpec | str, state: dict[str, Any], n: int, r: random.Random) -> dict[str, Any] | None:
    """A random legal action with its "seat", or None when nobody can act (or nothing was drawn)."""
    sp = game_spec(sp) if isinstance(sp, str) else sp
    who = actors(sp, state, n)
    for _ in range(8 if who else 0):
        seat = r.choice(who)
        action = sp.sample(state, seat, r)
        if action is not None:
            return {**action, "seat": seat}
    return None


async def table_step(t: Any, tokens: list[str], sp: GameSpec, n: int, r: random.Random) -> bool | None:
    """One random legal action played through the table as its seat (or the host) would send it:
    True when the table took it, False when it refused it (a rule the sample did not foresee),
    None when nobody can act."""
    from companion.games.base import RuleError

    step = random_step(sp, t.state, n, r)
    if step is None:
        return None
    seat = step.pop("seat")
    try:
        await t.request(t.host_token if seat is None else tokens[seat],
                        {"op": "host_act" if seat is None else "act", "action": step})
    except RuleError:
        return False
    return True


def play(sp: GameSpec | str, seed: int, n: int, options: dict[str, Any] | None = None, steps: int = 200,
         r: random.Random | None = None) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """A random legal game of up to `steps` actions (stops when the game is done); returns
    (final state, action log, states from the start)."""
    sp = game_spec(sp) if isinstance(sp, str) else sp
    r = r or random.Random(seed)
    state = sp.rules.setup(resolve_options(sp.rules.OPTIONS, options), seats(n), seed)
    log: list[dict[str, Any]] = []
    states = [state]
    for _ in range(steps):
        if sp.done(state):
            break
        action = random_step(sp, state, n, r)
        if action is None:
            break
        state = sp.rules.apply(state, action)
        log.append(action)
        states.append(state)
    return state, log, states
