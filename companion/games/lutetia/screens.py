"""Screens of LUTETIA: the phone (secret plans, mod cards, vote cards; one tap per decision),
the host board (track, reveal sequence, outcome, chieftains, log) and the scorer.

Everything comes from `lutetia.view()`: which spaces may be proposed, which plans can be fulfilled
with which card, which Roman plan can be handed in. No rules arithmetic here.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.ui import kit
from companion.ui.kit import UiContext

SECRET_BG = ft.Colors.AMBER_50


# --------------------------------------------------------------------------- small pieces

def _sub(text: str, size: int = 15) -> ft.Text:
    return ft.Text(text, size=size, color=ft.Colors.ON_SURFACE_VARIANT)


def _card_name(ctx: UiContext | kit.Look, card: str) -> str:
    return ctx.t(f"lutetia.card.{card}") if card in ("M", "R") else card


def _cards(ctx: UiContext | kit.Look, cards: list[str]) -> str:
    return ", ".join(_card_name(ctx, c) for c in cards) or ctx.t("lutetia.ui.none")


def _area_of(v: dict[str, Any], plan: str) -> dict[str, Any] | None:
    me = v.get("me") or {}
    for g in me.get("plans", []):
        if any(p["id"] == plan for p in g["plans"]):
            return g
    return None


def _plan_text(v: dict[str, Any], plan: str) -> str:
    for g in (v.get("me") or {}).get("plans", []):
        for p in g["plans"]:
            if p["id"] == plan:
                return str(p["label"])
    return plan


def _action_button(ctx: UiContext, label: str, action: dict[str, Any], primary: bool = True,
                   colour: str | None = None, icon: Any = None) -> ft.Control:
    async def go(e: Any) -> None:
        await ctx.act(action)
    return kit.button(label, go, primary=primary, colour=colour, width=10_000, icon=icon)


def _status_chip(label: str, colour: str, icon: Any, struck: bool = False) -> ft.Control:
    """A fulfilled (tick) or discarded (struck through) plan in the player's own list."""
    style = ft.TextStyle(decoration=ft.TextDecoration.LINE_THROUGH) if struck else None
    return ft.Container(
        content=ft.Row([ft.Icon(icon, color=ft.Colors.WHITE, size=18),
                        ft.Text(label, size=16, color=ft.Colors.WHITE, weight=ft.FontWeight.W_600, style=style)],
                       spacing=4, tight=True),
        bgcolor=colour, border_radius=20, padding=ft.Padding.symmetric(horizontal=10, vertical=6),
    )


def _header(ctx: UiContext, v: dict[str, Any], size: int) -> list[ft.Control]:
    m = v["miraculix"] or ctx.t("lutetia.ui.track_start")
    a = v["asterix"] if v["asterix"] is not None else ctx.t("lutetia.ui.none")
    return [
        kit.title(ctx.t(f"lutetia.phase.{v['phase']}"), size),
        ft.Text(ctx.t("lutetia.ui.track", m=m, a=a), size=size - 4, weight=ft.FontWeight.W_600),
    ]


def _track(ctx: UiContext, v: dict[str, Any], cell: int) -> ft.Control:
    """The board, redrawn only when Miraculix or Asterix moves."""
    f = ctx.frozen_view()
    return Track(ctx.look, f["areas"], f["miraculix"], f["asterix"], cell)


@kit.component
def Track(look: kit.Look, areas: tuple[Any, ...], miraculix: int, asterix: int | None, cell: int) -> ft.Control:
    return _track_card(look, {"areas": areas, "miraculix": miraculix, "asterix": asterix}, cell)


def _track_card(ctx: kit.Look, v: Any, cell: int) -> ft.Control:
    """The board: five area rows of ten spaces (+ the virtual 51–55), Miraculix and Asterix marked."""
    rows: list[ft.Control] = []
    m, a = v["miraculix"], v["asterix"]
    for info in v["areas"]:
        cells: list[ft.Control] = [ft.Container(ft.Text(ctx.t(info["colour_key"]), size=12), width=cell * 1.6)]
        for n in range(info["lo"], info["hi"] + 1):
            cells.append(_cell(ctx, n, info["hex"], m, a, cell))
        rows.append(ft.Row(cells, spacing=3))
    last = v["areas"][-1]["hex"]
    virt: list[ft.Control] = [ft.Container(ft.Text(ctx.t("lutetia.ui.virtual"), size=12), width=cell * 1.6)]
    virt += [_cell(ctx, n, last, m, a, cell, faded=True) for n in range(51, 56)]
    rows.append(ft.Row(virt, spacing=3))
    return kit.card(*rows)


