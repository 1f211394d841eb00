"""Screens of Lutèce: the phone (secret cards and bribes), the host board and the scorer.

Everything is drawn from `lutece.view()`: slots with cost and coins, purses, face-down cards
with their (open) coins, the step-by-step resolution, the refill prompt and the score cards.
No rules arithmetic here: buttons come from ctx.legal / ctx.view["host_actions"].
"""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.games.base import Result
from companion.ui import kit
from companion.ui.kit import UiContext

RES_COLOURS = {
    "lutece.res.glaive": ft.Colors.BLUE_GREY_600,
    "lutece.res.pain": ft.Colors.BROWN_300,
    "lutece.res.potion": ft.Colors.GREEN_600,
    "lutece.res.cervoise": ft.Colors.ORANGE_900,
    "lutece.score.places": ft.Colors.PURPLE_400,
    "lutece.score.gold_points": ft.Colors.AMBER_400,
}
RESOURCES = ["glaive", "pain", "potion", "cervoise"]
SECRET_BG = ft.Colors.AMBER_50


# --------------------------------------------------------------------------- small pieces

def _card_name(ctx: UiContext, card: str) -> str:
    return ctx.t("lutece.card.R") if card == "R" else card


def _sub(text: str, size: int = 15) -> ft.Text:
    return ft.Text(text, size=size, color=ft.Colors.ON_SURFACE_VARIANT)


def _head(ctx: UiContext, v: dict[str, Any], size: int) -> list[ft.Control]:
    return [
        _sub(ctx.t("lutece.ui.round", round=v["round"], start=ctx.name(v["start_player"])), size - 8),
        kit.title(ctx.t(f"lutece.phase.{v['phase']}"), size),
    ]


def _slot_tile(ctx: kit.Look, s: Any, big: bool) -> ft.Control:
    kind = ctx.t(f"lutece.kind.{s['kind']}")
    cost = ctx.t("lutece.ui.cost_pending") if s["pending"] else ctx.t("lutece.ui.cost", cost=s["cost"])
    lines: list[ft.Control] = [
        ft.Text(s["id"], size=34 if big else 24, weight=ft.FontWeight.BOLD),
        ft.Text(kind, size=13),
        ft.Text(cost, size=16 if big else 14, weight=ft.FontWeight.W_600,
                color=ft.Colors.RED_700 if s["pending"] else None),
        ft.Text(ctx.t("lutece.ui.coins_on", coins=s["coins"]), size=16 if big else 14),
    ]
    if s.get("taken_by") is not None:
        lines.append(ft.Text(ctx.t("lutece.ui.taken_by", name=ctx.name(s["taken_by"])), size=13,
                             italic=True))
    bg = ft.Colors.BROWN_50 if s["kind"] == "character" else ft.Colors.BLUE_GREY_50
    return ft.Container(content=ft.Column(lines, spacing=2, tight=True,
                                          horizontal_alignment=ft.CrossAxisAlignment.CENTER),
                        width=150 if big else 104, padding=10, border_radius=12, bgcolor=bg,
                        border=ft.Border.all(2, ft.Colors.RED_400 if s["pending"] else ft.Colors.OUTLINE_VARIANT))


def _board(ctx: UiContext, v: dict[str, Any], big: bool) -> ft.Control:
    f = ctx.frozen_view()
    return Board(ctx.look, f["slots"], f["bank"], f["decks"], big)


@kit.component
def Board(look: kit.Look, slots: tuple[Any, ...], bank: int | None, decks: kit.Frozen, big: bool) -> ft.Control:
    return _board_card(look, {"slots": slots, "bank": bank, "decks": decks}, big)


