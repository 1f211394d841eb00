"""Screens of the generic sealed vote / bid."""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.ui import kit
from companion.ui.kit import UiContext


def _question_title(ctx: UiContext, view: dict[str, Any]) -> str:
    q = view["question"]
    return q["question"] or ctx.t("sv.default_question")


def _results(ctx: UiContext | kit.Look, res: Any, big: bool = False) -> list[ft.Control]:
    q = res["question"]
    rows: list[ft.Control] = []
    for r in res["rows"]:
        value = r["value"]
        shown = ctx.t("sv.no_value") if value is None else ctx.tv(value)
        mark: list[ft.Control] = []
        if r.get("unlocked"):  # counted at an early reveal, never locked: said wherever it shows
            mark.append(kit.pill(ctx.t("ui.not_locked"), ft.Colors.DEEP_ORANGE_800))
        rows.append(ft.Row([
            kit.seat_dot(ctx.colour(r["seat"]), 22 if big else 16),
            ft.Text(ctx.name(r["seat"]), size=22 if big else 17, expand=True),
            *mark,
            ft.Text(shown, size=26 if big else 20, weight=ft.FontWeight.BOLD),
        ]))
    s = res["summary"]
    if q["mode"] == "number":
        if s["count"]:
            rows.append(ft.Text(ctx.t("sv.sum", sum=s["sum"], max=s["max"], min=s["min"]), size=16))
            rows.append(ft.Text(top_text(ctx, res), size=18, weight=ft.FontWeight.BOLD))
    else:
        rows.append(ft.Text(tally_text(ctx, res), size=18, weight=ft.FontWeight.BOLD))
    return rows


def tally_text(ctx: UiContext | kit.Look, res: Any) -> str:
    """ "Tally: Yes: 2 (1 not locked) · No: 1" – a count that holds choices never locked says how many."""
    s = res["summary"]
    half = s.get("unlocked") or {}
    parts = [f"{ctx.tv(c)}: {n}" + (f" ({ctx.t('sv.n_not_locked', n=half[c])})" if half.get(c) else "")
             for c, n in s["counts"].items()]
    return f"{ctx.t('sv.tally')}: " + "  ·  ".join(parts)


def top_text(ctx: UiContext | kit.Look, res: Any) -> str:
    """ "Highest: Ana (not locked)" – the highest bids, each never locked one marked."""
    half = {r["seat"] for r in res["rows"] if r.get("unlocked")}
    return ctx.t("sv.top", names=", ".join(
        ctx.name(x) + (f" ({ctx.t('ui.not_locked')})" if x in half else "") for x in res["summary"]["top"]))


def _frozen_history(ctx: UiContext, skip_latest: bool = False) -> tuple[Any, ...]:
    """The past rounds as an immutable prop, made once per state for all screens of the table
    (every seat's view holds the same history, all of it public), each round frozen once for
    the table's life (kit.freeze_entries: the history is append-only)."""
    rounds: tuple[Any, ...] = ctx.table.memo(
        "sv.history", lambda: kit.freeze_entries(ctx.table, "sv.history", ctx.view["history"]))
    return rounds[1:] if skip_latest else rounds


def _history(ctx: UiContext, view: dict[str, Any], skip_latest: bool) -> list[ft.Control]:
    items = _frozen_history(ctx, skip_latest)
    if not items:
        return []
    # All past rounds in one component: a change that adds none (a lock, a reveal) passes them
    # over in one step, however long the evening has been.
    return [History(ctx.look, items, key="history")]


@kit.component
def History(look: kit.Look, items: tuple[Any, ...]) -> ft.Control:
    # A past round never changes: each is its own component, drawn once and then passed over.
    return ft.Column([PastRound(look, h, key=f"h{h['round_no']}") for h in items], spacing=14, tight=True)


@kit.component
def PastRound(look: kit.Look, h: kit.Frozen) -> ft.Control:
    return _past_round(look, h)


def _past_round(ctx: UiContext | kit.Look, h: Any) -> ft.Control:
    head = f"{ctx.t('sv.round', n=h['round_no'])}: {h['question']['question'] or ctx.t('sv.default_question')}"
    if h.get("abandoned"):
        return ft.Text(f"{head} – {ctx.t('sv.abandoned')}", size=14, italic=True)
    return kit.card(ft.Text(head, size=15, weight=ft.FontWeight.BOLD), *_results(ctx, h))


