"""Colour-blind safe (issue 20.5): every colour code has a second, shape code on the cards, their
backs and the track; colours that merge under simulated deuteranopia have different shapes."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from companion.games.lutece import printing as LCP
from companion.games.lutetia import printing as LP
from companion.printing import art, board, cards, engine
from companion.printing import decks as D
from companion.printing.art import COLOUR_SHAPES, rgb

# Machado, Oliveira & Fernandes (2009), deuteranopia, severity 1.0 (linear RGB)
DEUTAN = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881))


def _lin(v: float) -> float:
    v /= 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _srgb(v: float) -> float:
    v = min(1.0, max(0.0, v))
    return 255 * (12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055)


def deuteranopia(colour: tuple[int, int, int]) -> tuple[float, float, float]:
    lin = [_lin(c) for c in colour]
    return tuple(_srgb(sum(m * c for m, c in zip(row, lin, strict=True))) for row in DEUTAN)  # type: ignore[return-value]


def distance(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5


def merging_pairs(palette: list[tuple[str, str]], below: float = 90) -> list[tuple[str, str, float]]:
    sim = {n: deuteranopia(rgb(h)) for n, h in palette}
    return [(a, b, round(distance(sim[a], sim[b]))) for a, b in itertools.combinations(sim, 2)
            if distance(sim[a], sim[b]) < below]


@pytest.mark.parametrize("palette", [D.PLAYER_COLOURS, LP.LUTETIA_AREAS, LP.lutetia_areas()],
                         ids=["players", "areas", "areas-game"])
def test_every_colour_has_its_own_shape(palette: list[tuple[str, str]]) -> None:
    names = [n for n, _ in palette]
    assert all(n in COLOUR_SHAPES for n in names)
    assert len({COLOUR_SHAPES[n] for n in names}) == len(names)
    for a, b, _ in merging_pairs(palette):  # what deuteranopia merges, the shape tells apart
        assert COLOUR_SHAPES[a] != COLOUR_SHAPES[b]


def test_deuteranopia_merges_what_the_issue_says() -> None:
    """The check itself: red/green players and blue/purple areas come out close."""
    players = {(a, b) for a, b, _ in merging_pairs(D.PLAYER_COLOURS)}
    areas = {(a, b) for a, b, _ in merging_pairs(LP.LUTETIA_AREAS)}
    assert ("red", "green") in players
    assert ("blue", "purple") in areas


@pytest.fixture
def shapes_drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    orig = art.colour_shape

    def record(draw: Any, box: Any, name: str, *a: Any, **k: Any) -> None:
        seen.append(name)
        orig(draw, box, name, *a, **k)
    monkeypatch.setattr(art, "colour_shape", record)
    engine._face_image.cache_clear()
    LP.render_track.cache_clear()
    yield seen
    engine._face_image.cache_clear()
    LP.render_track.cache_clear()


@pytest.mark.parametrize("deck", [LP.lutetia_votes(), LP.lutetia_plans(), LCP.lutece_actions()],
                         ids=lambda d: d.name)
def test_each_coloured_card_front_and_back_shows_its_shape(deck: D.Deck, shapes_drawn: list[str]) -> None:
    for spec in deck.cards:
        for f in (spec.front, spec.back):
            assert f is not None
            shapes_drawn.clear()
            cards.render_face(f.renderer, f.kw, 200, 280, 10, 80)
            name = f.kw["name"]
            assert shapes_drawn and set(shapes_drawn) == {name}, (spec.name, f.renderer)


def test_the_track_shows_each_area_shape(shapes_drawn: list[str]) -> None:
    LP.render_track.cache_clear()
    board.board_image(dict(LP.lutetia_track().params), 40)
    assert set(shapes_drawn) == {n for n, _ in LP.lutetia_areas()}
