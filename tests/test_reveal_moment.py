"""Every screen sees the reveal (issue 30.3): a phone plays the moment from its own seat – the cards
turning, then its outcome ("Your Yes – 3 of 4 chose it", "You take A for 3 gold") – and the table
display prints the outcome only after its cards have turned. Real in-process Flet sessions
(benchmarks/harness.py), as in tests/test_display.py."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

import flet as ft
import pytest

from benchmarks import harness as H
from companion.games import specs
from companion.table.hub import Hub
from companion.table.store import MemoryStore
from companion.ui.screens import Server
from companion.ui.views import display as D
from companion.ui.views import moment as M

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gameplay import table_step  # noqa: E402
from test_display import screen_text  # noqa: E402

TURNED = M.BACKS_S + D.FLIP_S + 0.4  # the cards have turned and the outcome is shown


async def _open(game: str, n: int = 4) -> tuple[object, list[str], list[H.Client], H.Client, H.Client]:
    hub = Hub(MemoryStore())
    server = Server(hub, "http://test")
    t, tokens = H.make_table(hub, n, game)
    pubsub = H.new_pubsub()
    phones = [H.Client(server, f"/t/{t.code}", {f"seat:{t.code}": tok, "lang": "en"}) for tok in tokens]
    host = H.Client(server, f"/host/{t.code}", {f"host:{t.code}": t.host_token, "lang": "en"})
    tv = H.Client(server, f"/display/{t.code}", {f"host:{t.code}": t.host_token, "lang": "en"})
    for c in (*phones, host, tv):
        await c.open(pubsub)
    await H.quiet([*phones, host, tv])
    return t, tokens, phones, host, tv


async def test_sealed_vote_each_phone_reads_its_own_outcome_after_the_flip() -> None:
    t, tokens, phones, host, tv = await _open("sealed_vote")
    everyone = [*phones, host, tv]
    await t.request(t.host_token, {"op": "host_act", "action": {"type": "ask", "mode": "choice",
                                                               "question": "Tacos?"}})
    for i, tok in enumerate(tokens):
        await t.request(tok, {"op": "act", "action": {"type": "submit", "value": "sv.no" if i == 3 else "sv.yes"}})
    for tok in tokens:
        await t.request(tok, {"op": "act", "action": {"type": "lock"}})
    # the display: the faces come, and only after them (once they have turned) the tally
    faces = False
    for _ in range(200):
        lines = screen_text(tv).split("\n")
        if "Yes" in lines:  # a card's face
            faces = True
            assert not any(x.startswith("Tally") for x in lines), "the tally came with the cards turning"
            assert "Your Yes" not in screen_text(phones[0])
            break
        await asyncio.sleep(0.02)
    assert faces
    await asyncio.sleep(TURNED)
    await H.quiet(everyone, idle=0.01)
    assert "Tally: Yes: 3" in screen_text(tv)
    for i, p in enumerate(phones):
        text = screen_text(p)
        mine = "Your No – 1 of 4 chose it" if i == 3 else "Your Yes – 3 of 4 chose it"
        assert mine in text, text
        other = "Your Yes" if i == 3 else "Your No"
        assert other not in text
    assert "Tally: Yes: 3" in screen_text(host)
    for c in everyone:
        c.close()


async def test_a_phone_opened_after_the_reveal_does_not_replay_it() -> None:
    t, tokens, phones, host, tv = await _open("sealed_vote", 2)
    await t.request(t.host_token, {"op": "host_act", "action": {"type": "ask", "mode": "choice", "question": "Q?"}})
    for tok in tokens:
        await t.request(tok, {"op": "act", "action": {"type": "submit", "value": "sv.yes"}})
        await t.request(tok, {"op": "act", "action": {"type": "lock"}})
    await asyncio.sleep(TURNED)
    await H.quiet([*phones, host, tv], idle=0.01)
    assert "Your Yes" in screen_text(phones[0])
    late = H.Client(phones[0].server, f"/t/{t.code}", {f"seat:{t.code}": tokens[1], "lang": "en"})
    await late.open(H.new_pubsub())
    await asyncio.sleep(TURNED)
    await H.quiet([late], idle=0.01)
    assert "Your Yes" not in screen_text(late)
    for c in (*phones, host, tv, late):
        c.close()


WORDS = {  # what a phone's own line starts with, in each game
    "lutetia": ("Your ",),
    "lutece": ("You take ", "You take nothing", "A tie for ", "You could not pay"),
    "quovadis": ("Your senator ", "Your 1 senator ", "Your 2 senators ", "Your 3 senators "),
}


@pytest.mark.parametrize("game", ["lutetia", "lutece", "quovadis"])
async def test_each_game_names_the_seats_outcome_on_its_phone(game: str) -> None:
    t, tokens, phones, host, tv = await _open(game, 4 if game != "quovadis" else 3)
    n = len(tokens)
    sp = specs()[game]
    r = random.Random(11)
    seen: set[str] = set()
    lines: list[str] = []
    for _ in range(400):
        if t.state is None or sp.done(t.state) or len(lines) >= 2:
            break
        took = await table_step(t, tokens, sp, n, r)
        if took is None:
            break
        if not took:
            continue
        await H.quiet(phones, idle=0.005)
        ms = [M.seat_moment(p.screen.ctx()) for p in phones]
        fresh = [(i, m) for i, m in enumerate(ms) if m is not None and m.key not in seen and m.yours]
        if not fresh:
            continue
        await asyncio.sleep(TURNED)
        await H.quiet(phones, idle=0.01)
        for i, m in fresh:
            seen.add(m.key)
            assert m.yours.startswith(WORDS[game]), m.yours
            assert m.yours in screen_text(phones[i])
            for j, other in enumerate(ms):  # another seat's line never on this phone
                if j != i and other is not None and other.yours and other.yours != m.yours:
                    assert other.yours not in screen_text(phones[i])
            lines.append(m.yours)
    assert lines, f"no reveal reached in {game}"
    for c in (*phones, host, tv):
        c.close()


def shown_text(client: H.Client) -> str:
    """What the screen shows: its texts, those under a hidden control left out."""
    out: list[str] = []

    def walk(x: object) -> None:
        if isinstance(x, list):
            for y in x:
                walk(y)
            return
        if not isinstance(x, ft.BaseControl) or getattr(x, "visible", True) is False:
            return
        if isinstance(x, ft.Text) and isinstance(x.value, str):
            out.append(x.value)
        for name in ("_b", "content", "controls", "views"):
            child = getattr(x, name, None)
            if child is not None and not isinstance(child, str):
                walk(child)
    assert client.session is not None
    walk(client.session.page.views)
    return "\n".join(out)


async def test_the_phones_result_list_waits_for_the_cards_to_turn() -> None:
    """Issue 30.3: the result after the cards have turned – the phone's own result list under the
    moment shows no tally while the cards are still face down or turning, and shows it after."""
    t, tokens, phones, host, tv = await _open("sealed_vote", 3)
    everyone = [*phones, host, tv]
    await t.request(t.host_token, {"op": "host_act", "action": {"type": "ask", "mode": "choice", "question": "Q?"}})
    for tok in tokens:
        await t.request(tok, {"op": "act", "action": {"type": "submit", "value": "sv.yes"}})
    for tok in tokens:
        await t.request(tok, {"op": "act", "action": {"type": "lock"}})
    await H.quiet(everyone, idle=0.005)
    for p in phones:  # the reveal has reached the phone, its cards are not turned yet
        text = shown_text(p)
        assert "Tally" not in text and "3 of 3" not in text, text
    assert "Tally" not in shown_text(host), shown_text(host)  # (the host's side panel too)
    await asyncio.sleep(TURNED)
    await H.quiet(everyone, idle=0.01)
    for p in phones:
        text = shown_text(p)
        assert "Your Yes – 3 of 3 chose it" in text, text
        assert "Tally" in text, text
    assert "Tally" in shown_text(host)
    for c in everyone:
        c.close()


def test_a_phones_card_keeps_a_short_word_on_one_line() -> None:
    """"Tacos" on a phone's card never breaks as "Taco / s" (nor is cut to "Tac"): the card is as
    wide as its word, on one line; a long word is smaller, on two lines at most."""
    m = D.Moment("k", "Round 1", (D.Card(0, "Tacos"), D.Card(1, "Spaghetti"), D.Card(2, "731942"),
                                  D.Card(0, "Pizza", "not locked")),
                 seats=(("Ann", "#d32f2f"), ("Bob", "#1976d2"), ("Zoë", "#388e3c")))
    for c in m.cards:
        card = M.face(m, c)
        face = card.content.controls[1]
        assert face.value == c.face
        assert face.max_lines == 1 and face.no_wrap, c.face
        inner = card.width - 2 * 3 - 2 * 4  # (border, padding)
        assert inner >= len(c.face) * face.size * 0.62, (c.face, card.width, face.size)
    three = sum(M.face(m, c).width for c in m.cards[:3]) + 2 * 6
    assert three <= 360 - 2 * 14 - 2 * 15, three  # three cards on one row of a 360 px phone
    long = M.face(m, D.Card(1, "Ratatouille provençale"))
    assert long.content.controls[1].max_lines == 2 and long.width <= 150


async def test_a_phones_moment_closed_before_the_last_declaration_comes_back_with_its_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """LUTETIA's cards turn one by one as their seats declare, and the outcome comes with the last
    declaration: a phone's moment that closed by itself in between (a table takes longer than HOLD_S
    to declare) comes back with the seat's line ("Your 20 decided it: …")."""
    monkeypatch.setattr(M, "HOLD_S", 1.5)  # (the line is looked for TURNED after the outcome: within the hold)
    t, tokens, phones, host, tv = await _open("lutetia", 3)
    sp = specs()["lutetia"]
    r = random.Random(11)
    waited = 0
    ms: list[D.Moment | None] = []
    for _ in range(400):
        took = await table_step(t, tokens, sp, 3, r)
        assert took is not None
        if not took:
            continue
        await H.quiet(phones, idle=0.005)
        ms = [M.seat_moment(p.screen.ctx()) for p in phones]
        if any(m is not None and m.yours for m in ms):
            break
        if any(m is not None for m in ms):  # a card turned, no outcome yet: every phone's moment closes
            await asyncio.sleep(TURNED + M.HOLD_S + 0.2)
            waited += 1
    assert waited >= 1 and any(m is not None and m.yours for m in ms), "no declaration before the outcome"
    await asyncio.sleep(TURNED)
    await H.quiet(phones, idle=0.01)
    for p, m in zip(phones, ms, strict=True):
        if m is not None and m.yours:
            assert m.yours in shown_text(p).split("\n")
    for c in (*phones, host, tv):
        c.close()
