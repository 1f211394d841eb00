"""Lutèce on the table display (companion/ui/views/display.py): the round's card slots as cards
(cost, coins on it, who took it), who is ready, and the resolution as a moment – every seat's
two cards turning over with their bribes, then slot by slot who claims it, who takes it, the
refunds and coins (at the host's "Next" or the display's steady pace), then the round's summary."""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.ui import kit
from companion.ui.kit import UiContext
from companion.ui.views.display import Card, Moment, Status, sealed_status


def status(ctx: UiContext) -> Status:
    v = ctx.view
    ph = v.get("phase")
    if ph == "choose":
        seats = [p["seat"] for p in v.get("players") or []]
        return sealed_status(ctx, seats, list(v.get("locked") or []),
                             ctx.t("display.lc.choose", round=v.get("round", 1)), list(v.get("submitted") or []))
    if ph == "refill":
        return Status(ctx.t("display.lc.refill", round=v.get("round", 1)))
    if ph == "scoring":
        missing = tuple(p["seat"] for p in v.get("players") or [] if not p.get("score"))
        return Status(ctx.t("display.lc.scoring"), missing, sealed=False)
    if ph == "over":
        return Status(ctx.t("display.over"))
    return Status("")


def _slot_card(ctx: UiContext, s: dict[str, Any], w: float) -> ft.Control:
    place = s.get("kind") == "place"
    taker = s.get("taken_by")
    body: list[ft.Control] = [
        ft.Text(s["id"], size=30, weight=ft.FontWeight.BOLD, color="#3e2723"),
        ft.Text(ctx.t("display.lc.place" if place else "display.lc.character"), size=16, color="#5d4037"),
        ft.Text(ctx.t("display.lc.cost", cost="?" if s.get("cost") is None else s["cost"]), size=22, weight=ft.FontWeight.W_600),
    ]
    coins = s.get("coins", 0)
    body.append(ft.Row([ft.Container(width=22, height=22, border_radius=11, bgcolor="#fbc02d",
                                     border=ft.Border.all(2, "#8d6e63")) for _ in range(min(coins, 4))]
                       + ([ft.Text(f"+{coins}", size=20, weight=ft.FontWeight.BOLD)] if coins else []),
                       spacing=2, tight=True, alignment=ft.MainAxisAlignment.CENTER))
    if isinstance(taker, int):
        body.append(ft.Row([kit.seat_dot(ctx.colour(taker), 24),
                            ft.Text(ctx.name(taker), size=18, weight=ft.FontWeight.BOLD, max_lines=1,
                                    overflow=ft.TextOverflow.ELLIPSIS, expand=True)], spacing=4))
    return ft.Container(width=w, height=w * 1.55, border_radius=12, padding=6,
                        bgcolor="#e3f2fd" if place else "#fff8e1",
                        border=ft.Border.all(4, ctx.colour(taker) if isinstance(taker, int) else "#8d6e63"),
                        content=ft.Column(body, spacing=2, tight=True,
                                          horizontal_alignment=ft.CrossAxisAlignment.CENTER))


def board(ctx: UiContext, width: float) -> ft.Control:
    slots = ctx.view.get("slots") or []
    if not slots:
        return ft.Container()
    w = max(84.0, min(150.0, (width - 10) / max(1, len(slots)) - 8))
    cards = [_slot_card(ctx, s, w) for s in slots]
    gold = "  ·  ".join(ctx.t("display.lc.gold", name=p["name"], count=p.get("gold", 0))
                        for p in ctx.view.get("players") or [])
    return ft.Column([ft.Row(cards, spacing=8, wrap=True, run_spacing=8),
                      ft.Text(gold, size=24, weight=ft.FontWeight.W_600)], spacing=8, tight=True)


def moment(ctx: UiContext) -> Moment | None:
    v = ctx.view
    revealed = v.get("revealed")
    if not revealed:
        return None
    cards: list[Card] = []
    for seat_s, r in sorted(revealed.items(), key=lambda kv: int(kv[0])):
        played = r.get("cards") or []
        stakes = r.get("stakes") or []
        face = " + ".join(ctx.tv(c) if c.startswith("lutece.") else ctx.t("lutece.card.R") if c == "R" else c
                          for c in played) or "–"
        note = ctx.t("display.lc.bribes", bribes=" / ".join(str(x) for x in stakes[:len(played)])) if played else ""
        if r.get("unlocked"):  # counted at an early reveal, never locked
            note = f"{note} · {ctx.t('ui.not_locked')}" if note else ctx.t("ui.not_locked")
        cards.append(Card(int(seat_s), face, note))
    steps: list[tuple[str, tuple[str, ...]]] = []
    where: dict[str, int] = {}
    other: list[str] = []
    for e in v.get("resolution") or []:
        p = e.get("params") or {}
        if e["key"] in ("lutece.ev.played", "lutece.ev.played_nothing", "lutece.ev.played_unlocked",
                        "lutece.ev.not_counted"):
            continue
        slot = p.get("slot")
        if slot is None:
            other.append(ctx.msg(e))
            continue
        if slot not in where:
            where[slot] = len(steps)
            steps.append((ctx.t("display.lc.slot", slot=slot), ()))
        head, lines = steps[where[slot]]
        steps[where[slot]] = (head, (*lines, ctx.msg(e)))
    summary = (*other, "  ·  ".join(ctx.t("display.lc.gold", name=p["name"], count=p.get("gold", 0))
                                    for p in v.get("players") or []))
    return Moment(f"lc{v.get('round')}:{len(v.get('resolution') or [])}",
                  ctx.t("display.lc.reveal", round=v.get("round", 1)), tuple(cards), (), tuple(steps), summary,
                  seats=tuple((s["name"], s["colour"]) for s in ctx.table.seats), first=v.get("phase") == "refill")


def yours(ctx: UiContext, m: Moment) -> str:
    """A phone's moment (companion/ui/views/moment.py): what the resolution did for this seat, slot
    by slot – "You take A for 3 gold", "Bob outbid you for B"."""
    me = ctx.seat
    events = ctx.view.get("resolution") or []
    takers = {(e.get("params") or {}).get("slot"): (e.get("params") or {}).get("seat") for e in events
              if e["key"] in ("lutece.ev.take", "lutece.ev.take_sole")}
    lines: list[str] = []
    for e in events:
        p = e.get("params") or {}
        if p.get("seat") != me or p.get("slot") is None:
            continue
        k = e["key"]
        if k in ("lutece.ev.take", "lutece.ev.take_sole"):
            lines.append(ctx.t("moment.lc.take", slot=p["slot"], count=p.get("cost", 0)))
        elif k in ("lutece.ev.refund", "lutece.ev.refund_no_bonus") and isinstance(takers.get(p["slot"]), int):
            lines.append(ctx.t("moment.lc.outbid", name=ctx.name(takers[p["slot"]]), slot=p["slot"]))
        elif k in ("lutece.ev.refund_tie", "lutece.ev.refund_tie_no_bonus"):
            lines.append(ctx.t("moment.lc.tie", slot=p["slot"]))
        elif k == "lutece.ev.cannot_pay":
            lines.append(ctx.t("moment.lc.cannot_pay", slot=p["slot"]))
    if not lines and me is not None and str(me) in (ctx.view.get("revealed") or {}):
        lines.append(ctx.t("moment.lc.nothing"))
    return " · ".join(lines)
