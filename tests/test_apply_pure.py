"""apply() never changes a state it was given – not the input, not any earlier state.

The rules share the entries of append-only lists (logs, the history of rounds) between a
state and the next (`base.clone(..., append_only=...)`, which keeps a long game's replay
linear); this proves no rule writes into such an entry afterwards, for every game over
random legal games.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.soak import pick_action
from companion.games import games, spec
from companion.games.base import RuleError, resolve_options


def dump(state: dict) -> str:
    return json.dumps(state, sort_keys=True)


@pytest.mark.parametrize("game_id", sorted(games()))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_earlier_states_never_change(game_id: str, seed: int) -> None:
    game = games()[game_id]
    r = random.Random(seed)
    n = r.randint(game.MIN_SEATS, min(game.MAX_SEATS, 5))
    seats = [{"name": f"P{i}", "colour": "#123456"} for i in range(n)]
    state = game.setup(resolve_options(game.OPTIONS, {}), seats, seed)
    states = [state]
    dumps = [dump(state)]
    for _ in range(150):
        if spec(game_id).done(state):  # over (or, a game that never ends, played enough)
            break
        actors = [s for s in [*range(n), None] if game.legal(state, s)]
        if not actors:
            break
        seat = r.choice(actors)
        action = pick_action(game_id, state, seat, game.legal(state, seat), r)
        if action is None:
            continue
        try:
            state = game.apply(state, {**action, "seat": seat})
        except RuleError:
            continue
        states.append(state)
        dumps.append(dump(state))
    assert len(states) > 5
    for i, (s, d) in enumerate(zip(states, dumps, strict=True)):
        assert dump(s) == d, f"state {i} of {len(states)} changed after a later apply()"