def _board_card(ctx: kit.Look, v: Any, big: bool) -> ft.Control:
    tiles = [_slot_tile(ctx, s, big) for s in v["slots"]]
    extra: list[ft.Control] = []
    if v["bank"] is not None:
        extra.append(_sub(ctx.t("lutece.ui.bank", coins=v["bank"]), 16))
    d = v["decks"]
    if d["characters"] is not None or d["places"] is not None:
        unknown = ctx.t("lutece.ui.unknown")
        extra.append(_sub(ctx.t("lutece.ui.decks",
                                characters=unknown if d["characters"] is None else d["characters"],
                                places=unknown if d["places"] is None else d["places"]), 16))
    return kit.card(ft.Row(tiles, wrap=True, spacing=8, run_spacing=8), *extra)


def _face_down(ctx: kit.Look, p: Any) -> str:
    if not p["cards_down"]:
        return ctx.t("lutece.ui.no_cards_yet")
    if p["stakes"] is None:
        return ctx.t("lutece.ui.cards_down_hidden")
    return ctx.t("lutece.ui.cards_down_open", a=p["stakes"][0], b=p["stakes"][1])


def _players(ctx: UiContext, v: dict[str, Any], big: bool, face_down: bool = True) -> ft.Control:
    choosing = v["phase"] == "choose"
    # One part per player: a lock or a bribe redraws that player's row only.
    rows = [PlayerRow(ctx.look, p, choosing, big, face_down, key=f"p{p['seat']}")
            for p in ctx.frozen_view()["players"]]
    return kit.card(kit.title(ctx.t("lutece.ui.players"), 20), *rows)


@kit.component
def PlayerRow(look: kit.Look, p: kit.Frozen, choosing: bool, big: bool, face_down: bool) -> ft.Control:
    return _player_row(look, p, choosing, big, face_down)


def _player_row(ctx: kit.Look, p: Any, choosing: bool, big: bool, face_down: bool) -> ft.Control:
    taken = ", ".join(t["slot"] for t in p["taken"]) or "–"
    pills: list[ft.Control] = []
    if p["start"]:
        pills.append(kit.pill(ctx.t("lutece.ui.start"), ft.Colors.BROWN_400))
    if choosing:
        if p["locked"]:
            pills.append(kit.pill(ctx.t("lutece.ui.ready"), ft.Colors.INDIGO_700))
        elif p["picked"]:
            pills.append(kit.pill(ctx.t("lutece.ui.choosing"), ft.Colors.BLUE_600))
    line: list[ft.Control] = [
        kit.seat_dot(p["colour"] or ctx.colour(p["seat"]), 22 if big else 16),
        ft.Text(p["name"], size=20 if big else 17, weight=ft.FontWeight.W_600, expand=True),
        ft.Text(ctx.t("lutece.ui.gold", gold=p["gold"]), size=20 if big else 17, weight=ft.FontWeight.BOLD),
        *pills,
    ]
    col: list[ft.Control] = [ft.Row(line, spacing=8)]
    if choosing and face_down:
        col.append(ft.Text(_face_down(ctx, p), size=19 if big else 15, weight=ft.FontWeight.W_600,
                           color=ft.Colors.BROWN_700 if p["cards_down"] else ft.Colors.ON_SURFACE_VARIANT))
    col.append(_sub(ctx.t("lutece.ui.taken", cards=taken), 15 if big else 13))
    return ft.Column(col, spacing=2, tight=True)


def _resolution(ctx: UiContext, v: dict[str, Any], big: bool) -> list[ft.Control]:
    ev = v["resolution"]
    if not ev:
        return []
    items: list[ft.Control] = [kit.title(ctx.t("lutece.ui.resolution"), 20)]
    for e in ev:
        strong = e["key"] in ("lutece.ev.take", "lutece.ev.take_sole", "lutece.ev.cannot_pay",
                              "lutece.ev.tie_nobody", "lutece.ev.tie_seat_order")
        items.append(ft.Text(
            "• " + ctx.msg(e), size=(18 if big else 15) + (1 if strong else 0),
            weight=ft.FontWeight.W_600 if strong else None,
            color=ft.Colors.RED_800 if e["key"] == "lutece.ev.cannot_pay" else None))
    return [kit.card(*items)]


def _log(ctx: UiContext, v: dict[str, Any], n: int = 8) -> list[ft.Control]:
    if not v["log"]:
        return []
    return [Log(ctx.look, ctx.frozen_view()["log"][-n:])]