def phone_props(ctx: UiContext) -> dict[str, Any]:
    """What a phone's game part shows of the view: not who else has chosen (the seat list shows
    that), so another player's choice does not redraw this part – but, once this phone has
    locked, whom it waits for. Worked out once per state and seat."""
    def make() -> dict[str, Any]:
        rnd = ctx.view["round"]
        keep = ("revealed", "mine", "my_locked", "seats", "locked") if rnd.get("my_locked") else \
            ("revealed", "mine", "my_locked")
        return {**_frozen_rest(ctx), "round": kit.freeze({k: rnd.get(k) for k in keep}),
                "history": _frozen_history(ctx)}
    return ctx.table.memo(f"sv.phone_props:{ctx.seat}", make)  # type: ignore[no-any-return]


def _frozen_rest(ctx: UiContext) -> dict[str, Any]:
    """The view but its history (frozen once for all screens) and the round (per screen), frozen."""
    return {k: kit.freeze(v) for k, v in ctx.view.items() if k not in ("history", "round")}


def public_props(ctx: UiContext) -> dict[str, Any]:
    """What the host's (and a spectator's) game part shows of the view, the history shared;
    once per state."""
    return ctx.table.memo("sv.public_props", lambda: {  # type: ignore[no-any-return]
        **_frozen_rest(ctx), "round": kit.freeze(ctx.view["round"]), "history": _frozen_history(ctx)})


def phone(ctx: UiContext) -> list[ft.Control]:
    v = ctx.view
    q = v["question"]
    rnd = v["round"]
    out: list[ft.Control] = [
        ft.Text(ctx.t("sv.round", n=v["round_no"]), size=15, color=ft.Colors.ON_SURFACE_VARIANT),
        kit.title(_question_title(ctx, v), 24),
    ]
    if rnd["revealed"]:
        out.append(kit.card(*_results(ctx, v["result"], big=True)))
        out.append(ft.Text(ctx.t("sv.wait_next"), size=15, color=ft.Colors.ON_SURFACE_VARIANT))
        out += _history(ctx, v, skip_latest=True)
        return out
    mine = rnd.get("mine")
    locked = rnd.get("my_locked", False)
    if locked:
        out.append(kit.card(
            ft.Text(ctx.t("ui.locked_in"), size=18, weight=ft.FontWeight.BOLD),
            ft.Text(ctx.tv(mine), size=34, weight=ft.FontWeight.BOLD),
            ft.Text(ctx.waiting_for([x for x in rnd.get("seats", []) if x not in rnd.get("locked", [])]), size=16),
        ))
    elif q["mode"] == "choice":
        for c in q["choices"]:
            selected = mine == c

            async def pick(e: Any, c: str = c) -> None:
                await ctx.act({"type": "submit", "value": c})
            label = ft.Text(ctx.tv(c), size=20, weight=ft.FontWeight.W_600)
            out.append(ft.FilledButton(
                content=ft.Row([ft.Icon(ft.Icons.CHECK_CIRCLE), label], alignment=ft.MainAxisAlignment.CENTER)
                if selected else label,
                on_click=pick, height=64, width=10_000,
                style=ft.ButtonStyle(shape=ft.RoundedRectangleBorder(radius=14),
                                     bgcolor=ft.Colors.PRIMARY if selected else ft.Colors.SURFACE_CONTAINER_HIGH,
                                     color=ft.Colors.ON_PRIMARY if selected else ft.Colors.ON_SURFACE),
            ))
    else:
        key = f"bid{v['round_no']}"
        default = "" if mine is None else str(mine)

        async def send(e: Any) -> None:
            raw = str(ctx.local.get(key, default)).strip()
            try:
                value: Any = int(raw)
            except ValueError:
                value = raw
            if await ctx.act({"type": "submit", "value": value}):
                kit.clear_fields(ctx, key)

        def make(value: str) -> ft.TextField:
            return ft.TextField(label=ctx.t("sv.your_bid", lo=q["min"], hi=q["max"]), value=value,
                                keyboard_type=ft.KeyboardType.NUMBER, text_size=28, on_submit=send)
        out.append(kit.field(ctx, key, make, default=default, props=(q["min"], q["max"])))
        out.append(kit.button(ctx.t("ui.submit"), send))
        if mine is not None:
            out.append(ft.Text(ctx.t("ui.your_choice", value=mine), size=18))
    if not locked and q["mode"] == "choice" and mine is not None:
        out.append(ft.Text(ctx.t("ui.your_choice", value=ctx.tv(mine)), size=18, weight=ft.FontWeight.BOLD))
    if not locked:
        async def lock(e: Any) -> None:
            await ctx.act({"type": "lock"})
        out.append(kit.button(ctx.t("ui.lock"), lock, disabled=mine is None, icon=ft.Icons.LOCK))
        out.append(ft.Text(ctx.t("ui.lock_hint"), size=14, color=ft.Colors.ON_SURFACE_VARIANT))
    out += _history(ctx, v, skip_latest=False)
    return out


