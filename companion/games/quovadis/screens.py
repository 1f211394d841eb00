"""Screens of Quo Vadis: a phone per player (their secret laurels, one-tap actions, votes,
private hand-overs, promises) and the public host screen (the board, the vote, the log).

Paths are written "1 » 8" and chips in words: the web font bundled for offline use has no
arrow or star glyph (they render as boxes).

Everything is built from ctx.view / ctx.legal of companion/games/quovadis/rules.py; no rules here.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.ui import kit
from companion.ui.kit import UiContext

# Rows of the board, Senate on top, start committees at the bottom (see the rules page graph).
BOARD_ROWS = [[13], [12, 9, 14], [8, 5, 6, 11, 10], [4, 7], [0, 1, 2, 3]]
SECRET_BG = ft.Colors.AMBER_50
MUTED = ft.Colors.ON_SURFACE_VARIANT


# ------------------------------------------------------------------------- pieces --
def _node_name(ctx: UiContext | kit.Look, k: int) -> str:
    return ctx.t("quovadis.ui.senate") if k == 13 else ctx.t("quovadis.ui.node", n=k)


def _names(ctx: UiContext | kit.Look, seats: list[int]) -> str:
    return ", ".join(ctx.name(s) for s in seats) or "–"


def _chip_text(ctx: UiContext | kit.Look, chip: dict[str, Any] | None) -> str:
    if not chip:
        return ctx.t("quovadis.ui.empty_space")
    # plain words: the bundled web font has no star or laurel glyph
    return ctx.t("quovadis.ui.chip_caesar" if chip.get("caesar") else "quovadis.ui.chip", value=chip["value"])


def _dots(ctx: UiContext | kit.Look, node: dict[str, Any], size: int) -> ft.Control:
    dots: list[ft.Control] = []
    for s in node["occupants"]:
        dots.append(ft.Container(width=size, height=size, bgcolor=ctx.colour(s), border_radius=size / 2,
                                 tooltip=ctx.name(s)))
    for _ in range(node["free"]):
        dots.append(ft.Container(width=size, height=size, border_radius=size / 2,
                                 border=ft.Border.all(2, ft.Colors.OUTLINE)))
    return ft.Row(dots, spacing=4, wrap=True)


def _path_line(ctx: UiContext | kit.Look, p: dict[str, Any], size: int) -> ft.Control:
    parts: list[ft.Control] = [ft.Text(f"» {p['to'] if p['to'] != 13 else ctx.t('quovadis.ui.senate')}",
                                       size=size)]
    if p["laurel"]:
        parts.append(kit.pill(_chip_text(ctx, p["chip"]),
                              ft.Colors.GREEN_800 if p["chip"] else ft.Colors.GREY_500))
    if p["caesar"]:
        parts.append(kit.pill(ctx.t("quovadis.ui.caesar_word"), ft.Colors.DEEP_PURPLE_700))
    return ft.Row(parts, spacing=6, wrap=True)


def _node_card(ctx: kit.Look, k: int, big: bool, node: Any, outs: tuple[Any, ...]) -> ft.Control:
    seats = ctx.t("quovadis.ui.seats_n" if node["seats"] > 1 else "quovadis.ui.seat_one", n=node["seats"])
    head = f"{_node_name(ctx, k)} · {seats}"
    col: list[ft.Control] = [ft.Text(head, size=17 if big else 15, weight=ft.FontWeight.BOLD),
                             _dots(ctx, node, 22 if big else 16)]
    col += [_path_line(ctx, p, 16 if big else 14) for p in outs]
    bg = ft.Colors.AMBER_100 if k == 13 else (ft.Colors.BLUE_GREY_50 if node["start"] else None)
    return ft.Container(content=ft.Column(col, spacing=6, tight=True), padding=10, border_radius=12,
                        bgcolor=bg or ft.Colors.SURFACE_CONTAINER_LOW, width=220 if big else None,
                        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT))


def _node_part(ctx: UiContext, v: dict[str, Any], k: int, big: bool) -> ft.Control:
    """A committee is redrawn only when a senator, a chip or Caesar on it moves."""
    f = ctx.frozen_view()
    outs = tuple(p for p in f["paths"] if p["from"] == k)
    return Node(ctx.look, k, big, f["nodes"][k], outs, key=f"n{k}")


@kit.component
def Node(look: kit.Look, k: int, big: bool, node: kit.Frozen, outs: tuple[Any, ...]) -> ft.Control:
    return _node_card(look, k, big, node, outs)


def _board(ctx: UiContext, v: dict[str, Any], big: bool) -> ft.Control:
    if big:
        rows = [ft.Row([_node_part(ctx, v, k, True) for k in row], alignment=ft.MainAxisAlignment.CENTER,
                       spacing=12, wrap=True) for row in BOARD_ROWS]
        return kit.card(kit.title(ctx.t("quovadis.ui.board"), 20), *rows)
    items = [_node_part(ctx, v, k, False) for row in BOARD_ROWS for k in row]
    return kit.card(kit.title(ctx.t("quovadis.ui.board"), 18), *items)


def _stock(ctx: UiContext, v: dict[str, Any], size: int) -> ft.Control:
    return ft.Row([
        ft.Text(ctx.t("quovadis.ui.supply", n=v["supply"]), size=size),
        ft.Text(ctx.t("quovadis.ui.pool", n=v["pool_left"]), size=size),
        ft.Text(ctx.t("quovadis.ui.arrival", names=_names(ctx, v["arrival"])), size=size),
    ], wrap=True, spacing=18)


def _log(ctx: UiContext, items: list[dict[str, Any]], title_key: str, last: int, size: int,
         bgcolor: str | None = None) -> ft.Control:
    return Log(ctx.look, title_key, kit.freeze(items[-last:]), size, bgcolor)


@kit.component
def Log(look: kit.Look, title_key: str, tail: tuple[Any, ...], size: int, bgcolor: str | None) -> ft.Control:
    lines = [ft.Text(look.msg(e), size=size) for e in reversed(tail)]
    return kit.card(kit.title(look.t(title_key), 18), *lines, bgcolor=bgcolor)


def _promises(ctx: UiContext, v: dict[str, Any], size: int) -> list[ft.Control]:
    if not v["promises"]:
        return []
    rows: list[ft.Control] = [kit.title(ctx.t("quovadis.ui.promises"), 18)]
    for p in reversed(v["promises"][-8:]):
        tag = ctx.t("quovadis.ui.binding") if p["binding"] else ctx.t("quovadis.ui.not_binding")
        rows.append(ft.Text(ctx.t("quovadis.ui.promise_row", a=ctx.name(p["from"]), b=ctx.name(p["to"]),
                                  text=p["text"], tag=tag), size=size))
    return [kit.card(*rows)]


def _status(ctx: UiContext, v: dict[str, Any], size: int) -> ft.Control:
    if v["phase"] == "vote":
        vt = v["vote"]
        txt = ctx.t("quovadis.ui.vote_title", player=ctx.name(vt["mover"]), a=vt["from"], b=vt["to"])
    elif v["phase"] == "caesar":
        txt = ctx.t("quovadis.ui.caesar_moving", player=ctx.name(v["caesar_by"]))
    elif v["turn"] == ctx.seat and ctx.seat is not None:
        txt = ctx.t("quovadis.ui.your_turn")
    else:
        txt = ctx.t("quovadis.ui.turn_of", player=ctx.name(v["turn"]))
    colour = ctx.colour(v["vote"]["mover"] if v["vote"] else (v["caesar_by"] if v["phase"] == "caesar"
                                                               else v["turn"]))
    return ft.Row([kit.seat_dot(colour, size + 4), ft.Text(txt, size=size, weight=ft.FontWeight.BOLD,
                                                           expand=True)], spacing=10)


def _vote_card(ctx: UiContext, v: dict[str, Any], big: bool) -> ft.Control | None:
    vt = v.get("vote")
    if not vt:
        return None
    size = 22 if big else 17
    rows: list[ft.Control] = [
        kit.title(ctx.t("quovadis.ui.vote_title", player=ctx.name(vt["mover"]), a=vt["from"], b=vt["to"]),
                  28 if big else 20),
        ft.Text(ctx.t("quovadis.ui.vote_need", needed=vt["needed"], own=vt["own"],
                      player=ctx.name(vt["mover"])), size=size),
    ]
    if vt["ballot"] == "open":
        rows.append(ft.Text(ctx.t("quovadis.ui.yes_so_far", yes=vt["yes_so_far"], needed=vt["needed"]),
                            size=size + 2, weight=ft.FontWeight.BOLD))
        for s in vt["voters"]:
            ans = vt["answers"].get(str(s))
            label = "…" if ans is None else ctx.t("quovadis.ui.yes" if ans else "quovadis.ui.no")
            rows.append(ft.Row([kit.seat_dot(ctx.colour(s)),
                                ft.Text(ctx.t("quovadis.ui.voter_row", player=ctx.name(s),
                                              n=vt["weights"][str(s)], answer=label), size=size)]))
    else:
        rows.append(ft.Text(ctx.t("quovadis.ui.secret_ballot"), size=size - 2, italic=True))
        rows.append(ft.Text(ctx.t("quovadis.ui.answered", n=len(vt["answered"]), total=len(vt["voters"])),
                            size=size + 2, weight=ft.FontWeight.BOLD))
    if vt["awaiting"]:
        rows.append(ft.Text(ctx.t("quovadis.ui.awaiting", names=_names(ctx, vt["awaiting"])), size=size - 2))
    if ctx.is_host and any(a["type"] == "close_vote" for a in ctx.legal):
        async def close(e: Any) -> None:
            await ctx.act({"type": "close_vote"})
        rows.append(kit.button(ctx.t("quovadis.ui.close_vote"), close, primary=False, icon=ft.Icons.GAVEL))
    return kit.card(*rows, bgcolor=ft.Colors.BLUE_50)


# --------------------------------------------------------------------------- phone --
def _secret_card(ctx: UiContext, me: dict[str, Any]) -> ft.Control:
    return kit.card(
        ft.Row([ft.Icon(ft.Icons.LOCK, size=20),
                ft.Text(ctx.t("quovadis.ui.your_laurels", n=me["total"]), size=24,
                        weight=ft.FontWeight.BOLD, expand=True)], spacing=8),
        ft.Text(_breakdown(ctx, me), size=15),
        ft.Text(ctx.t("quovadis.ui.reserve", n=me["reserve"]), size=16),
        ft.Text(ctx.t("quovadis.ui.secret_note"), size=13, color=MUTED),
        bgcolor=SECRET_BG)


def _move_label(ctx: UiContext, a: dict[str, Any]) -> str:
    to = ctx.t("quovadis.ui.senate") if a["to"] == 13 else str(a["to"])
    parts = [f"{a['from']} » {to}"]
    if a["caesar"]:
        parts.append(ctx.t("quovadis.ui.caesar_waives"))
    else:
        if a["vote"]:
            parts.append(ctx.t("quovadis.ui.vote_needed", needed=a["needed"], own=a["own"]))
        elif a["needed"]:
            parts.append(ctx.t("quovadis.ui.own_majority"))
        else:
            parts.append(ctx.t("quovadis.ui.no_vote"))
        if a["laurel"]:
            parts.append(_chip_text(ctx, a["laurel"]))
    return " · ".join(parts)


def _caesar_buttons(ctx: UiContext, acts: list[dict[str, Any]], paths: dict[str, Any],
                    compact: bool = False) -> list[ft.Control]:
    out: list[ft.Control] = []
    for a in acts:
        to = ctx.t("quovadis.ui.senate") if a["to"] == 13 else str(a["to"])
        chip = _chip_text(ctx, paths[a["path"]]["chip"])
        label = (ctx.t("quovadis.ui.caesar_short", a=a["from"], b=to, chip=chip) if compact
                 else ctx.t("quovadis.ui.caesar_to", a=a["from"], b=to, chip=chip))

        async def go(e: Any, path: str = a["path"]) -> None:
            await ctx.act({"type": "caesar", "path": path})
        out.append(kit.button(label, go, primary=False, width=None if compact else 10_000))
    return out


def _turn_actions(ctx: UiContext, v: dict[str, Any]) -> list[ft.Control]:
    legal = ctx.legal
    paths = {p["id"]: p for p in v["paths"]}
    out: list[ft.Control] = []
    places = [a for a in legal if a["type"] == "place"]
    moves = [a for a in legal if a["type"] == "move"]
    caesars = [a for a in legal if a["type"] == "caesar"]
    if v["phase"] == "caesar":
        out.append(kit.title(ctx.t("quovadis.ui.caesar_now"), 20))
        out += _caesar_buttons(ctx, caesars, paths)

        async def keep(e: Any) -> None:
            await ctx.act({"type": "keep_caesar"})
        out.append(kit.button(ctx.t("quovadis.ui.caesar_keep"), keep, primary=False, width=10_000))
        return [kit.card(*out, bgcolor=ft.Colors.DEEP_PURPLE_50)]
    if places:
        out.append(kit.title(ctx.t("quovadis.ui.place_title"), 18))
        row: list[ft.Control] = []
        for a in places:
            async def place(e: Any, node: int = a["node"]) -> None:
                await ctx.act({"type": "place", "node": node})
            row.append(kit.button(ctx.t("quovadis.ui.place", n=a["node"]), place, colour=ctx.colour(ctx.seat)))
        out.append(ft.Row(row, wrap=True, spacing=8))
    if moves:
        out.append(kit.title(ctx.t("quovadis.ui.move_title"), 18))
        for a in moves:
            async def move(e: Any, a: dict[str, Any] = a) -> None:
                await ctx.act({"type": "move", "from": a["from"], "to": a["to"]})
            out.append(kit.button(_move_label(ctx, a), move, width=10_000))
    if caesars:
        out.append(kit.title(ctx.t("quovadis.ui.caesar_title"), 18))
        out.append(ft.Row(_caesar_buttons(ctx, caesars, paths, compact=True), wrap=True, spacing=8,
                          run_spacing=8))
    return [kit.card(*out, bgcolor=ft.Colors.GREEN_50)]


def _my_vote(ctx: UiContext, v: dict[str, Any], me: dict[str, Any]) -> list[ft.Control]:
    votes = [a for a in ctx.legal if a["type"] == "vote"]
    if not votes:
        if me.get("my_vote") is not None:
            ans = ctx.t("quovadis.ui.yes" if me["my_vote"] else "quovadis.ui.no")
            return [ft.Text(ctx.t("quovadis.ui.you_voted", answer=ans), size=18, weight=ft.FontWeight.BOLD)]
        return []

    async def yes(e: Any) -> None:
        await ctx.act({"type": "vote", "yes": True})

    async def no(e: Any) -> None:
        await ctx.act({"type": "vote", "yes": False})
    return [kit.card(
        ft.Text(ctx.t("quovadis.ui.vote_yours", n=me.get("my_weight", 1)), size=20, weight=ft.FontWeight.BOLD),
        ft.Row([kit.button(ctx.t("quovadis.ui.yes"), yes, expand=True, colour=ft.Colors.GREEN_700,
                           icon=ft.Icons.THUMB_UP),
                kit.button(ctx.t("quovadis.ui.no"), no, expand=True, colour=ft.Colors.RED_700,
                           icon=ft.Icons.THUMB_DOWN)], spacing=12),
        bgcolor=ft.Colors.BLUE_100)]


def _give_card(ctx: UiContext, me: dict[str, Any]) -> ft.Control | None:
    gives = [a for a in ctx.legal if a["type"] == "give"]
    if not gives:
        return None
    top = gives[0]["max"]
    field = kit.field(ctx, "qv_amount", lambda value: ft.TextField(
        label=ctx.t("quovadis.ui.amount", max=top), value=value, keyboard_type=ft.KeyboardType.NUMBER,
        text_size=20), props=top)
    row: list[ft.Control] = []
    for a in gives:
        async def give(e: Any, to: int = a["to"]) -> None:
            raw = str(ctx.local.get("qv_amount", "")).strip()
            try:
                amount: Any = int(raw)
            except ValueError:
                amount = raw
            if await ctx.act({"type": "give", "to": to, "amount": amount}):
                kit.clear_fields(ctx, "qv_amount")
        row.append(kit.button(ctx.t("quovadis.ui.give_to", player=ctx.name(a["to"])), give,
                              colour=ctx.colour(a["to"])))
    return kit.card(
        kit.title(ctx.t("quovadis.ui.give_title"), 18),
        field,
        ft.Row(row, wrap=True, spacing=8, run_spacing=8),
        ft.Text(ctx.t("quovadis.ui.give_hint"), size=13, color=MUTED),
        bgcolor=SECRET_BG)


def _promise_card(ctx: UiContext, v: dict[str, Any]) -> ft.Control | None:
    proms = [a for a in ctx.legal if a["type"] == "promise"]
    if not proms:
        return None
    max_len = proms[0]["max_len"]
    field = kit.field(ctx, "qv_promise", lambda value: ft.TextField(
        label=ctx.t("quovadis.ui.promise_text"), value=value, max_length=max_len, text_size=18), props=max_len)
    row: list[ft.Control] = []
    for a in proms:
        async def record(e: Any, to: int = a["to"]) -> None:
            if await ctx.act({"type": "promise", "to": to, "text": ctx.local.get("qv_promise", "")}):
                kit.clear_fields(ctx, "qv_promise")
        row.append(kit.button(ctx.t("quovadis.ui.promise_to", player=ctx.name(a["to"])), record,
                              primary=False))
    note = "quovadis.help.binding" if v["options"].get("binding") else "quovadis.ui.promise_free"
    return kit.card(
        kit.title(ctx.t("quovadis.ui.promise_title"), 18),
        field,
        ft.Row(row, wrap=True, spacing=8, run_spacing=8),
        ft.Text(ctx.t(note), size=13, color=MUTED))


def phone(ctx: UiContext) -> list[ft.Control]:
    v = ctx.view
    if v.get("over"):
        return result(ctx)
    me = v.get("me") or {}
    out: list[ft.Control] = [] if v["vote"] else [_status(ctx, v, 20)]  # a vote card has its own title
    if me:
        out.append(_secret_card(ctx, me))
    vc = _vote_card(ctx, v, big=False)
    if vc:
        out.append(vc)
        out += _my_vote(ctx, v, me)
    mine_now = (v["phase"] == "turn" and v["turn"] == ctx.seat) or \
               (v["phase"] == "caesar" and v["caesar_by"] == ctx.seat)
    if mine_now:
        out += _turn_actions(ctx, v)
    elif v["phase"] == "turn":
        out.append(ft.Text(ctx.t("quovadis.ui.wait", player=ctx.name(v["turn"])), size=16, color=MUTED))
    for c in (_give_card(ctx, me), _promise_card(ctx, v)):
        if c:
            out.append(c)
    out.append(_board(ctx, v, big=False))
    out.append(_stock(ctx, v, 15))
    if me.get("log"):
        out.append(_log(ctx, me["log"], "quovadis.ui.my_log", 6, 15, bgcolor=SECRET_BG))
    out += _promises(ctx, v, 15)
    out.append(_log(ctx, v["log"], "quovadis.ui.log", 10, 15))
    return out


# ---------------------------------------------------------------------------- host --
def host(ctx: UiContext) -> list[ft.Control]:
    v = ctx.view
    if v.get("over"):
        return result(ctx)
    out: list[ft.Control] = [] if v["vote"] else [_status(ctx, v, 28)]
    vc = _vote_card(ctx, v, big=True)
    if vc:
        out.append(vc)
    if v["pending_caesar"]:
        out.append(ft.Text(ctx.t("quovadis.ui.pending_caesar", names=_names(ctx, v["pending_caesar"])), size=18))
    out.append(_board(ctx, v, big=True))
    out.append(_stock(ctx, v, 18))
    reserve = "  ·  ".join(ctx.t("quovadis.ui.seat_reserve", player=s["name"], n=s["reserve"],
                                 senate=s["in_senate"]) for s in v["seats"])
    out.append(ft.Text(reserve, size=16))
    out += _promises(ctx, v, 16)
    out.append(_log(ctx, v["log"], "quovadis.ui.log", 14, 16))
    return out


# -------------------------------------------------------------------------- result --
def _breakdown(ctx: UiContext, b: dict[str, Any]) -> str:
    """E.g. "Chips: laurel 3 · laurel 2 · support +2"; parts that are zero are left out."""
    chips = " · ".join(_chip_text(ctx, c) for c in b["chips"]) or ctx.t("quovadis.ui.no_chips")
    parts = [ctx.t("quovadis.ui.bd_chips", chips=chips)]
    for key, field in (("quovadis.ui.bd_support", "support"), ("quovadis.ui.bd_received", "received"),
                       ("quovadis.ui.bd_given", "given")):
        if b[field]:
            parts.append(ctx.t(key, n=b[field]))
    return " · ".join(parts)


def result(ctx: UiContext) -> list[ft.Control]:
    v = ctx.view
    r = v.get("result")
    oc = ctx.outcome() if r else None  # ranks, laurels, the winner, the tie-break: base.Result
    if not r or oc is None:
        return [ft.Text(ctx.t("quovadis.ui.no_result"), size=18)]
    out: list[ft.Control] = [ft.Text(ctx.t("quovadis.log.end"), size=18, weight=ft.FontWeight.BOLD)]
    for winner in oc.winners:
        head: list[ft.Control] = [
            ft.Row([kit.seat_dot(ctx.colour(winner), 30),
                    kit.title(ctx.t("quovadis.ui.winner", player=ctx.name(winner)), 30)], spacing=12),
            ft.Text(ctx.t("quovadis.ui.win_rule"), size=16)]
        if oc.tie_break:
            head.append(ft.Text(ctx.t(oc.tie_break), size=16, italic=True))
        out.append(kit.card(*head, bgcolor=ft.Colors.AMBER_100))
    rows: list[ft.Control] = []
    for row in r["ranking"]:  # (the order, qualification and the breakdown's chips: the game's own)
        seat = row["seat"]
        status = (ctx.t("quovadis.ui.qualified", count=row["in_senate"], n=row["first_arrival"] + 1)
                  if row["qualified"] else ctx.t("quovadis.ui.not_qualified"))
        rows.append(ft.Row([
            kit.seat_dot(ctx.colour(row["seat"]), 22),
            ft.Column([
                ft.Text(ctx.t("quovadis.ui.rank_row", rank=oc.ranks[seat], player=row["name"],
                              total=oc.scores[seat]),
                        size=20, weight=ft.FontWeight.BOLD),
                ft.Text(status, size=16, color=ft.Colors.GREEN_800 if row["qualified"] else ft.Colors.RED_800),
                ft.Text(_breakdown(ctx, row["breakdown"]), size=15, color=MUTED),
            ], spacing=2, tight=True, expand=True),
        ], vertical_alignment=ft.CrossAxisAlignment.START))
    out.append(kit.card(*rows))
    arrivals: list[ft.Control] = [kit.title(ctx.t("quovadis.ui.arrival_title"), 18)]
    arrivals += [ft.Row([kit.seat_dot(ctx.colour(s), 16), ft.Text(f"{i}. {ctx.name(s)}", size=17)], spacing=8)
                 for i, s in enumerate(r["arrival"], 1)]
    out.append(kit.card(*arrivals))
    out.append(_log(ctx, v["log"], "quovadis.ui.log", 8, 15))
    return out