def _cell(ctx: kit.Look, n: int, colour: str, m: int, a: int | None, size: int,
          faded: bool = False) -> ft.Control:
    mark = ctx.t("lutetia.ui.mark_m") if n == m else (ctx.t("lutetia.ui.mark_a") if n == a else "")
    label = f"{n}\n{mark}" if mark else str(n)
    border = ft.Border.all(3, ft.Colors.BLACK) if mark else None
    return ft.Container(
        content=ft.Text(label, size=11 if mark else 12, color=ft.Colors.WHITE, weight=ft.FontWeight.BOLD,
                        text_align=ft.TextAlign.CENTER),
        width=size, height=size, bgcolor=colour, opacity=0.55 if faded else 1.0, border=border,
        border_radius=6, alignment=ft.Alignment.CENTER,
    )


def _reveals(ctx: UiContext, v: dict[str, Any], big: bool) -> list[ft.Control]:
    if not v["reveals"]:
        return []
    lines: list[ft.Control] = [ft.Text(ctx.t("lutetia.ui.reveals"), size=18, weight=ft.FontWeight.BOLD)]
    for r in v["reveals"]:
        side = ctx.t(f"lutetia.side.{r['side']}") if r["side"] else ("?" if r["pending"] else "")
        lines.append(ft.Row([
            kit.seat_dot(ctx.colour(r["seat"]), 20 if big else 16),
            ft.Text(r["name"], size=20 if big else 17, expand=True),
            *([kit.pill(ctx.t("ui.not_locked"), ft.Colors.DEEP_ORANGE_800)] if r.get("unlocked") else []),
            ft.Text(_card_name(ctx, r["card"]), size=24 if big else 19, weight=ft.FontWeight.BOLD),
            ft.Text(side, size=20 if big else 16, width=110),
        ], spacing=8))
    out = v.get("outcome")
    if out and v["phase"] not in ("vote", "reveal"):
        head = ctx.t("lutetia.ui.outcome_yes") if out["approved"] else ctx.t("lutetia.ui.outcome_no")
        colour = ft.Colors.GREEN_800 if out["approved"] else ft.Colors.RED_800
        lines.append(ft.Text(head, size=24 if big else 20, weight=ft.FontWeight.BOLD, color=colour))
        lines.append(ft.Text(ctx.msg(out["reason"]), size=18 if big else 16))
    return [kit.card(*lines)]


def _players(ctx: UiContext, v: dict[str, Any], big: bool) -> ft.Control:
    f = ctx.frozen_view()
    return Players(ctx.look, f["seats"], f["turn"], f["mod_pile"], f["mod_discard"], big)


@kit.component
def Players(look: kit.Look, seats: tuple[Any, ...], turn: int | None, mod_pile: int, mod_discard: int,
            big: bool) -> ft.Control:
    return _players_card(look, {"seats": seats, "turn": turn, "mod_pile": mod_pile, "mod_discard": mod_discard},
                         big)