@kit.component
def Log(look: kit.Look, tail: tuple[Any, ...]) -> ft.Control:
    return kit.card(kit.title(look.t("lutece.ui.log"), 18), *[ft.Text(look.msg(e), size=14) for e in reversed(tail)])


def _cost_buttons(ctx: UiContext, slot: str, current: int | None, wrap: bool = True) -> ft.Control:
    btns: list[ft.Control] = []
    for c in range(4):
        async def set_cost(e: Any, c: int = c) -> None:
            await ctx.act({"type": "set_cost", "slot": slot, "cost": c})
        btns.append(kit.button(ctx.t("lutece.ui.cost_btn", slot=slot, cost=c), set_cost,
                               primary=current == c))
    return ft.Row(btns, wrap=wrap, tight=not wrap, spacing=6)


# --------------------------------------------------------------------------- phone

def phone(ctx: UiContext) -> list[ft.Control]:
    v = ctx.view
    if not v:
        return []
    if v.get("over"):
        return result(ctx)
    me = v["me"]
    out: list[ft.Control] = _head(ctx, v, 24)
    if v["phase"] == "choose":
        out.append(_phone_choose(ctx, v, me))
        out.append(_table_cards(ctx, v, me))
    elif v["phase"] == "refill":
        out += _phone_refill(ctx, v, me)
    elif v["phase"] == "scoring":
        out += _score_form(ctx, v, me)
    out.append(_board(ctx, v, big=False))
    out.append(_players(ctx, v, big=False, face_down=False))
    if v["phase"] != "choose":
        out += _resolution(ctx, v, big=False)
    return out


def _phone_choose(ctx: UiContext, v: dict[str, Any], me: dict[str, Any]) -> ft.Control:
    parts: list[ft.Control] = [
        ft.Row([ft.Icon(ft.Icons.VISIBILITY_OFF, size=20),
                ft.Text(ctx.t("lutece.ui.secret"), size=15, italic=True)], spacing=6),
        ft.Text(ctx.t("lutece.ui.your_gold", gold=me["purse"]), size=24, weight=ft.FontWeight.BOLD),
    ]
    pick = me["pick"]
    if me["locked"]:
        parts.append(ft.Text(ctx.t("lutece.ui.locked_in"), size=18, weight=ft.FontWeight.BOLD))
        for card, stake in zip(pick or [], me["stakes"] or [], strict=False):
            parts.append(ft.Text(ctx.t("lutece.ui.my_card", card=_card_name(ctx, card), bribe=stake), size=22))
        parts.append(ft.Text(ctx.waiting_for([x for x in range(len(v["players"])) if x not in v["locked"]]), size=16))
        return kit.card(*parts, bgcolor=SECRET_BG)
    key = f"sel{v['round']}"
    hand = me["hand"]
    if me["can_change_pick"]:
        # checkboxes keep their ticks in the browser (screens are frozen between game changes);
        # the selection is mirrored in ctx.local and sent with "Play these 2 cards"
        sel: list[int] = ctx.local.setdefault(key, _pick_indices(hand, pick) if pick else [])
        parts.append(ft.Text(ctx.t("lutece.ui.pick_two"), size=18))
        boxes: list[ft.Control] = []
        for i, card in enumerate(hand):
            def toggled(e: Any, i: int = i) -> None:
                cur = ctx.local.setdefault(key, [])
                if e.control.value and i not in cur:
                    cur.append(i)
                elif not e.control.value and i in cur:
                    cur.remove(i)
            boxes.append(ft.Container(
                content=ft.Checkbox(label=_card_name(ctx, card), value=i in sel, on_change=toggled,
                                    label_style=ft.TextStyle(size=20, weight=ft.FontWeight.W_600)),
                height=kit.BIG, width=170 if card == "R" else 108, border_radius=12,
                padding=ft.Padding.symmetric(horizontal=4),
                bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH))
        parts.append(ft.Row(boxes, wrap=True, spacing=8, run_spacing=8))

        async def play(e: Any) -> None:
            # in the order ticked, not hand order: the order of the face-down cards (whose coins
            # everyone sees) must not tell which cards they are
            cards = [hand[i] for i in ctx.local.get(key, [])]
            await ctx.act({"type": "pick", "cards": cards})
        parts.append(kit.button(ctx.t("lutece.ui.play_cards"), play, icon=ft.Icons.STYLE, width=10_000))
    if pick:
        parts.append(ft.Text(ctx.t("lutece.ui.your_cards"), size=18, weight=ft.FontWeight.BOLD))
        amounts = sorted({a["amount"] for a in ctx.legal if a["type"] == "bribe"})
        quick = [a for a in (1, 2, 5) if a in amounts]
        for i, card in enumerate(pick):
            row: list[ft.Control] = [ft.Text(ctx.t("lutece.ui.my_card", card=_card_name(ctx, card),
                                                   bribe=me["stakes"][i]), size=20, expand=True)]
            line = [ft.Row(row)]
            btns: list[ft.Control] = []
            for a in quick:
                async def add(e: Any, i: int = i, a: int = a) -> None:
                    await ctx.act({"type": "bribe", "card": i, "amount": a})
                btns.append(kit.button(ctx.t("lutece.ui.add", amount=a, card=_card_name(ctx, card)), add,
                                       primary=False))
            line.append(ft.Row(btns, wrap=True, spacing=6))
            parts.append(ft.Column(line, spacing=4))
        if v["options"]["bribes"] == "open":
            parts.append(_sub(ctx.t("lutece.ui.open_hint"), 14))
        if any(a["type"] == "clear_bribes" for a in ctx.legal):
            async def clear(e: Any) -> None:
                await ctx.act({"type": "clear_bribes"})
            parts.append(kit.button(ctx.t("lutece.ui.clear_bribes"), clear, primary=False))

        async def lock(e: Any) -> None:
            await ctx.act({"type": "lock"})
        parts.append(kit.button(ctx.t("lutece.ui.lock"), lock, icon=ft.Icons.LOCK, width=10_000))
    return kit.card(*parts, bgcolor=SECRET_BG)