def host(ctx: UiContext) -> list[ft.Control]:
    v = ctx.view
    rnd = v["round"]
    out: list[ft.Control] = [
        ft.Text(ctx.t("sv.round", n=v["round_no"]), size=18, color=ft.Colors.ON_SURFACE_VARIANT),
        kit.title(_question_title(ctx, v), 34),
    ]
    if rnd["revealed"]:
        out.append(kit.card(*_results(ctx, v["result"], big=True)))
    else:
        n = len(rnd["seats"])
        out.append(ft.Text(ctx.t("ui.locked_count", n=len(rnd["locked"]), total=n), size=24,
                           weight=ft.FontWeight.BOLD))
    if ctx.table.phase == "playing" and ctx.is_host:
        # The form keeps what the host types in ctx.local; it is drawn again only when its mode
        # or a field's generation changes (not on every lock and reveal).
        loc = _ask_defaults(ctx, v)
        gens = [loc.get(f"{k}#gen", 0) for k in ("q", "choices", "min", "max")]
        out.append(AskForm(ctx.look, loc.get("mode"), tuple(gens), kit.Handlers(ctx), key="ask"))
    out += _history(ctx, v, skip_latest=rnd["revealed"])
    return out


def _ask_defaults(ctx: UiContext, v: dict[str, Any]) -> dict[str, Any]:
    """The next question's form starts from the current question (kept once typed)."""
    q = v["question"]
    loc = ctx.local
    loc.setdefault("q", q["question"])
    loc.setdefault("mode", q["mode"])
    loc.setdefault("choices", ", ".join(ctx.tv(c) for c in q.get("choices", [])))
    loc.setdefault("min", str(q.get("min", 0)))
    loc.setdefault("max", str(q.get("max", 20)))
    return loc


@kit.component
def AskForm(look: kit.Look, mode: str, gens: tuple[int, ...], hands: kit.Handlers) -> ft.Control:
    """The next question's form: its mode and fields' generations are its props; what is typed
    lives in ctx.local (the fields' own components), read when the host taps Ask."""
    ctx = hands.ctx
    loc = ctx.local

    question = kit.field(ctx, "q", lambda value: ft.TextField(label=look.t("sv.opt.question"), value=value))

    async def mode_changed(chosen: str) -> None:
        loc["mode"] = chosen
        await ctx.rerender()
    # A row of two buttons (both visible, one tap), as in the create form.
    mode_row = kit.choice_row(look.t("sv.opt.mode"), [("choice", look.t("sv.mode.choice")),
                                                     ("number", look.t("sv.mode.number"))],
                              mode, mode_changed)
    if mode == "choice":
        detail = kit.field(ctx, "choices", lambda value: ft.TextField(label=look.t("sv.opt.choices"), value=value))
    else:
        detail = ft.Row([kit.field(ctx, k, lambda value, k=k: ft.TextField(
            label=look.t(f"sv.opt.{k}"), value=value, width=140, keyboard_type=ft.KeyboardType.NUMBER))
            for k in ("min", "max")])

    def as_int(s: str) -> Any:
        try:
            return int(s.strip())
        except ValueError:
            return s

    async def ask(e: Any) -> None:
        action: dict[str, Any] = {"type": "ask", "question": loc["q"] or "", "mode": loc["mode"]}
        if loc["mode"] == "choice":
            action["choices"] = [c.strip() for c in (loc["choices"] or "").split(",") if c.strip()]
        else:
            action["min"], action["max"] = as_int(loc["min"]), as_int(loc["max"])
        await ctx.act(action)

    return kit.card(kit.title(look.t("sv.ask_title"), 20), question, mode_row, detail,
                    kit.button(look.t("ui.ask"), ask, icon=ft.Icons.SEND))


def result(ctx: UiContext) -> list[ft.Control]:
    return _history(ctx, ctx.view, skip_latest=False)