def _players_card(ctx: kit.Look, v: Any, big: bool) -> ft.Control:
    rows: list[ft.Control] = [kit.title(ctx.t("lutetia.ui.players"), 20)]
    for s in v["seats"]:
        pills: list[ft.Control] = []
        if v["turn"] == s["seat"]:
            pills.append(kit.pill(ctx.t("lutetia.ui.turn"), ft.Colors.GREEN_700))
        rows.append(ft.Row([
            kit.seat_dot(s["colour"] or ctx.colour(s["seat"]), 20 if big else 16),
            ft.Text(s["name"], size=20 if big else 17, weight=ft.FontWeight.W_600, expand=True),
            *pills,
            ft.Text(ctx.t("lutetia.ui.player_line", plans=s["fulfilled_count"], mods=s["mods_count"]),
                    size=18 if big else 15),
        ], spacing=8))
        detail = ctx.t("lutetia.ui.fulfilled_list",
                                                      plans=", ".join(s["fulfilled_labels"]) or ctx.t("lutetia.ui.none"))
        if s["played"]:
            detail += "  ·  " + ctx.t("lutetia.ui.my_played", cards=_cards(ctx, s["played"]))
        rows.append(_sub(detail, 15 if big else 13))
    rows.append(_sub(ctx.t("lutetia.ui.pile", pile=v["mod_pile"], discard=v["mod_discard"]), 15))
    return kit.card(*rows)


def _log(ctx: UiContext, v: dict[str, Any], n: int) -> list[ft.Control]:
    items = ctx.frozen_view()["log"][-n:]
    if not items:
        return []
    return [Log(ctx.look, items)]


@kit.component
def Log(look: kit.Look, items: tuple[Any, ...]) -> ft.Control:
    return kit.card(ft.Text(look.t("lutetia.ui.log"), size=16, weight=ft.FontWeight.BOLD),
                    *[_sub(look.msg(e), 14) for e in reversed(items)])


# --------------------------------------------------------------------------- phone

def _my_plans(ctx: UiContext, v: dict[str, Any]) -> ft.Control:
    me = v["me"]
    rows: list[ft.Control] = [ft.Text(ctx.t("lutetia.ui.my_plans"), size=18, weight=ft.FontWeight.BOLD)]
    for g in me["plans"]:
        chips: list[ft.Control] = []
        for p in g["plans"]:
            label = p["label"]
            if p["status"] == "fulfilled":
                chips.append(_status_chip(label, g["hex"], ft.Icons.CHECK_CIRCLE))
            elif p["status"] == "dead":
                chips.append(_status_chip(label, ft.Colors.GREY_500, ft.Icons.DO_NOT_DISTURB_ON, struck=True))
            else:
                chips.append(kit.chip(label, g["hex"], selected=p["discardable"]))
        rows.append(ft.Row([ft.Text(f"{g['lo']}–{g['hi']}", size=14, width=56), *chips], wrap=True, spacing=6))
    mods = ", ".join(str(x) for x in me["mods"]) or ctx.t("lutetia.ui.none")
    rows.append(ft.Text(ctx.t("lutetia.ui.my_mods", cards=mods), size=17, weight=ft.FontWeight.W_600))
    if me["owed"]:
        rows.append(ft.Text(ctx.t("lutetia.ui.owed", n=me["owed"]), size=16, color=ft.Colors.RED_700))
    rows.append(_sub(ctx.t("lutetia.ui.my_hand", cards=_cards(ctx, me["hand"])), 15))
    if me["played"]:
        rows.append(_sub(ctx.t("lutetia.ui.my_played", cards=_cards(ctx, me["played"])), 15))
    return kit.card(*rows, bgcolor=SECRET_BG)


