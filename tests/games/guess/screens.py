"""Screens of Guess (the test-only game): built only from ctx.view / ctx.legal, no rules here."""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.ui import kit
from companion.ui.kit import UiContext


def _head(ctx: UiContext, size: int) -> ft.Control:
    v = ctx.view
    return kit.title(ctx.t("guess.round", n=v["round_no"], total=v["rounds"]), size)


def _scores(ctx: UiContext) -> ft.Control:
    v = ctx.view
    return kit.card(kit.title(ctx.t("guess.points"), 18), *[
        ft.Row([kit.seat_dot(ctx.colour(s), 16), ft.Text(ctx.t("guess.score", name=ctx.name(s), points=p), size=17)])
        for s, p in enumerate(v["scores"])])


def _revealed(ctx: UiContext) -> list[ft.Control]:
    v = ctx.view
    if "target" not in v:
        return []
    picks = v["round"].get("choices", {})
    rows: list[ft.Control] = [ft.Text(ctx.t("guess.target", target=v["target"]), size=24, weight=ft.FontWeight.BOLD)]
    for s in v["round"]["seats"]:
        value = picks.get(str(s))
        rows.append(ft.Text(ctx.t("guess.no_pick", name=ctx.name(s)) if value is None
                            else ctx.t("guess.picked", name=ctx.name(s), value=value), size=18))
    return [kit.card(*rows)]


def phone(ctx: UiContext) -> list[ft.Control]:
    v = ctx.view
    rnd = v["round"]
    out: list[ft.Control] = [_head(ctx, 22)]
    kinds = {a["type"] for a in ctx.legal}
    if "pick" in kinds:
        out.append(ft.Text(ctx.t("guess.pick"), size=17))
        buttons = []
        for a in ctx.legal:
            if a["type"] != "pick":
                continue

            async def pick(e: Any, value: int = a["value"]) -> None:
                await ctx.act({"type": "pick", "value": value})
            buttons.append(kit.button(str(a["value"]), pick, primary=rnd.get("mine") == a["value"]))
        out.append(ft.Row(buttons, wrap=True))
    if rnd.get("mine") is not None and not rnd["revealed"]:
        out.append(ft.Text(ctx.t("ui.your_choice", value=rnd["mine"]), size=18, weight=ft.FontWeight.BOLD))
    if "lock" in kinds:
        async def lock(e: Any) -> None:
            await ctx.act({"type": "lock"})
        out.append(kit.button(ctx.t("ui.lock"), lock, icon=ft.Icons.LOCK))
    elif rnd.get("my_locked") and not rnd["revealed"]:
        out.append(ft.Text(ctx.waiting_for([s for s in rnd["seats"] if s not in rnd["locked"]]), size=16))
    out += _revealed(ctx)
    out.append(_scores(ctx))
    return out


def host(ctx: UiContext) -> list[ft.Control]:
    v = ctx.view
    rnd = v["round"]
    out: list[ft.Control] = [_head(ctx, 30)]
    if not rnd["revealed"]:
        out.append(ft.Text(ctx.t("ui.locked_count", n=len(rnd["locked"]), total=len(rnd["seats"])), size=22))
    out += _revealed(ctx)
    if ctx.is_host and ctx.table.phase == "playing":
        kinds = {a["type"] for a in ctx.legal}
        if "next" in kinds:
            async def next_round(e: Any) -> None:
                await ctx.act({"type": "next"})
            out.append(kit.button(ctx.t("guess.next"), next_round, icon=ft.Icons.SEND))
    out.append(_scores(ctx))
    out += [ft.Text(ctx.msg(item), size=14) for item in reversed(v["log"])]
    return out


def result(ctx: UiContext) -> list[ft.Control]:
    out = [_scores(ctx)]
    res = ctx.outcome()  # the one result shape (base.Result)
    if res is not None and res.tie_break:
        out.append(ft.Text(ctx.t(res.tie_break), size=16))
    return out
