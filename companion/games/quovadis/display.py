"""Quo Vadis on the table display (companion/ui/views/display.py): the committees as the board's
graph – each committee's senator places (filled in the seats' colours), the laurels on the paths
and Caesar on his – whose turn, and each committee vote's answers turning over, then the result."""

from __future__ import annotations

from typing import Any

import flet as ft
import flet.canvas as cv

from companion.ui import kit
from companion.ui.kit import UiContext
from companion.ui.views.display import Card, Moment, Status, sealed_status


def status(ctx: UiContext) -> Status:
    v = ctx.view
    ph = v.get("phase")
    if ph == "vote" and v.get("vote"):
        vote = v["vote"]
        voters = list(vote.get("voters") or [])
        waiting = set(vote.get("awaiting") or [])
        head = ctx.t("display.qv.vote", name=ctx.name(vote.get("mover")), a=vote.get("from"), b=vote.get("to"))
        return sealed_status(ctx, voters, [s for s in voters if s not in waiting], head)
    if ph == "caesar" and isinstance(v.get("caesar_by"), int):
        s = v["caesar_by"]
        return Status(ctx.t("display.qv.caesar", name=ctx.name(s)), (s,), turn=s)
    if ph == "over":
        return Status(ctx.t("display.over"))
    turn = v.get("turn")
    if isinstance(turn, int):
        return Status(ctx.t("display.turn", name=ctx.name(turn)), (turn,), turn=turn)
    return Status("")


def _layout(nodes: list[dict[str, Any]]) -> dict[int, tuple[int, int, int]]:
    """Each committee's column (its longest distance from a start) and row in that column."""
    depth: dict[int, int] = {n["id"]: 0 for n in nodes}
    by_id = {n["id"]: n for n in nodes}
    for _ in range(len(nodes)):
        for n in nodes:
            for to in n.get("paths") or []:
                if to in depth and depth[to] < depth[n["id"]] + 1:
                    depth[to] = depth[n["id"]] + 1
    cols: dict[int, list[int]] = {}
    for nid in sorted(by_id):
        cols.setdefault(depth[nid], []).append(nid)
    return {nid: (d, i, len(ids)) for d, ids in cols.items() for i, nid in enumerate(ids)}


def board(ctx: UiContext, width: float) -> ft.Control:
    v = ctx.view
    nodes = v.get("nodes") or []
    if not nodes:
        return ft.Container()
    pos = _layout(nodes)
    ncols = max(p[0] for p in pos.values()) + 1
    w = max(600.0, width - 10)
    h = min(460.0, w * 0.42)
    rows = max(p[2] for p in pos.values())
    k = min(1.5, max(1.0, w / 1000))  # (larger on a TV)
    node_w, node_h = min(130.0 * k, w / ncols - 24), min(84.0 * k, h / rows - 14)

    def centre(nid: int) -> tuple[float, float]:
        c, r, k = pos[nid]
        return (c + 0.5) * w / ncols, (r + 0.5) * h / k
    shapes: list[Any] = []
    marks: list[ft.Control] = []
    caesar = v.get("caesar")
    for p in v.get("paths") or []:
        if p["from"] not in pos or p["to"] not in pos:
            continue
        (x1, y1), (x2, y2) = centre(p["from"]), centre(p["to"])
        on = caesar == p["id"]
        shapes.append(cv.Line(x1, y1, x2, y2, paint=ft.Paint(color="#8d6e63" if not on else "#f9a825",
                                                              stroke_width=10 if on else 6)))
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        if p.get("laurel") and p.get("chip"):
            marks.append(ft.Container(left=mx - 20, top=my - 20, width=40, height=40, border_radius=20,
                                      bgcolor="#2e7d32", border=ft.Border.all(3, "#c5e1a5"),
                                      alignment=ft.Alignment.CENTER,
                                      content=ft.Text(str(p["chip"].get("value", "")), size=20,
                                                      weight=ft.FontWeight.BOLD, color=ft.Colors.WHITE)))
        if on:
            marks.append(ft.Container(
                left=mx - 26, top=my - 26, width=52, height=52, border_radius=26, bgcolor="#f9a825",
                border=ft.Border.all(4, "#6d4c41"), alignment=ft.Alignment.CENTER,
                content=ft.Semantics(label=ctx.t("display.qv.caesar_here", a=p["from"], b=p["to"]),
                                     content=ft.Text("C", size=28, weight=ft.FontWeight.BOLD, color="#3e2723"))))
    boxes: list[ft.Control] = []
    dot = max(14, min(int(22 * k), int(node_w / 6)))
    for n in nodes:
        x, y = centre(n["id"])
        places: list[ft.Control] = [kit.seat_dot(ctx.colour(s), dot) for s in n.get("occupants") or []]
        places += [ft.Container(width=dot, height=dot, border_radius=dot, border=ft.Border.all(2, "#5d4037"))
                   for _ in range(n.get("free", 0))]
        senate = n.get("senate")
        label = ctx.t("display.qv.senate") if senate else str(n["id"])
        need = f" · {n['needed']}" if n.get("needed") else ""
        boxes.append(ft.Container(
            left=x - node_w / 2, top=y - node_h / 2, width=node_w, height=node_h, border_radius=14,
            bgcolor="#fff3e0" if not senate else "#ffe082", border=ft.Border.all(3, "#6d4c41"), padding=4,
            content=ft.Column([ft.Text(label + need, size=int(20 * k), weight=ft.FontWeight.BOLD, max_lines=1),
                               ft.Row(places, spacing=3, wrap=True, run_spacing=3,
                                      alignment=ft.MainAxisAlignment.CENTER)],
                              spacing=2, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER)))
    return ft.Stack([cv.Canvas(shapes, width=w, height=h), *boxes, *marks], width=w, height=h)