def _enter_form(ctx: UiContext, v: dict[str, Any]) -> list[ft.Control]:
    me = v["me"]
    if me["entered"]:
        return [kit.card(ft.Text(ctx.t("lutetia.ui.entered"), size=18))]
    loc = ctx.local
    picked: list[str] = loc.setdefault("enter_plans", [])
    mods: list[int] = loc.setdefault("enter_mods", [])
    out: list[ft.Control] = [kit.title(ctx.t("lutetia.ui.enter_title"), 20),
                             _sub(ctx.t("lutetia.ui.enter_hint", n=me["start_mods"]), 16)]
    for group in me["available_by_area"]:
        chips: list[ft.Control] = []
        for plan in group["plans"]:
            pid = plan["id"]

            async def toggle(e: Any, pid: str = pid) -> None:
                if pid in picked:
                    picked.remove(pid)
                else:
                    picked.append(pid)
                await ctx.rerender()
            on = pid in picked
            chips.append(kit.button(plan["label"], toggle, primary=on, colour=group["hex"],
                                    icon=ft.Icons.CHECK if on else None,
                                    width=128 if plan["label"].startswith("R") else 76))
        out.append(ft.Row(chips, wrap=True, spacing=6, run_spacing=6))
    row: list[ft.Control] = []
    for val in me["available_mods"]:
        async def add(e: Any, val: int = val) -> None:
            if len(mods) < me["start_mods"]:
                mods.append(val)
            await ctx.rerender()
        row.append(kit.button(ctx.t("lutetia.ui.add_mod", value=val), add, primary=False))

    async def clear(e: Any) -> None:
        mods.clear()
        await ctx.rerender()
    row.append(kit.button(ctx.t("lutetia.ui.enter_clear"), clear, primary=False))
    out.append(ft.Text(ctx.t("lutetia.ui.enter_mods", cards=", ".join(map(str, mods)) or "–"), size=17))
    out.append(ft.Row(row, wrap=True, spacing=6))

    async def send(e: Any) -> None:
        if await ctx.act({"type": "enter_hand", "plans": list(picked), "mods": list(mods)}):
            loc.pop("enter_plans", None)
            loc.pop("enter_mods", None)
    out.append(kit.button(ctx.t("lutetia.ui.enter_send"), send, icon=ft.Icons.SEND))
    return [kit.card(*out, bgcolor=SECRET_BG)]