def _table_cards(ctx: UiContext, v: dict[str, Any], me: dict[str, Any]) -> ft.Control:
    """Public: everyone's face-down cards and (open bribes) the coins on them, live, next to my own."""
    open_mode = v["options"]["bribes"] == "open"
    rows: list[ft.Control] = [kit.title(ctx.t("lutece.ui.table_open" if open_mode else "lutece.ui.table_sealed"), 18)]
    for p in v["players"]:
        name = ctx.t("lutece.ui.you", name=p["name"]) if p["seat"] == me["seat"] else p["name"]
        if not p["cards_down"]:
            line = ctx.t("lutece.ui.fd_none", name=name)
        elif p["stakes"] is None:
            line = ctx.t("lutece.ui.fd_hidden", name=name)
        else:
            line = ctx.t("lutece.ui.fd_open", name=name, a=p["stakes"][0], b=p["stakes"][1])
        items: list[ft.Control] = [kit.seat_dot(p["colour"] or ctx.colour(p["seat"]), 16),
                                   ft.Text(line, size=17, expand=True,
                                           weight=ft.FontWeight.W_600 if p["cards_down"] else None)]
        if p["locked"]:
            items.append(kit.pill(ctx.t("lutece.ui.ready"), ft.Colors.INDIGO_700))
        rows.append(ft.Row(items, spacing=8))
    return kit.card(*rows)


def _pick_indices(hand: list[str], pick: list[str]) -> list[int]:
    out: list[int] = []
    for card in pick:
        for i, c in enumerate(hand):
            if c == card and i not in out:
                out.append(i)
                break
    return out


