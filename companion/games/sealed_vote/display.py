"""The sealed vote on the table display (companion/ui/views/display.py): the question, who has
locked, and the last reveal – each seat's card turning over, then the tally."""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.games.sealed_vote.screens import tally_text, top_text
from companion.ui.kit import UiContext
from companion.ui.views.display import BIG, Card, Moment, Status, sealed_status


def _question(ctx: UiContext, q: dict[str, Any]) -> str:
    return q.get("question") or ctx.t("sv.default_question")


def status(ctx: UiContext) -> Status:
    v = ctx.view
    rnd = v.get("round") or {}
    if v.get("phase") == "voting" and v.get("question") and not rnd.get("revealed"):
        head = f"{ctx.t('sv.round', n=v.get('round_no', 1))}: {_question(ctx, v['question'])}"
        return sealed_status(ctx, list(rnd.get("seats") or []), list(rnd.get("locked") or []), head,
                             list(rnd.get("submitted") or []))
    return Status(ctx.t("display.sv.next"))


def board(ctx: UiContext, width: float) -> ft.Control:
    v = ctx.view
    rnd = v.get("round") or {}
    if v.get("phase") != "voting" or not v.get("question") or rnd.get("revealed"):
        return ft.Container()
    n, of = len(rnd.get("locked") or []), len(rnd.get("seats") or [])
    return ft.Text(ctx.t("display.locked_count", count=n, of=of), size=BIG, weight=ft.FontWeight.W_600)


def moment(ctx: UiContext) -> Moment | None:
    hist = ctx.view.get("history") or []
    if not hist or hist[0].get("abandoned"):
        return None
    h = hist[0]
    cards = tuple(Card(r["seat"], ctx.t("sv.no_value") if r["value"] is None else ctx.tv(r["value"]),
                       ctx.t("ui.not_locked") if r.get("unlocked") else "")  # counted, never locked
                  for r in h["rows"])
    s = h["summary"]
    if h["question"]["mode"] == "number":
        out = (top_text(ctx, h),
               ctx.t("sv.sum", sum=s["sum"], max=s["max"], min=s["min"])) if s.get("count") else ()
    else:
        out = (tally_text(ctx, h),)
    title = f"{ctx.t('sv.round', n=h['round_no'])}: {_question(ctx, h['question'])}"
    return Moment(f"sv{h['round_no']}", title, cards, out,
                  seats=tuple((x["name"], x["colour"]) for x in ctx.table.seats))


def yours(ctx: UiContext, m: Moment) -> str:
    """A phone's moment (companion/ui/views/moment.py): this seat's choice and how the round went
    for it – "Your Yes – 3 of 4 chose it", "Your 20 is the highest"."""
    hist = ctx.view.get("history") or []
    if not hist or ctx.seat is None:
        return ""
    h = hist[0]
    mine = next((r for r in h["rows"] if r["seat"] == ctx.seat), None)
    if mine is None:
        return ""
    if mine["value"] is None:
        return ctx.t("moment.sv.none")
    value = ctx.tv(mine["value"])
    if h["question"]["mode"] == "number":
        if ctx.seat in (h["summary"].get("top") or ()):
            return ctx.t("moment.sv.highest", value=value)
        return ctx.t("moment.sv.value", value=value)
    same = sum(1 for r in h["rows"] if r["value"] == mine["value"])
    return ctx.t("moment.sv.yours", choice=value, count=same, of=len(h["rows"]))