def _todo(ctx: UiContext, v: dict[str, Any]) -> list[ft.Control]:
    """The one call to action of this moment (or what we are waiting for)."""
    me, legal, ph = v["me"], ctx.legal, v["phase"]
    out: list[ft.Control] = []
    reports = [a for a in legal if a["type"] == "report_draw"]
    if reports:
        out.append(kit.card(ft.Text(ctx.t("lutetia.ui.report_title"), size=18, weight=ft.FontWeight.BOLD),
                            *[_action_button(ctx, ctx.t("lutetia.ui.report_btn", value=a["value"]), a)
                              for a in reports], bgcolor=SECRET_BG))
    if ph == "enter":
        return out + _enter_form(ctx, v)
    if ph == "propose":
        if v["turn"] != me["seat"]:
            return out + [kit.card(ft.Text(ctx.t("lutetia.ui.turn_propose", name=ctx.name(v["turn"])), size=20))]
        parts: list[ft.Control] = [kit.title(ctx.t("lutetia.ui.your_propose"), 20)]
        if v["first_proposal"]:
            parts.append(_sub(ctx.t("lutetia.ui.first_hint"), 15))
        targets = [a for a in legal if a["type"] == "propose"]
        parts.append(ft.Row([_sized(_action_button(ctx, ctx.t("lutetia.ui.propose_to", space=a["to"]), a), 160)
                             for a in targets], wrap=True, spacing=8, run_spacing=8))
        out.append(kit.card(*parts))
        dead = [a for a in legal if a["type"] == "discard_dead"]
        if dead:
            out.append(kit.card(ft.Text(ctx.t("lutetia.ui.dead_title"), size=17, weight=ft.FontWeight.BOLD),
                                _sub(ctx.t("lutetia.ui.dead_hint"), 15),
                                *[_action_button(ctx, ctx.t("lutetia.ui.discard", plan=_plan_text(v, a["plan"])),
                                                 a, primary=False) for a in dead], bgcolor=SECRET_BG))
        return out
    if ph == "vote":
        chosen = me["chosen"]
        shown = _choice_text(ctx, chosen) if chosen else ""
        if me["locked"]:
            return out + [kit.card(ft.Text(ctx.t("lutetia.ui.locked", card=shown), size=20,
                                           weight=ft.FontWeight.BOLD), bgcolor=SECRET_BG)]
        parts = [kit.title(ctx.t("lutetia.ui.choose_card"), 20)]  # (the header above says where Asterix is)
        # one row per card: with sealed declarations its "for" and "against" side by side
        rows: dict[str, list[ft.Control]] = {}
        for a in legal:
            if a["type"] != "choose":
                continue
            selected = chosen is not None and chosen["card"] == a["card"] and chosen["side"] == a.get("side")
            if a.get("side"):  # half a phone wide: the card's short name ("M: against")
                label = ctx.t("lutetia.ui.card_side", card=a["card"], side=ctx.t(f"lutetia.side.{a['side']}"))
                colour = ft.Colors.GREEN_800 if a["side"] == "for" else ft.Colors.RED_800
                b = _half_button(ctx, label, a, selected, colour)
            else:
                b = _action_button(ctx, _choice_text(ctx, a), a, primary=selected,
                                   icon=ft.Icons.CHECK if selected else None)
            rows.setdefault(a["card"], []).append(b)
        for row in rows.values():
            parts.append(ft.Row(row, spacing=8) if len(row) > 1 else row[0])
        if chosen:
            parts.append(ft.Text(ctx.t("lutetia.ui.chosen", card=shown), size=18, weight=ft.FontWeight.W_600))
            parts.append(_action_button(ctx, ctx.t("lutetia.ui.lock"), {"type": "lock"}))
        return out + [kit.card(*parts, bgcolor=SECRET_BG)]
    if ph == "reveal":
        if v["turn"] == me["seat"]:
            card = v["reveals"][-1]["card"]
            return out + [kit.card(
                ft.Text(ctx.t("lutetia.ui.your_declare", card=_card_name(ctx, card), space=v["asterix"]), size=20,
                        weight=ft.FontWeight.BOLD),
                ft.Row([_sized(_action_button(ctx, ctx.t("lutetia.ui.vote_for"), {"type": "declare", "side": "for"},
                                              colour=ft.Colors.GREEN_700), 170),
                        _sized(_action_button(ctx, ctx.t("lutetia.ui.vote_against"),
                                              {"type": "declare", "side": "against"}, colour=ft.Colors.RED_700),
                               170)], wrap=True, spacing=10))]
        waiting: list[ft.Control] = [ft.Text(ctx.t("lutetia.ui.waiting_declare", name=ctx.name(v["turn"])), size=18)]
        if me["chosen"] and not any(r["seat"] == me["seat"] for r in v["reveals"]):
            waiting.append(ft.Text(ctx.t("lutetia.ui.chosen", card=_choice_text(ctx, me["chosen"])), size=16))
        return out + [kit.card(*waiting)]
    if ph == "after":
        pos = v["miraculix"]
        if "modify" in me["tasks"]:
            fits = me["fulfil_options"]
            parts = [ft.Text(ctx.t("lutetia.ui.fulfil_title"), size=18, weight=ft.FontWeight.BOLD)]
            parts += [_action_button(ctx, ctx.t("lutetia.ui.fulfil_btn", plan=o["plan"], value=o["value"]),
                                     {"type": "fulfil", "plan": o["plan"], "value": o["value"]}) for o in fits]
            if not fits:  # nothing fits: the seat still answers, as everyone does (no one can tell)
                parts.append(ft.Text(ctx.t("lutetia.ui.fulfil_none", pos=pos), size=17))
            parts.append(_action_button(ctx, ctx.t("lutetia.ui.pass_modify" if fits else "lutetia.ui.confirm_none"),
                                        {"type": "pass", "task": "modify"}, primary=not fits))
            parts.append(_sub(ctx.t("lutetia.ui.step_hint"), 14))
            out.append(kit.card(*parts, bgcolor=SECRET_BG))
        if "roman" in me["tasks"]:
            btns: list[ft.Control] = []
            for o in me["roman_options"]:
                g = _area_of(v, o["plan"]) or {"lo": "?", "hi": "?"}
                key = "lutetia.ui.roman_btn_mod" if o["value"] else "lutetia.ui.roman_btn"
                btns.append(_action_button(ctx, ctx.t(key, lo=g["lo"], hi=g["hi"], value=o["value"]),
                                           {"type": "roman", "plan": o["plan"], "value": o["value"]}))
            if not btns:
                btns.append(ft.Text(ctx.t("lutetia.ui.roman_none", pos=v.get("roman_pos", pos)), size=17))
            out.append(kit.card(ft.Text(ctx.t("lutetia.ui.roman_title"), size=18, weight=ft.FontWeight.BOLD), *btns,
                                _action_button(ctx, ctx.t("lutetia.ui.pass_roman"),
                                               {"type": "pass", "task": "roman"}, primary=not me["roman_options"]),
                                bgcolor=SECRET_BG))
        if not me["tasks"]:
            out.append(kit.card(ft.Text(_waiting_text(ctx, v), size=18)))
        return out
    return out