def _phone_refill(ctx: UiContext, v: dict[str, Any], me: dict[str, Any]) -> list[ft.Control]:
    out: list[ft.Control] = []
    mine = [t["slot"] for t in me["taken"] if t["round"] == v["round"]]
    parts: list[ft.Control] = [ft.Text(ctx.t("lutece.ui.your_gold", gold=me["purse"]), size=22,
                                       weight=ft.FontWeight.BOLD)]
    if mine:
        parts.append(ft.Text(ctx.t("lutece.ui.you_took", cards=", ".join(mine)), size=18))
    pending_mine = sorted({a["slot"] for a in ctx.legal if a["type"] == "set_cost"})
    for slot in pending_mine:
        parts.append(ft.Text(ctx.t("lutece.ui.enter_cost", slot=slot), size=17))
        parts.append(_cost_buttons(ctx, slot, None))
    parts.append(_sub(ctx.t("lutece.ui.wait_host"), 15))
    out.append(kit.card(*parts))
    return out


def _score_form(ctx: UiContext, v: dict[str, Any], me: dict[str, Any] | None, for_seat: int | None = None
                ) -> list[ft.Control]:
    """A score card. for_seat None: the phone's own card; -1: the host fills one in for a chosen player."""
    host_mode = for_seat is not None
    key = "score:host" if host_mode else "score"
    loc: dict[str, Any] = ctx.local.setdefault(key, {})
    cur = (me or {}).get("score")
    names = [*RESOURCES, "places"]
    defaults = {f: "" if cur is None else str(cur[f]) for f in names}
    fields: list[ft.Control] = []
    for f in names:
        label = ctx.t("lutece.score.places") if f == "places" else ctx.t(f"lutece.res.{f}")
        # Each field is a part of its own: a card arriving from another player redraws the screen
        # around it, never the field being typed in.
        fields.append(kit.field(ctx, f"{key}:{f}", lambda value, label=label: ft.TextField(
            label=label, value=value, keyboard_type=ft.KeyboardType.NUMBER, text_size=22, width=160),
            default=defaults[f]))
    head: list[ft.Control] = []
    if host_mode:
        def who_changed(e: Any) -> None:
            loc["for"] = e.control.value
        head.append(ft.Dropdown(label=ctx.t("lutece.ui.enter_for"), value=loc.get("for"), on_select=who_changed,
                                options=[ft.DropdownOption(key=str(p["seat"]), text=p["name"])
                                         for p in v["players"]]))

    async def send(e: Any) -> None:
        action: dict[str, Any] = {"type": "score"}
        if host_mode:
            try:
                action["for"] = int(loc.get("for"))
            except (TypeError, ValueError):
                action["for"] = None
        for f in names:
            raw = str(ctx.local.get(f"{key}:{f}", defaults[f])).strip()
            try:
                action[f] = int(raw)
            except ValueError:
                action[f] = raw
        if await ctx.act(action):
            ctx.local.pop(key, None)
            kit.clear_fields(ctx, *(f"{key}:{f}" for f in names))
    title = ctx.t("lutece.ui.score_for_title") if host_mode else ctx.t("lutece.ui.score_card")
    card = kit.card(kit.title(title, 20), *head, _sub(ctx.t("lutece.ui.score_hint"), 15),
                    ft.Row(fields, wrap=True, spacing=8, run_spacing=8),
                    kit.button(ctx.t("lutece.ui.send_score"), send, icon=ft.Icons.SEND, width=10_000),
                    _sub(ctx.t("lutece.ui.score_sent") if cur else "", 14))
    return [card, _entries(ctx, v)]


