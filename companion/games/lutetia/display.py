"""LUTETIA on the table display (companion/ui/views/display.py): the 1..50 track in its areas'
colours with big Miraculix and Asterix figures and the proposal's move, who is to act, and the
last vote – each seat's cards turning over with for/against, then the decision."""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.ui.kit import UiContext
from companion.ui.views.display import Card, Moment, Status, sealed_status


def _card(ctx: UiContext, card: str) -> str:
    return ctx.t(f"lutetia.card.{card}") if card in ("M", "R") else card


def status(ctx: UiContext) -> Status:
    v = ctx.view
    ph = v.get("phase")
    if ph == "vote":
        vote = v.get("vote") or {}
        head = ctx.t("display.lt.vote", name=ctx.name(v.get("proposer")), space=v.get("asterix"))
        return sealed_status(ctx, list(range(len(ctx.table.seats))), list(vote.get("locked") or []), head,
                             list(vote.get("chosen") or []))
    if ph == "reveal":
        pending = tuple(r["seat"] for r in v.get("reveals") or [] if r.get("pending"))
        return Status(ctx.t("display.lt.declare", names=ctx.names(list(pending))) if pending
                      else ctx.t("display.lt.counting"), pending)
    if ph == "propose":
        turn = v.get("turn")
        return Status(ctx.t("display.lt.propose", name=ctx.name(turn)), (turn,) if turn is not None else (),
                      turn=turn)
    if ph == "after":
        pending = tuple(v.get("pending") or ())
        return Status(ctx.t("display.waiting", names=ctx.names(list(pending))) if pending else "", pending)
    if ph == "enter":
        done = [s["seat"] for s in v.get("seats") or [] if s.get("entered")]
        return sealed_status(ctx, list(range(len(ctx.table.seats))), done, ctx.t("display.lt.enter"))
    if ph == "over":
        return Status(ctx.t("display.over"))
    return Status("")


def _figure(letter: str, body: str, edge: str, size: float, label: str) -> ft.Control:
    """A pawn drawn with shapes: a head, a wide body, the figure's initial on it."""
    head = size * 0.36
    return ft.Semantics(label=label, content=ft.Column([
        ft.Container(width=head, height=head, border_radius=head, bgcolor=body, border=ft.Border.all(3, edge)),
        ft.Container(width=size * 0.62, height=size * 0.5, bgcolor=body, border=ft.Border.all(3, edge),
                     border_radius=ft.BorderRadius.only(top_left=size * 0.3, top_right=size * 0.3,
                                                        bottom_left=6, bottom_right=6),
                     alignment=ft.Alignment.CENTER,
                     content=ft.Text(letter, size=size * 0.3, weight=ft.FontWeight.BOLD, color=edge)),
    ], spacing=-4, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER))


def board(ctx: UiContext, width: float) -> ft.Control:
    v = ctx.view
    mira, aster = v.get("miraculix", 0), v.get("asterix")
    moving = v.get("phase") in ("vote", "reveal") and isinstance(aster, int) and aster != mira
    tile = max(40.0, min(96.0, (width - 30 - 11 * 6) / 11.6))
    areas = v.get("areas") or []

    def colour(space: int) -> str:
        for a in areas:
            if a["lo"] <= space <= a["hi"]:
                return a["hex"]
        return "#888888"
    m_fig = _figure("M", "#ffffff", "#b71c1c", tile * 0.9, ctx.t("display.lt.miraculix", space=mira))
    a_fig = _figure("A", "#ffd54f", "#0d47a1", tile * 0.9, ctx.t("display.lt.asterix", space=aster))
    rows: list[ft.Control] = []
    start = ft.Container(width=tile * 1.6, height=tile, border_radius=10, bgcolor="#d7ccc8",
                         alignment=ft.Alignment.CENTER,
                         content=m_fig if mira == 0 else ft.Text(ctx.t("display.lt.start"), size=22,
                                                                 weight=ft.FontWeight.BOLD))
    for r in range(5):
        cells: list[ft.Control] = [start if r == 0 else ft.Container(width=tile * 1.6)]
        for c in range(10):
            n = r * 10 + c + 1
            target = moving and n == aster
            inner: ft.Control = ft.Text(str(n), size=26, weight=ft.FontWeight.BOLD, color=ft.Colors.WHITE)
            if n == mira:
                inner = m_fig
            elif n == aster:
                inner = a_fig
            cells.append(ft.Container(
                width=tile, height=tile, border_radius=10, bgcolor=colour(n), alignment=ft.Alignment.CENTER,
                border=ft.Border.all(5, "#000000") if target else ft.Border.all(1, "#00000033"),
                content=inner, tooltip=None))
        rows.append(ft.Row(cells, spacing=6, tight=True))
    parts: list[ft.Control] = rows
    if moving:
        parts.append(ft.Text(ctx.t("display.lt.move", frm=mira, to=aster, steps=aster - mira), size=30,
                             weight=ft.FontWeight.BOLD, color=ft.Colors.BLUE_900))
    return ft.Column(parts, spacing=6, tight=True)