def _waiting_text(ctx: UiContext, v: dict[str, Any]) -> str:
    """Who still answers the after-vote step (one player / several players, in every language)."""
    pending = v.get("pending", [])
    names = ", ".join(ctx.name(s) for s in pending)
    key = "lutetia.ui.waiting_one" if len(pending) == 1 else "lutetia.ui.waiting_many"
    return ctx.t(key, n=len(pending), names=names)


def _half_button(ctx: UiContext, label: str, action: dict[str, Any], selected: bool, colour: str) -> ft.Control:
    async def go(e: Any) -> None:
        await ctx.act(action)
    return kit.button(label, go, primary=selected, colour=colour, expand=True,
                      icon=ft.Icons.CHECK if selected else None)


def _sized(control: ft.Control, width: int) -> ft.Control:
    control.width = width  # type: ignore[attr-defined]
    return control


def _choice_text(ctx: UiContext, c: dict[str, Any]) -> str:
    name = _card_name(ctx, c["card"])
    if c.get("side"):
        return ctx.t("lutetia.ui.card_side", card=name, side=ctx.t(f"lutetia.side.{c['side']}"))
    return name


def phone(ctx: UiContext) -> list[ft.Control]:
    v = ctx.view
    if v.get("over"):
        return result(ctx)
    out: list[ft.Control] = _header(ctx, v, 22)
    out += _todo(ctx, v)
    out += _reveals(ctx, v, big=False)
    if v["me"]["entered"] or v["phase"] != "enter":
        out.append(_my_plans(ctx, v))
    out.append(_players(ctx, v, big=False))
    out += _log(ctx, v, 6)
    return out


# --------------------------------------------------------------------------- host

def host(ctx: UiContext) -> list[ft.Control]:
    v = ctx.view
    if v.get("over"):
        return result(ctx)
    out: list[ft.Control] = _header(ctx, v, 30)
    if not ctx.is_host:  # (the host's panel sits beside the table display, which draws the whole track:
        out.append(_track(ctx, v, 44))  # a second, smaller copy there was cut at 1280 px, issue 30.7)
    ph = v["phase"]
    if ph == "propose":
        out.append(ft.Text(ctx.t("lutetia.ui.turn_propose", name=ctx.name(v["turn"])), size=24))
    elif ph == "vote":
        out.append(ft.Text(ctx.t("lutetia.ui.chosen_count", n=len(v["vote"]["chosen"]), total=len(v["seats"])),
                           size=24, weight=ft.FontWeight.BOLD))
    elif ph == "reveal" and v["turn"] is not None:
        out.append(ft.Text(ctx.t("lutetia.ui.waiting_declare", name=ctx.name(v["turn"])), size=24))
    elif ph == "after":
        out.append(ft.Text(_waiting_text(ctx, v), size=24))
    elif ph == "enter":
        out.append(ft.Text(ctx.t("lutetia.ui.chosen_count", n=len(v.get("submitted", [])),
                                 total=len(v["seats"])), size=24))
    if ctx.is_host and any(a["type"] == "skip" for a in ctx.legal):
        out.append(kit.button(ctx.t("lutetia.ui.skip"), _host_skip(ctx), primary=False, icon=ft.Icons.SKIP_NEXT))
    out += _reveals(ctx, v, big=True)
    out.append(_players(ctx, v, big=True))
    out += _log(ctx, v, 12)
    return out


def _host_skip(ctx: UiContext) -> Any:
    async def skip(e: Any) -> None:
        await ctx.act({"type": "skip"})
    return skip


# --------------------------------------------------------------------------- scorer