def _entries(ctx: UiContext, v: dict[str, Any]) -> ft.Control:
    cols = [ft.DataColumn(ft.Text(ctx.t("lutece.ui.player")))] + [
        ft.DataColumn(ft.Text(ctx.t(f"lutece.res.{r}")), numeric=True) for r in RESOURCES
    ] + [ft.DataColumn(ft.Text(ctx.t("lutece.score.places")), numeric=True),
         ft.DataColumn(ft.Text(ctx.t("lutece.ui.gold_col")), numeric=True)]
    rows = []
    for p in v["players"]:
        sc = p.get("score")
        cells = [ft.DataCell(ft.Text(p["name"]))]
        for f in [*RESOURCES, "places"]:
            cells.append(ft.DataCell(ft.Text("–" if sc is None else str(sc[f]))))
        cells.append(ft.DataCell(ft.Text(str(p["gold"]))))
        rows.append(ft.DataRow(cells=cells))
    missing = v["scoring"]["missing"] if v.get("scoring") else []
    extra = _sub(ctx.t("lutece.ui.missing", names=", ".join(ctx.name(s) for s in missing)), 15) if missing \
        else _sub(ctx.t("lutece.ui.all_entered"), 15)
    return kit.card(kit.title(ctx.t("lutece.ui.score_cards"), 18),
                    ft.Row([ft.DataTable(columns=cols, rows=rows, column_spacing=14)], scroll=ft.ScrollMode.AUTO),
                    extra)


# --------------------------------------------------------------------------- host

def host(ctx: UiContext) -> list[ft.Control]:
    v = ctx.view
    if not v:
        return []
    if v.get("over"):
        return result(ctx)
    out: list[ft.Control] = _head(ctx, v, 30)
    phase = v["phase"]
    ha = v["host_actions"] if ctx.is_host else []
    if phase == "choose":
        n = len(v["players"])
        out.append(ft.Text(ctx.t("lutece.ui.locked_count", n=len(v["locked"]), total=n), size=24,
                           weight=ft.FontWeight.BOLD))
    out.append(_board(ctx, v, big=True))
    if phase == "refill":
        out += _host_refill(ctx, v, ha)
        out += _resolution(ctx, v, big=True)
    elif phase == "scoring":
        if v["end_reason"]:
            out.append(_sub(ctx.t("lutece.ui.ended_by_host") if v["end_reason"]["reason"] == "host"
                            else ctx.t("lutece.ui.ended_by_deck"), 17))
        if ctx.is_host:
            out += _host_scoring(ctx, v, ha)
        else:
            out.append(_entries(ctx, v))
        out += _resolution(ctx, v, big=True)
    out.append(_players(ctx, v, big=True))
    if phase == "choose" and ctx.is_host:
        rows: list[ft.Control] = [kit.title(ctx.t("lutece.ui.costs_title"), 18),
                                  _sub(ctx.t("lutece.ui.costs_hint"), 14)]
        groups = [_cost_buttons(ctx, s["id"], s["cost"], wrap=False) for s in v["slots"]]
        rows.append(ft.Row(groups, wrap=True, spacing=24, run_spacing=8))
        out.append(kit.card(*rows))
    out += _log(ctx, v)
    return out


def _host_refill(ctx: UiContext, v: dict[str, Any], ha: list[dict[str, Any]]) -> list[ft.Control]:
    rf = v["refill"] or {}
    if not ctx.is_host:
        return [kit.card(ft.Text(ctx.t("lutece.ui.refill_wait"), size=18))] if rf.get("pending") else []
    parts: list[ft.Control] = [kit.title(ctx.t("lutece.ui.refill_title"), 22)]
    for slot in rf.get("pending", []):
        parts.append(ft.Text(ctx.t("lutece.ui.enter_cost", slot=slot), size=18))
        parts.append(_cost_buttons(ctx, slot, None))
    can_next = any(a["type"] == "next_round" for a in ha)

    async def nxt(e: Any) -> None:
        await ctx.act({"type": "next_round"})

    async def end(e: Any) -> None:
        await ctx.act({"type": "end_game"})
    if rf.get("ask_decks"):
        parts.append(ft.Text(ctx.t("lutece.q.decks_refill"), size=22, weight=ft.FontWeight.BOLD))
        parts.append(ft.Row([
            kit.button(ctx.t("lutece.ui.yes_next"), nxt, disabled=not can_next, icon=ft.Icons.ARROW_FORWARD),
            kit.button(ctx.t("lutece.ui.no_end"), end, primary=False, icon=ft.Icons.FLAG),
        ], wrap=True, spacing=10))
    else:
        parts.append(ft.Row([
            kit.button(ctx.t("lutece.ui.next_round"), nxt, disabled=not can_next, icon=ft.Icons.ARROW_FORWARD),
            kit.button(ctx.t("lutece.ui.end_now"), end, primary=False, icon=ft.Icons.FLAG),
        ], wrap=True, spacing=10))
    if not can_next:
        parts.append(_sub(ctx.t("lutece.ui.costs_first"), 15))
    return [kit.card(*parts)]


