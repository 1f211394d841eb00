"""Boards that are bigger than a sheet: drawn whole, then cut into pieces that join.

A game's board is drawn by its renderer (`board_renderer`, in the game's folder:
companion/games/<id>/printing.py). `tile_board` splits the board into pieces that fit
the paper with an overlap strip: the next piece is cut along its dashed line and laid over
the "glue" strip of the previous one, the ⊕ join marks (in both pieces) on top of each other.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from companion import i18n
from companion.printing.art import INK, WHITE, mix
from companion.printing.fonts import fit_text
from companion.printing.layout import paper_size
from companion.printing.units import mm_to_px

OVERLAP_MM = 12.0
PAGE_MARGIN_MM = 8.0

Renderer = Callable[[dict[str, Any], int], Image.Image]
SizeMM = Callable[[dict[str, Any]], tuple[float, float]]
BOARDS: dict[str, tuple[Renderer, SizeMM]] = {}


def board_renderer(name: str, size_mm: SizeMM) -> Callable[[Renderer], Renderer]:
    """Register a game's board: `fn(params, dpi) -> image` and `size_mm(params) -> (w, h)`; a
    Board names it in its params ("renderer"); params["saver"] asks for the ink saver. The games' boards live in their folders
    (companion/games/<id>/printing.py), imported on first use."""
    def wrap(fn: Renderer) -> Renderer:
        BOARDS[name] = (fn, size_mm)
        return fn
    return wrap


def _board(params: dict[str, Any]) -> tuple[Renderer, SizeMM]:
    name = params["renderer"]
    if name not in BOARDS:
        from companion.games import specs

        for sp in specs().values():
            sp.printing_module()
    return BOARDS[name]


def _dashed(d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], fill: object, width: int,
            dash: int) -> None:
    length = math.dist(a, b)
    if length == 0:
        return
    n = max(1, int(length // (2 * dash)))
    for k in range(n + 1):
        t0, t1 = min(1.0, 2 * k * dash / length), min(1.0, (2 * k + 1) * dash / length)
        if t0 >= 1:
            break
        d.line([(a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)], fill=fill, width=width)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Tile:
    """One piece: the board's mm rectangle it shows, where it lands on its page, its place."""

    col: int
    row: int
    cols: int
    rows: int
    src_mm: tuple[float, float, float, float]
    orientation: str
    dest_mm: tuple[float, float]


def _pieces(length: float, avail: float) -> tuple[int, float]:
    if length <= avail:
        return 1, length
    n = math.ceil((length - OVERLAP_MM) / (avail - OVERLAP_MM))
    return n, (length + (n - 1) * OVERLAP_MM) / n


def tile_board(board_mm: tuple[float, float], paper: str, orientation: str | None = None) -> list[Tile]:
    bw, bh = board_mm
    best = None
    for orient in ([orientation] if orientation else ["portrait", "landscape"]):
        pw, ph = paper_size(paper, orient)
        nx, tw = _pieces(bw, pw - 2 * PAGE_MARGIN_MM)
        ny, th = _pieces(bh, ph - 2 * PAGE_MARGIN_MM)
        key = (nx * ny, orient != "portrait")
        if best is None or key < best[0]:
            best = (key, orient, nx, ny, tw, th, pw, ph)
    assert best is not None
    _, orient, nx, ny, tw, th, pw, ph = best
    tiles = []
    for r in range(ny):
        for c in range(nx):
            sx = c * (tw - OVERLAP_MM) if nx > 1 else 0.0
            sy = r * (th - OVERLAP_MM) if ny > 1 else 0.0
            tiles.append(Tile(c, r, nx, ny, (sx, sy, sx + tw, sy + th), orient, ((pw - tw) / 2, (ph - th) / 2)))
    return tiles