def result(ctx: UiContext) -> list[ft.Control]:
    """The scorer: winner, the phone's own place, then every player ranked with plans, mod cards
    left, the fulfilled plans and the tie-break; the whole game log on request."""
    v = ctx.view
    res = v.get("result")
    oc = ctx.outcome() if res else None  # ranks, fulfilled plans, winners, mods left: base.Result
    if not res or oc is None:
        return [_players(ctx, v, big=ctx.seat is None)]
    big = ctx.seat is None
    names = ", ".join(ctx.name(s) for s in oc.winners)
    head = ctx.t("lutetia.ui.winners_shared" if res["shared"] else "lutetia.ui.winner", names=names)
    by_seat = {r["seat"]: r for r in res["seats"]}
    rows: list[ft.Control] = [
        ft.Row([ft.Icon(ft.Icons.EMOJI_EVENTS, color=ft.Colors.AMBER_700, size=34 if big else 30),
                ft.Text(head, size=30 if big else 26, weight=ft.FontWeight.BOLD, expand=True)], spacing=8),
        _sub(ctx.t("lutetia.ui.final_pos", m=v["miraculix"]), 18 if big else 15),
    ]
    if not big and ctx.seat is not None and 0 <= ctx.seat < len(oc.ranks):
        rows.append(ft.Text(ctx.t("lutetia.ui.your_place", rank=oc.ranks[ctx.seat], n=len(oc.ranks)),
                            size=20, weight=ft.FontWeight.W_600))
    for seat in res["ranking"]:  # (the order, the names, the plans' labels, the tie-break lines: the game's own)
        rows.append(_score_row(ctx, by_seat[seat], oc.ranks[seat], oc.scores[seat],
                               oc.breakdown[seat]["mods_left"], mine=seat == ctx.seat, big=big))
    return [kit.card(*rows, padding=12), *_full_log(ctx, v)]


def _score_row(ctx: UiContext, r: dict[str, Any], rank: int, plans: Any, mods_left: int, mine: bool,
               big: bool) -> ft.Control:
    seat = r["seat"]
    name = r["name"] + (f" ({ctx.t('ui.you')})" if mine else "")
    line: list[ft.Control] = [
        ft.Text(ctx.t("lutetia.ui.rank", rank=rank), size=28 if big else 24, weight=ft.FontWeight.BOLD,
                width=48 if big else 40),
        kit.seat_dot(ctx.colour(seat), 22 if big else 20),
        ft.Text(name, size=24 if big else 20, weight=ft.FontWeight.W_600, expand=True),
    ]
    if rank == 1:
        line.append(ft.Icon(ft.Icons.EMOJI_EVENTS, color=ft.Colors.AMBER_700, size=28 if big else 24))
    parts: list[ft.Control] = [
        ft.Row(line, spacing=8),
        ft.Text(ctx.t("lutetia.ui.result_line", plans=plans, mods=mods_left),
                size=20 if big else 17, weight=ft.FontWeight.W_600),
        _sub(ctx.t("lutetia.ui.fulfilled_list", plans=", ".join(r["fulfilled_labels"]) or "–"), 17 if big else 15),
    ]
    if r["tiebreak"]:
        parts.append(_sub(ctx.msg(r["tiebreak"]), 17 if big else 15))
    return ft.Container(
        content=ft.Column(parts, spacing=4), padding=10, border_radius=10,
        bgcolor=ft.Colors.AMBER_100 if rank == 1 else ft.Colors.SURFACE,
        border=ft.Border.all(3 if mine else 1, ctx.colour(seat) if mine else ft.Colors.OUTLINE_VARIANT),
    )


def _full_log(ctx: UiContext, v: dict[str, Any]) -> list[ft.Control]:
    """The game's log, to review after the end (collapsed: it is long)."""
    log = v["log"]
    if not log:
        return []
    shown = bool(ctx.local.get("lutetia_log"))

    async def toggle(e: Any) -> None:
        ctx.local["lutetia_log"] = not shown
        await ctx.rerender()
    btn = kit.button(ctx.t("lutetia.ui.hide_log") if shown else ctx.t("lutetia.ui.show_log", n=len(log)), toggle,
                     primary=False, icon=ft.Icons.EXPAND_LESS if shown else ft.Icons.LIST)
    if not shown:
        return [btn]
    return [btn, kit.card(*[_sub(f"{i}. {ctx.msg(e)}", 15) for i, e in enumerate(log, 1)])]