def _host_scoring(ctx: UiContext, v: dict[str, Any], ha: list[dict[str, Any]]) -> list[ft.Control]:
    out: list[ft.Control] = [_entries(ctx, v)]
    if any(a["type"] == "confirm_scores" for a in ha):
        async def confirm(e: Any) -> None:
            await ctx.act({"type": "confirm_scores"})
        out.append(kit.button(ctx.t("lutece.ui.confirm"), confirm, icon=ft.Icons.CHECK))
    # the host may fill in a card for a player without a phone
    out += _score_form(ctx, v, None, for_seat=-1)[:1]
    return out


# --------------------------------------------------------------------------- result

def result(ctx: UiContext) -> list[ft.Control]:
    v = ctx.view
    res = v.get("result") if v else None
    oc = ctx.outcome() if res else None  # ranks, scores, winners, breakdown, tie-break: base.Result
    if not res or oc is None:
        out: list[ft.Control] = [kit.card(ft.Text(ctx.t("lutece.ui.no_result"), size=18))]
        if v:
            out.append(_players(ctx, v, big=False))
        return out
    players = res["players"]
    winners = ", ".join(players[w]["name"] for w in oc.winners)
    out = [kit.title(ctx.t("lutece.ui.winner", names=winners), 28)]
    if oc.tie_break:
        out.append(ft.Text(ctx.t(oc.tie_break), size=17, italic=True))
    # table
    # the total right after the name: on a phone the rest of the table scrolls sideways
    cols = [ft.DataColumn(ft.Text("#")), ft.DataColumn(ft.Text(ctx.t("lutece.ui.player"))),
            ft.DataColumn(ft.Text(ctx.t("lutece.score.total")), numeric=True)]
    for r in RESOURCES:
        cols.append(ft.DataColumn(ft.Text(ctx.t(f"lutece.res.{r}")), numeric=True))
    cols += [ft.DataColumn(ft.Text(ctx.t("lutece.score.places")), numeric=True),
             ft.DataColumn(ft.Text(ctx.t("lutece.score.gold_points")), numeric=True)]
    rows = []
    for i in res["ranking"]:  # (the order, the counts and the gold: the game's own extras)
        p, points = players[i], oc.breakdown[i]
        cells = [ft.DataCell(ft.Text(str(oc.ranks[i]))), ft.DataCell(ft.Text(p["name"], weight=ft.FontWeight.BOLD)),
                 ft.DataCell(ft.Text(str(oc.scores[i]), weight=ft.FontWeight.BOLD))]
        for r in RESOURCES:
            cells.append(ft.DataCell(ft.Text(ctx.t("lutece.ui.count_points", count=p["resources"][r]["count"],
                                                   points=points[f"lutece.res.{r}"]))))
        cells += [ft.DataCell(ft.Text(str(points["lutece.score.places"]))),
                  ft.DataCell(ft.Text(ctx.t("lutece.ui.gold_points", gold=p["gold"],
                                            points=points["lutece.score.gold_points"])))]
        rows.append(ft.DataRow(cells=cells))
    if ctx.is_host and ctx.seat is None:  # the host's screen: the whole table at once
        out.append(kit.card(ft.Row([ft.DataTable(columns=cols, rows=rows, column_spacing=16)],
                                   scroll=ft.ScrollMode.AUTO), _sub(ctx.t("lutece.ui.cells"), 14)))
    else:  # a phone (360 px): one block per player, its points wrapping – nothing cut (issue 30.7)
        out.append(_score_sheets(ctx, res, oc))
    out.append(_chart(ctx, res, oc))
    notes: list[ft.Control] = []
    for r in RESOURCES:
        info = res["resources"][r]
        if info["all_equal"]:
            notes.append(_sub(ctx.t("lutece.ui.res_all_equal", res=ctx.t(f"lutece.res.{r}"),
                                    points=info["points"][0]), 14))
        else:
            notes.append(_sub(ctx.t("lutece.ui.res_line", res=ctx.t(f"lutece.res.{r}"),
                                    most=", ".join(players[s]["name"] for s in info["most"]),
                                    fewest=", ".join(players[s]["name"] for s in info["fewest"])), 14))
    out.append(kit.card(*notes))
    return out


