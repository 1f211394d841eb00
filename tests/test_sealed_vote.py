"""Rules of the generic sealed vote / bid and of the shared sealed round."""

from __future__ import annotations

import asyncio
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import RuleError
from companion.games.sealed_vote import rules as sv
from companion.games.sealed_vote import screens as ui
from tests.ui_harness import buttons, ctx, fields, started_table, text

SEATS = [{"name": n} for n in "ABCD"]


def game(**opts):
    base = {"mode": "choice", "question": "", "choices": "", "min": 0, "max": 20}
    return sv.setup({**base, **opts}, SEATS, 1)


def act(s, seat, type_, **kw):
    return sv.apply(s, {"type": type_, "seat": seat, **kw})


def test_default_choices_are_yes_no_abstain():
    assert game()["question"]["choices"] == ["sv.yes", "sv.no", "sv.abstain"]


def test_change_until_lock_then_locked():
    s = act(game(), 0, "submit", value="sv.yes")
    s = act(s, 0, "submit", value="sv.no")
    s = act(s, 0, "lock")
    assert sv.view(s, 0)["round"]["mine"] == "sv.no"
    with pytest.raises(RuleError):
        act(s, 0, "submit", value="sv.yes")


def test_reveal_when_all_locked_with_sorted_results_and_tally():
    s = game(mode="number", min=0, max=20)
    for seat, v in enumerate([3, 17, 9, 17]):
        s = act(s, seat, "submit", value=v)
    for seat in range(3):
        s = act(s, seat, "lock")
        assert not s["round"]["revealed"]
    s = act(s, 3, "lock")
    res = sv.view(s, None)["result"]
    assert [r["value"] for r in res["rows"]] == [17, 17, 9, 3]
    assert res["summary"] == {"count": 4, "sum": 46, "max": 17, "min": 3, "top": [1, 3]}


def test_host_forces_reveal_missing_answers_shown_as_none():
    s = act(game(), 0, "submit", value="sv.yes")
    s = act(s, 1, "submit", value="sv.no")
    s = act(s, 1, "lock")
    with pytest.raises(RuleError):
        act(s, 0, "reveal")  # not a player's action
    s = act(s, None, "reveal")
    res = sv.view(s, None)["result"]
    assert res["summary"]["counts"] == {"sv.yes": 1, "sv.no": 1, "sv.abstain": 0}
    assert [r["value"] for r in res["rows"]][-2:] == [None, None]
    with pytest.raises(RuleError):
        act(s, 2, "submit", value="sv.yes")  # after the reveal


def test_next_question_keeps_history():
    s = act(game(), None, "reveal")
    s = act(s, None, "ask", question="Bid", mode="number", min=1, max=5)
    assert s["round_no"] == 2 and len(s["history"]) == 1
    with pytest.raises(RuleError):
        act(s, 0, "submit", value=6)
    with pytest.raises(RuleError):
        act(s, None, "ask", mode="number", min=5, max=5)
    with pytest.raises(RuleError):
        act(s, None, "ask", mode="choice", choices=["only one"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0, 1, 2, 3, None]), st.sampled_from(["submit", "lock", "reveal", "ask"]),
                          st.one_of(st.integers(-5, 25), st.sampled_from(["sv.yes", "sv.no", "x"]), st.none())),
                max_size=30), st.booleans())
def test_random_sequences_keep_secrets_and_replay(steps, number):
    s = game(mode="number") if number else game()
    log = []
    for seat, kind, value in steps:
        before = json.dumps(s, sort_keys=True)
        action = {"type": kind, "seat": seat, "value": value}
        try:
            s = sv.apply(s, action)
            log.append(action)
        except RuleError:
            assert json.dumps(s, sort_keys=True) == before
        rnd = s["round"]
        if not rnd["revealed"]:
            assert "choices" not in sv.view(s, None)["round"]  # no per-seat values in public
            for seat_ in range(4):
                other = sv.view(s, seat_)["round"]
                assert "choices" not in other
    r = game(mode="number") if number else game()
    for a in log:
        r = sv.apply(r, a)
    assert r == s


def test_host_next_question_form_switches_kind_with_buttons_and_asks() -> None:
    """The host's form: both kinds are buttons (the chosen one ticked), a tap on "A number"
    shows the limits, and "Ask" sends the question with what was typed."""
    t = started_table("sealed_vote", ["Ada", "Bo"])
    sent: list[dict] = []
    local: dict = {}
    host = ctx(t, None, sent, host=True, local=local)
    screen = ui.host(host)
    b = buttons(screen)
    assert "Kind of question" in text(screen)
    assert b["Options to pick from"].icon is not None and b["A number (bid)"].icon is None  # the current kind is ticked
    assert "Options, separated by commas" in fields(screen)
    asyncio.run(b["A number (bid)"].on_click(None))
    assert local["mode"] == "number"
    screen = ui.host(ctx(t, None, sent, host=True, local=local))
    f = fields(screen)
    assert {"Lowest number", "Highest number"} <= set(f) and "Options, separated by commas" not in f
    assert buttons(screen)["A number (bid)"].icon is not None
    local.update(q="How many?", min="1", max="9")
    asyncio.run(buttons(screen)["Ask"].on_click(None))
    assert sent[-1] == {"type": "ask", "question": "How many?", "mode": "number", "min": 1, "max": 9}
