"""The how-to-print sheet says how to cut the pieces its own sheets hold (issue 34.1): cards at crop
marks, round pieces of their diameters with a circle punch or scissors, a board's pieces – and never
a kind of piece the file does not have."""

from __future__ import annotations

import pytest

from companion.printing import api, engine
from companion.printing import decks as D
from companion.printing.layout import card_size

# words that name each kind of piece in the cutting section, per language
WORDS = {
    "en": {"cards": "crop marks", "circle": ["circle", "punch", "scissors"], "board": "corner marks"},
    "de": {"cards": "Schnittmarken", "circle": ["Kreis", "Kreisstanzer", "Schere"], "board": "Eckmarken"},
    "fr": {"cards": "traits de coupe", "circle": ["cercle", "perforatrice", "ciseaux"], "board": "traits d’angle"},
}


def guide_text(game: str, lang: str, monkeypatch: pytest.MonkeyPatch, **options: object) -> str:
    texts: list[str] = []
    orig = engine.fit_text
    monkeypatch.setattr(engine, "fit_text",
                        lambda d, box, text, *a, **k: (texts.append(text), orig(d, box, text, *a, **k))[1])
    jobs = api.game_jobs(game, paper="a4", backs="duplex-long", dpi=50, lang=lang, **options)
    assert jobs[0].kind == "guide"
    engine.paint(jobs[0])
    return "\n".join(texts)


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
@pytest.mark.parametrize("game", D.GAMES)
def test_each_how_to_names_the_pieces_its_sheets_hold(game: str, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = guide_text(game, lang, monkeypatch)
    items = D.game_items(game, lang=lang)
    decks = [i for i in items if isinstance(i, D.Deck)]
    has_cards = any(d.shape == "rect" for d in decks)
    circles = {f"{card_size(d.card)[0]:g} mm" for d in decks if d.shape == "circle"}
    has_board = any(isinstance(i, D.Board) for i in items)
    w = WORDS[lang]
    assert (w["cards"] in text) == has_cards, (game, lang, text)
    assert (w["board"] in text) == has_board, (game, lang, text)
    for word in w["circle"]:
        assert (word in text) == bool(circles), (game, lang, word, text)
    for size in circles:
        assert size in text, (game, lang, size, text)


def test_quo_vadis_says_circles_of_24_and_20_mm(monkeypatch: pytest.MonkeyPatch) -> None:
    text = guide_text("quovadis", "en", monkeypatch)
    assert "24 mm and 20 mm circles" in text and "scissors" in text
    assert "crop marks" not in text and "white edge of the backs" not in text and "backs have a white edge" not in text


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_without_crop_marks_the_how_to_does_not_name_them(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = guide_text("lutece", lang, monkeypatch, crop_marks=False)
    assert {"en": "with the crop marks", "de": "mit den Schnittmarken", "fr": "avec les traits de coupe"}[lang] not in text
    assert {"en": "no crop marks", "de": "keine Schnittmarken", "fr": "pas de traits de coupe"}[lang] in text