def _score_sheets(ctx: UiContext, res: dict[str, Any], oc: Result) -> ft.Control:
    """The score table for a narrow screen: per player (in ranking order) rank, name and total on
    one line, then each column of the table as "Bread 7 (10)", the lines wrapping as they need."""
    players = res["players"]
    blocks: list[ft.Control] = []
    for i in res["ranking"]:
        p, points = players[i], oc.breakdown[i]
        parts = [f"{ctx.t(f'lutece.res.{r}')} " + ctx.t("lutece.ui.count_points", count=p["resources"][r]["count"],
                                                        points=points[f"lutece.res.{r}"]) for r in RESOURCES]
        parts.append(f"{ctx.t('lutece.score.places')} {points['lutece.score.places']}")
        parts.append(f"{ctx.t('lutece.score.gold_points')} " + ctx.t(
            "lutece.ui.gold_points", gold=p["gold"], points=points["lutece.score.gold_points"]))
        blocks.append(ft.Column([
            ft.Row([ft.Text(f"{oc.ranks[i]}.", size=18, weight=ft.FontWeight.BOLD),
                    ft.Text(p["name"], size=18, weight=ft.FontWeight.BOLD, expand=True, max_lines=2,
                            overflow=ft.TextOverflow.ELLIPSIS),
                    ft.Text(str(oc.scores[i]), size=20, weight=ft.FontWeight.BOLD)], spacing=8),
            ft.Row([ft.Container(ft.Text(x, size=14), bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH, border_radius=8,
                                 padding=ft.Padding.symmetric(horizontal=8, vertical=3)) for x in parts],
                   wrap=True, spacing=6, run_spacing=4)], spacing=4, tight=True))
    return kit.card(*blocks, _sub(ctx.t("lutece.ui.cells"), 14))


def _chart(ctx: UiContext, res: dict[str, Any], oc: Result) -> ft.Control:
    """Stacked bars with flex widths, so they fit a phone and a laptop alike."""
    chart = res["chart"]
    best = max([s for s in oc.scores if s is not None] + [1])
    rows: list[ft.Control] = []
    for i in res["ranking"]:  # same order as the table
        label = chart["labels"][i]
        segs: list[ft.Control] = []
        for s in chart["series"]:
            val = s["values"][i]
            if val > 0:
                segs.append(ft.Container(expand=val, height=26, bgcolor=RES_COLOURS.get(s["key"], ft.Colors.GREY),
                                         tooltip=f"{ctx.t(s['key'])}: {val}"))
        rest = best - (oc.scores[i] or 0)
        if rest > 0:
            segs.append(ft.Container(expand=rest, height=26))
        rows.append(ft.Row([ft.Text(label, size=15, width=80, no_wrap=True),
                            ft.Container(content=ft.Row(segs, spacing=1), expand=True),
                            ft.Text(str(oc.scores[i]), size=16, weight=ft.FontWeight.BOLD, width=36)],
                           spacing=8))
    legend = ft.Row([ft.Row([ft.Container(width=14, height=14, bgcolor=RES_COLOURS.get(s["key"])),
                             ft.Text(ctx.t(s["key"]), size=13)], spacing=4, tight=True) for s in chart["series"]],
                    wrap=True, spacing=12, run_spacing=4)
    return kit.card(kit.title(ctx.t("lutece.ui.chart"), 18), *rows, legend)
