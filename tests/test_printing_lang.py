"""Printed cards and sheets in English, German and French (`lang`): texts from the catalog, the
CLI's --lang, and the host screen's downloads with ?lang=."""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from starlette.testclient import TestClient

from companion.games.lutetia import printing as LP
from companion.i18n import LANGS, catalog
from companion.printing import api, board, cards, engine, printables
from companion.printing import decks as D
from companion.printing.cli import main
from companion.printing.pdf import read_pages

# English words of the printed texts that must not appear on a German or French sheet
ENGLISH = ["Fulfilled", "marker", "Hand in", "Discard", "Decides", "Worth", "CHARACTER", "PLACE", "gold", "Join",
           "Table code", "Scan", "sheet", "fronts", "backs", "piece", "glue", "lay over", "TRACK", "virtual",
           "RED", "BLUE", "GREEN", "YELLOW", "BLACK", "WHITE", "PURPLE", "POWER", "ROMAN", "MODIFICATION card",
           "plan cards", "vote cards", "laurel chips", "action cards"]


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text drawn with fit_text on cards, boards and page labels (caches emptied first)."""
    texts: list[str] = []
    game_printing = [D.spec(g).printing_module() for g in D.GAMES]  # the games' own card renderers
    for mod in (cards, board, engine, *game_printing):
        orig = mod.fit_text

        def record(d: Any, box: Any, text: str, *a: Any, _orig: Any = orig, **kw: Any) -> Any:
            texts.append(text)
            return _orig(d, box, text, *a, **kw)
        monkeypatch.setattr(mod, "fit_text", record)
    engine._face_image.cache_clear()
    LP.render_track.cache_clear()
    yield texts
    engine._face_image.cache_clear()
    LP.render_track.cache_clear()


def english_words(texts: list[str]) -> set[str]:
    return {w for w in ENGLISH for t in texts if re.search(rf"\b{re.escape(w)}\b", t)}


def sheets(game: str, lang: str, dpi: int = 50) -> list[Image.Image]:
    return [engine.paint(j) for j in api.game_jobs(game, lang=lang, dpi=dpi, backs="duplex-long")]


@pytest.mark.parametrize("lang", ["de", "fr"])
@pytest.mark.parametrize("game", D.GAMES)
def test_every_sheet_of_a_game_is_in_the_language(game: str, lang: str, drawn: list[str]) -> None:
    sheets(game, lang)
    assert drawn, "nothing was drawn"
    assert english_words(drawn) == set(), f"{game}/{lang}: English left on the sheets"
    ours = {v for k, v in catalog(lang).items() if k.startswith("print.") and "{" not in v}
    assert ours & set(drawn), "no catalog text reached the sheets"
    own = {v for k, v in catalog(lang).items() if k.startswith(f"{game}.print.") and "{" not in v}
    assert own & set(drawn), "none of the game's own printed texts (its catalog) reached the sheets"


@pytest.mark.parametrize(("lang", "word"), [("de", "PASSER-TEST"), ("fr", "CALAGE")])
def test_registration_page_in_the_language(lang: str, word: str, drawn: list[str]) -> None:
    for job in engine.registration_jobs("a4", dpi=50, offset="1.5,-2", lang=lang):
        engine.paint(job)
    assert english_words(drawn) == set() and not any("Hold" in t or "offset now" in t for t in drawn)
    assert any(word in t for t in drawn) and any("1.5,-2 mm" in t for t in drawn)


def test_the_english_sheets_use_the_same_keys(drawn: list[str]) -> None:
    """The check above is not vacuous: English sheets do show those words."""
    sheets("lutetia", "en")
    sheets("lutece", "en")
    found = english_words(drawn)
    assert {"Fulfilled", "CHARACTER", "POWER", "sheet", "fronts", "piece", "TRACK", "RED", "GREEN"} <= found


def test_a_german_deck_has_german_text(drawn: list[str]) -> None:
    votes = LP.lutetia_votes("de")
    assert votes.title == "LUTETIA Abstimmkarten" and votes.lang == "de"
    assert all(c.front.kw["lang"] == "de" for c in votes.cards)
    m_red = next(c for c in votes.cards if c.front.kw["value"] == "M" and c.front.kw["name"] == "red")
    img_de = cards.render_face(m_red.front.renderer, m_red.front.kw, 300, 420, 0, 150).img
    assert "MACHT" in drawn and "ROT" in drawn
    assert any(t.startswith("Entscheidet die Abstimmung allein") for t in drawn)
    en = LP.lutetia_votes("en").cards[votes.cards.index(m_red)].front
    img_en = cards.render_face(en.renderer, en.kw, 300, 420, 0, 150).img
    assert img_de.tobytes() != img_en.tobytes()
    assert "POWER" in drawn  # the English card of the same face
    assert [i.title for i in D.game_items("lutetia", lang="fr")] == [
        "LUTETIA cartes plan", "LUTETIA cartes de vote", "LUTETIA cartes modification", "LUTETIA piste 1-55",
        "LUTETIA marqueurs de piste"]


def test_french_join_card_still_scans_and_says_so(drawn: list[str]) -> None:
    zxingcpp = pytest.importorskip("zxingcpp")
    url = "http://192.168.1.20:8550/t/K7QX"
    png = Image.open(io.BytesIO(api.join_card_png("K7QX", url, lang="fr")))
    assert {r.text for r in zxingcpp.read_barcodes(png)} == {url}
    assert "Rejoindre la table" in drawn and "Code de la table" in drawn
    assert any(t.startswith("Scannez") and t.endswith(url) for t in drawn)


def test_english_is_the_default_and_unchanged() -> None:
    assert api.game_jobs("lutece", dpi=50) == api.game_jobs("lutece", dpi=50, lang="en")
    assert api.join_card_jobs("K7QX", "http://x/t/K7QX", dpi=50) == api.join_card_jobs("K7QX", "http://x/t/K7QX",
                                                                                         dpi=50, lang="en")


def test_unknown_languages_are_refused_with_the_choices() -> None:
    for bad in ("es", "", "EN", 3):
        with pytest.raises(ValueError, match="en, de, fr"):
            api.render_pdf("quovadis", lang=bad, dpi=50)
    with pytest.raises(ValueError, match="en, de, fr"):
        api.join_card_pdf("K7QX", "http://x", lang="xx")
    with pytest.raises(ValueError, match="en, de, fr"):
        api.registration_pdf(lang="it")


def test_cli_lang(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mods-de.pdf"
    assert main(["print", "lutetia", "--deck", "mods", "--mod-deck", "1,1,1", "--dpi", "50", "--lang", "de",
                 "-o", str(out)]) == 0
    de = read_pages(out.read_bytes())
    en_pdf = api.render_pdf("lutetia", "mods", mod_deck="1,1,1", dpi=50, backs="duplex-long")
    assert len(de) == len(read_pages(en_pdf)) and de[0].image != read_pages(en_pdf)[0].image
    assert main(["print", "--registration", "--dpi", "50", "--lang", "fr", "-o", str(tmp_path / "r.pdf")]) == 0
    assert main(["print", "--join", "K7QX", "http://x/t/K7QX", "--dpi", "50", "--lang", "de",
                 "-o", str(tmp_path / "j.pdf")]) == 0
    assert main(["print", "lutetia", "--lang", "es", "-o", str(tmp_path / "x.pdf")]) == 2
    assert main(["print", "--all", "--lang", "de"]) == 2
    assert "englischen Druckvorlagen" in capsys.readouterr().err  # (--lang de: the message in German too)


def test_every_language_has_every_printed_text() -> None:
    en = printables.texts("en")
    assert len(en) > 40
    for lang in LANGS:
        assert set(printables.texts(lang)) == set(en)


# ---- the host screen's downloads ------------------------------------------------------------

@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TestClient, Any, Path]]:
    from companion.app import build
    from companion.table.hub import Hub
    from companion.table.store import SQLiteStore

    monkeypatch.setenv("COMPANION_STATIC_ENCODINGS", "gzip")
    monkeypatch.setenv("COMPANION_STATIC_WARM", "0")
    data = tmp_path / "data"
    hub = Hub(SQLiteStore(data))
    with TestClient(build(hub, "http://127.0.0.1:1")) as c:
        yield c, hub, data


def test_print_download_in_french_is_rendered_once_and_cached(client: tuple[TestClient, Any, Path],
                                                              drawn: list[str]) -> None:
    c, _hub, data = client
    en = c.get("/print/quovadis-a4.pdf")
    assert en.status_code == 200 and en.content == (printables.PRINTABLES / "quovadis-a4.pdf").read_bytes()
    assert c.get("/print/quovadis-a4.pdf?lang=en").content == en.content
    fr = c.get("/print/quovadis-a4.pdf?lang=fr")
    assert fr.status_code == 200 and fr.headers["content-type"] == "application/pdf"
    assert 'filename="quovadis-a4-fr.pdf"' in fr.headers["content-disposition"]
    pages = read_pages(fr.content)
    assert len(pages) == len(read_pages(en.content)) and fr.content != en.content
    assert "CÉSAR" in drawn and "CAESAR" not in drawn
    cached = list((data / "cache" / "print").glob("quovadis-a4-fr-*.pdf"))
    assert len(cached) == 1 and cached[0].read_bytes() == fr.content
    drawn.clear()
    again = c.get("/print/quovadis-a4.pdf?lang=fr")
    assert again.content == fr.content and drawn == []  # from the cache, not rendered again
    assert hashlib.sha256(fr.content).hexdigest() != hashlib.sha256(en.content).hexdigest()


def test_print_download_refuses_unknown_language_and_files(client: tuple[TestClient, Any, Path]) -> None:
    c, _hub, _data = client
    bad = c.get("/print/quovadis-a4.pdf?lang=es")
    assert bad.status_code == 400 and "lang=en, lang=de, lang=fr" in bad.text
    assert c.get("/print/nothing-a4.pdf?lang=de").status_code == 404
    assert c.get("/print/..%2Fpyproject.pdf?lang=de").status_code == 404


def test_join_card_download_in_german(client: tuple[TestClient, Any, Path], drawn: list[str]) -> None:
    c, hub, _data = client
    t = hub.create("sealed_vote", None, [{"name": "A"}, {"name": "B"}])
    c.cookies.set(f"tc_h_{t.code}", t.host_token)  # the host's browser (companion/ui/boot.py)
    r = c.get(f"/join-card/{t.code}.pdf?paper=letter&lang=de")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert f'filename="join-{t.code}-de.pdf"' in r.headers["content-disposition"]
    page = read_pages(r.content)[0]
    assert abs(page.size_mm[0] - 215.9) < 0.1
    assert "Dem Tisch beitreten" in drawn and "Tisch-Code" in drawn
    en = c.get(f"/join-card/{t.code}.pdf")
    assert en.status_code == 200 and f'filename="join-{t.code}.pdf"' in en.headers["content-disposition"]
    bad = c.get(f"/join-card/{t.code}.pdf?lang=xx")
    assert bad.status_code == 400 and "lang=de" in bad.text