def moment(ctx: UiContext) -> Moment | None:
    log = ctx.view.get("log") or []
    start = max((i for i, e in enumerate(log) if e["key"] == "quovadis.log.vote_open"), default=None)
    if start is None:
        return None
    cards: list[Card] = []
    result: str | None = None
    for e in log[start + 1:]:
        k, p = e["key"], e.get("params") or {}
        if k in ("quovadis.log.vote_yes", "quovadis.log.vote_no") and isinstance(p.get("seat"), int):
            yes = k.endswith("yes")
            cards.append(Card(p["seat"], ctx.t("display.qv.yes" if yes else "display.qv.no"),
                              ctx.t("display.qv.senators", count=p.get("weight", 1)), yes))
        elif k in ("quovadis.log.vote_passed", "quovadis.log.vote_failed"):
            result = ctx.msg(e)
            break
    if result is None:
        return None
    op = log[start].get("params") or {}
    title = ctx.t("display.qv.vote_done", name=ctx.name(op.get("seat")), a=op.get("a"), b=op.get("b"))
    return Moment(f"qv{start}", title, tuple(cards), (result,),
                  seats=tuple((s["name"], s["colour"]) for s in ctx.table.seats))


def yours(ctx: UiContext, m: Moment) -> str:
    """A phone's moment (companion/ui/views/moment.py): the ballot's outcome for this seat's senator
    (the mover's: moves or stays) or this seat's vote in it."""
    log = ctx.view.get("log") or []
    start = max((i for i, e in enumerate(log) if e["key"] == "quovadis.log.vote_open"), default=None)
    if start is None or ctx.seat is None:
        return ""
    op = log[start].get("params") or {}
    passed = any(e["key"] == "quovadis.log.vote_passed" for e in log[start + 1:])
    if op.get("seat") == ctx.seat:
        return ctx.t("moment.qv.moves" if passed else "moment.qv.stays", a=op.get("a"), b=op.get("b"))
    for e in log[start + 1:]:
        p = e.get("params") or {}
        if e["key"] in ("quovadis.log.vote_yes", "quovadis.log.vote_no") and p.get("seat") == ctx.seat:
            vote = ctx.t("display.qv.yes" if e["key"].endswith("yes") else "display.qv.no")
            return ctx.t("moment.qv.yours", vote=vote, count=p.get("weight", 1),
                         outcome=ctx.t("moment.qv.passed" if passed else "moment.qv.failed"))
    return ""