def paint_tile(page: Image.Image, board: Image.Image, tile: Tile, dpi: int, title: str, lang: str = "en") -> None:
    """Paste one piece on its page and draw its joining instructions in the page margin."""
    def u(mm: float) -> int:
        return mm_to_px(mm, dpi)

    sx0, sy0, sx1, sy1 = (u(v) for v in tile.src_mm)
    crop = board.crop((sx0, sy0, min(sx1, board.width), min(sy1, board.height)))
    dx, dy = u(tile.dest_mm[0]), u(tile.dest_mm[1])
    page.paste(crop, (dx, dy))
    d = ImageDraw.Draw(page)
    tw, th = crop.size
    ov = u(OVERLAP_MM)
    lw = max(2, u(0.3))
    grey = mix(WHITE, INK, 0.55)
    label = i18n.t(lang, "print.board.piece", title=title, n=tile.row * tile.cols + tile.col + 1,
                   total=tile.cols * tile.rows)
    lx = dx + (ov + u(5) if tile.col > 0 else 0)
    fit_text(d, (lx, max(0, dy - u(6.5)), dx + tw - ov - u(5), dy - u(1.5)), label, kind="bold", max_size=u(3.2),
             fill=INK, align="left")
    # outer cut marks at the four corners of the piece
    for x in (dx, dx + tw):
        d.line([(x, max(0, dy - u(5))), (x, dy - u(1))], fill=INK, width=lw)
        d.line([(x, dy + th + u(1)), (x, dy + th + u(5))], fill=INK, width=lw)
    for y in (dy, dy + th):
        d.line([(max(0, dx - u(5)), y), (dx - u(1), y)], fill=INK, width=lw)
        d.line([(dx + tw + u(1), y), (dx + tw + u(5), y)], fill=INK, width=lw)
    # right/bottom overlap: the glue strip, which the next piece covers exactly (same art);
    # left/top overlap of a later piece: ticks show where the previous piece's edge lies
    if tile.col < tile.cols - 1:
        _hatch(d, (dx + tw - ov, dy, dx + tw, dy + th), grey, u(0.25), u(4))
        _join_ticks(d, dx + tw - ov, dy, dy + th, u, lw)
        fit_text(d, (dx + tw - ov - u(60), dy + th + u(1), dx + tw - ov - u(4), dy + th + u(7)),
                 i18n.t(lang, "print.board.glue", n=tile.row * tile.cols + tile.col + 2), kind="bold",
                 max_size=u(3), fill=INK, align="right")
    if tile.row < tile.rows - 1:
        _hatch(d, (dx, dy + th - ov, dx + tw, dy + th), grey, u(0.25), u(4))
    if tile.col > 0:
        _join_ticks(d, dx + ov, dy, dy + th, u, lw)
        fit_text(d, (dx + ov + u(4), dy + th + u(1), dx + ov + u(70), dy + th + u(7)),
                 i18n.t(lang, "print.board.lay_over", n=tile.row * tile.cols + tile.col), kind="bold",
                 max_size=u(3), fill=INK, align="left")


def _join_ticks(d: ImageDraw.ImageDraw, x: int, y0: int, y1: int, u: Any, lw: int) -> None:
    """Triangles in the margin pointing at the join line x (same place on both pieces)."""
    for y, s in ((y0 - u(1), -1), (y1 + u(1), 1)):
        d.polygon([(x, y), (x - u(2.5), y + s * u(4)), (x + u(2.5), y + s * u(4))], fill=INK)


def _hatch(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], fill: object, width: int, step: int) -> None:
    """Light diagonal hatching over a strip (the board stays readable through it)."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    for k in range(x0 - h, x1, step):
        a = (max(x0, k), y0 + max(0, x0 - k))
        b = (min(x1, k + h), y0 + min(h, x1 - k))
        if a[0] < b[0]:
            d.line([a, b], fill=fill, width=width)  # type: ignore[arg-type]


dashed_line = _dashed  # (for the games' boards)


def board_image(params: dict[str, Any], dpi: int, saver: bool = False) -> Image.Image:
    """The whole board, drawn by its game's renderer; `saver`: its ink-saving variant (the renderer
    finds it in params as "saver": light tints and outlines instead of full colour)."""
    return _board(params)[0]({**params, "saver": True} if saver else params, dpi)


def board_size_mm(params: dict[str, Any]) -> tuple[float, float]:
    return _board(params)[1](params)
