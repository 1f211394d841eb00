"""Guess on the table display (companion/ui/views/display.py): the round, who has locked, the
points – and the last reveal: both picks turning over, then the target and who scored."""

from __future__ import annotations

import flet as ft

from companion.ui.kit import UiContext
from companion.ui.views.display import BIG, Card, Moment, Status, sealed_status


def status(ctx: UiContext) -> Status:
    v = ctx.view
    rnd = v.get("round") or {}
    if v.get("phase") == "over":
        return Status(ctx.t("guess.log.over"))
    head = ctx.t("guess.round", n=v["round_no"], total=v["rounds"])
    if rnd.get("revealed"):
        return Status(f"{head}: {ctx.t('guess.target', target=v.get('target'))}")
    return sealed_status(ctx, list(rnd.get("seats") or []), list(rnd.get("locked") or []), head,
                         list(rnd.get("submitted") or []))


def board(ctx: UiContext, width: float) -> ft.Control:
    scores = ctx.view.get("scores") or []
    return ft.Text("   ".join(ctx.t("guess.score", name=ctx.name(s), points=p) for s, p in enumerate(scores)),
                   size=BIG, weight=ft.FontWeight.W_600)


def moment(ctx: UiContext) -> Moment | None:
    hist = ctx.view.get("history") or []
    if not hist:
        return None
    h = hist[0]
    cards = tuple(Card(s, "–" if p is None else str(p), good=s in h["won"]) for s, p in enumerate(h["picks"]))
    out = (ctx.t("guess.target", target=h["target"]),
           *[ctx.t("guess.scored", name=ctx.name(s)) for s in h["won"]])
    return Moment(f"guess{h['round_no']}", ctx.t("guess.round", n=h["round_no"], total=ctx.view["rounds"]),
                  cards, out, seats=tuple((x["name"], x["colour"]) for x in ctx.table.seats))


def yours(ctx: UiContext, m: Moment) -> str:
    """A phone's line of the moment: whether this seat scored."""
    hist = ctx.view.get("history") or []
    if not hist or ctx.seat is None:
        return ""
    return ctx.t("guess.you_scored" if ctx.seat in hist[0]["won"] else "guess.you_missed")