def _reveal_cards(ctx: UiContext, v: dict[str, Any]) -> list[Card]:
    if v.get("reveals"):
        return [Card(r["seat"], _card(ctx, r["card"]),
                     (ctx.t(f"lutetia.side.{r['side']}") if r.get("side") else "?")
                     + (f" · {ctx.t('ui.not_locked')}" if r.get("unlocked") else ""),  # chosen, never locked
                     None if not r.get("side") else r["side"] == "for") for r in v["reveals"]]
    # After the vote the view keeps only the outcome: the cards come from the public log.
    names = {s["name"]: i for i, s in enumerate(ctx.table.seats)}
    log = v.get("log") or []
    last = max((i for i, e in enumerate(log) if e["key"] == "lutetia.log.propose"), default=None)
    if last is None:
        return []
    out: list[Card] = []
    for e in log[last + 1:]:
        k, p = e["key"], e.get("params") or {}
        unlocked = k.endswith("_unlocked")  # a card chosen but never locked (an early reveal)
        k = k.removesuffix("_unlocked")
        if k in ("lutetia.log.reveal_for", "lutetia.log.reveal_against") and p.get("name") in names:
            side = k.rsplit("_", 1)[1]
            out = [c for c in out if c.seat != names[p["name"]]]
            out.append(Card(names[p["name"]], _card(ctx, str(p.get("card"))), ctx.t(f"lutetia.side.{side}")
                            + (f" · {ctx.t('ui.not_locked')}" if unlocked else ""), side == "for"))
    return out


def moment(ctx: UiContext) -> Moment | None:
    v = ctx.view
    n = sum(1 for e in v.get("log") or [] if e["key"] == "lutetia.log.propose")
    cards = _reveal_cards(ctx, v)
    out = v.get("outcome")
    if not cards and not out:
        return None
    lines: tuple[str, ...] = ()
    if out and v.get("phase") not in ("vote", "reveal"):
        head = ctx.t("lutetia.ui.outcome_yes") if out["approved"] else ctx.t("lutetia.ui.outcome_no")
        reason = ctx.msg(out["reason"])  # a count or a tie says its verdict itself: "40 for, 20 against: approved."
        lines = (reason if out["reason"]["key"].startswith(("lutetia.reason.count_", "lutetia.reason.tie"))
                 else f"{head}: {reason}",
                 ctx.t("display.lt.to", space=out["to"]) if out["approved"] else ctx.t("display.lt.stays"))
    return Moment(f"lt{n}", ctx.t("display.lt.reveal"), tuple(cards), lines,
                  seats=tuple((s["name"], s["colour"]) for s in ctx.table.seats),
                  first=v.get("phase") in ("reveal", "after"))


def yours(ctx: UiContext, m: Moment) -> str:
    """A phone's moment (companion/ui/views/moment.py): this seat's card and what it did –
    "Your 20 decided it: Approved", "Your 10 (against) – Approved"."""
    out = ctx.view.get("outcome")
    mine = next((c for c in m.cards if c.seat == ctx.seat), None)
    if not out or mine is None or mine.good is None:
        return ""
    result = ctx.t("lutetia.ui.outcome_yes") if out["approved"] else ctx.t("lutetia.ui.outcome_no")
    reason = out.get("reason") or {}
    value = int(mine.face) if mine.face.isdigit() else 0
    pro, contra = out.get("pro", 0), out.get("contra", 0)
    if reason.get("key", "").startswith("lutetia.reason.m_"):
        decided = (reason.get("params") or {}).get("name") == ctx.table.seats[ctx.seat]["name"]
    elif mine.good:  # a tie approves: without this card, would it still have been approved?
        decided = out["approved"] and pro - value < contra
    else:
        decided = not out["approved"] and contra - value <= pro
    if decided:
        return ctx.t("moment.lt.decided", card=mine.face, outcome=result)
    side = ctx.t("lutetia.side.for" if mine.good else "lutetia.side.against")
    return ctx.t("moment.lt.yours", card=mine.face, side=side, outcome=result)
