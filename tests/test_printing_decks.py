"""Deck contents match the rules pages; text fits; the CLI and the web-app functions work."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from companion.games.lutece import printing as LCP
from companion.games.lutetia import printing as LP
from companion.games.quovadis import printing as QP
from companion.printing import decks as D
from companion.printing import join_card_pdf, join_card_png, render_pdf
from companion.printing.cli import main
from companion.printing.fonts import fit_text
from companion.printing.pdf import read_pages

RULES = Path(__file__).resolve().parents[2] / "shared" / "rules"


def test_lutetia_plans_60_per_area_10_numbers_and_2_romans() -> None:
    deck = LP.lutetia_plans()
    seq = deck.sequence()
    assert len(seq) == 60
    numbers = sorted(int(c.name.split()[1]) for c in seq if c.kind == "plan")
    assert numbers == list(range(1, 51))
    assert deck.count("roman") == 10
    areas = LP.lutetia_areas()
    assert [n for n, _ in areas][2:4] == ["blue", "red"]  # 21-30 blue, 31-40 red (rules page)
    for a, (_name, colour) in enumerate(areas):
        in_area = [c for c in seq if c.back is not None and c.back.kw["area"] == a]
        assert len(in_area) == 12 and Counter(c.kind for c in in_area) == {"plan": 10, "roman": 2}
        assert all(c.front.kw["colour"] == colour for c in in_area)
    assert LP.lutetia_areas("orange-green-blue-red-grey")[0][0] == "orange"
    with pytest.raises(ValueError):
        LP.lutetia_areas("pink-green")


def test_lutetia_vote_sets_and_modification_cards() -> None:
    votes = LP.lutetia_votes().sequence()
    assert len(votes) == 36
    by_colour = Counter(c.front.kw["name"] for c in votes)
    assert len(by_colour) == 6 and set(by_colour.values()) == {6}
    assert sorted({c.front.kw["value"] for c in votes}) == sorted(["10", "20", "30", "70", "M", "R"])
    assert all(c.back is not None and c.back.kw["colour"] == c.front.kw["colour"] for c in votes)
    mods = LP.lutetia_mods()
    assert mods.count() == 36 and Counter(c.front.kw["value"] for c in mods.sequence()) == {1: 12, 2: 12, 3: 12}
    assert LP.lutetia_mods("8,9,10").count() == 27
    assert LP.lutetia_mods({1: 0, 2: 5, 3: 5}).count() == 10
    with pytest.raises(ValueError):
        LP.parse_mod_deck("1,2")


def test_every_card_has_a_back_and_every_kind_its_own() -> None:
    for game in D.GAMES:
        for item in D.game_items(game):
            if isinstance(item, D.Deck):
                assert all(c.back is not None for c in item.cards)
    backs = {c.back.renderer for d in (LP.lutetia_plans(), LP.lutetia_votes(), LP.lutetia_mods())
             for c in d.cards if c.back}
    assert backs == {"lutetia.plan_back", "lutetia.vote_back", "lutetia.mod_back"}


def test_lutece_60_action_cards() -> None:
    deck = LCP.lutece_actions()
    seq = deck.sequence()
    assert len(seq) == 60 and deck.card == "mini"
    per_colour = Counter(c.front.kw["name"] for c in seq)
    assert len(per_colour) == 5 and set(per_colour.values()) == {12}
    for colour in per_colour:
        labels = Counter(c.front.kw["label"] for c in seq if c.front.kw["name"] == colour)
        assert labels == Counter({"A": 1, "B": 1, "C": 1, "D": 1, "E": 1, "I": 1, "II": 1, "III": 1, "IV": 1,
                                  "V": 1, "+3": 2})


def test_quo_vadis_laurel_chips_match_the_rules_page() -> None:
    deck = QP.quovadis_laurels()
    chips = Counter((c.front.kw["value"], c.front.kw["caesar"]) for c in deck.sequence())
    expected = {(1, False): 18, (2, False): 8, (3, False): 15, (4, False): 9, (5, False): 6, (2, True): 6}
    assert chips == expected and deck.count() == 62 and deck.shape == "circle"
    page = RULES / "quo-vadis.md"
    if page.exists():  # the rules page itself: "18 × value 1 ... 8 × 2, 15 × 3, 9 × 4, 6 × 5 and 6 × 2 showing Caesar (62 chips in all)"
        text = page.read_text()
        assert f"{chips[(1, False)]} × value 1" in text
        for (v, caesar), n in expected.items():
            if v > 1 and not caesar:
                assert re.search(rf"\b{n} × {v}\b", text)
        assert f"{chips[(2, True)]} × 2 showing Caesar" in text and "(62 chips in all)" in text


def test_lutetia_counts_match_the_rules_page() -> None:
    page = RULES / "lutetia.md"
    if not page.exists():
        pytest.skip("shared rules not present")
    text = page.read_text()
    assert "60 = per area: its 10 numbers + 2" in text
    assert "10, 20, 30, 70, **M** (Macht), **R** (Römer)" in text
    assert "12 of each" in text and LP.lutetia_mods().count() == 3 * 12


def test_text_shrinks_to_fit_and_never_overflows() -> None:
    img = Image.new("RGB", (300, 120), "white")
    d = ImageDraw.Draw(img)
    long = "Worth 0. Abstain and hand in a Roman plan – or draw a modification card. " * 4
    box = (20, 10, 280, 110)
    size, drawn = fit_text(d, box, long, max_size=80)
    assert size < 80
    assert box[0] <= drawn[0] and drawn[2] <= box[2] and box[1] <= drawn[1] and drawn[3] <= box[3]
    short_size, _ = fit_text(d, box, "R", max_size=40)
    assert short_size == 40


def test_join_card_pdf_has_a_readable_qr_code() -> None:
    zxingcpp = pytest.importorskip("zxingcpp")
    import io

    url = "http://192.168.1.20:8550/t/K7QX"
    pdf = join_card_pdf("K7QX", url, "letter", dpi=150)
    pages = read_pages(pdf)
    assert len(pages) == 1 and abs(pages[0].size_mm[0] - 215.9) < 0.1
    img = pages[0].to_image()
    found = zxingcpp.read_barcodes(img)
    assert found and {r.text for r in found} == {url}
    png = Image.open(io.BytesIO(join_card_png("K7QX", url)))
    assert {r.text for r in zxingcpp.read_barcodes(png)} == {url}


def test_render_pdf_refuses_unknown_things() -> None:
    with pytest.raises(ValueError):
        render_pdf("chess")
    with pytest.raises(ValueError):
        render_pdf("lutetia", "nope")
    with pytest.raises(TypeError):
        render_pdf("lutetia", colour="red")
    assert D.game_id("Lutèce") == "lutece" and D.game_id("quo-vadis") == "quovadis"


def test_cli_prints_a_deck_with_progress(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mods.pdf"
    rc = main(["print", "lutetia", "--deck", "mods", "--mod-deck", "2,2,2", "--dpi", "72", "--paper", "letter",
               "--backs", "duplex-short", "--offset", "0.5,0", "--copies", "2", "-o", str(out)])
    assert rc == 0
    pages = read_pages(out.read_bytes())
    assert len(pages) == 4  # 12 cards = 2 sheets (9 per sheet), front + back each
    err = capsys.readouterr().err
    assert "4/4 pages" in err and "wrote" in err


def test_cli_registration_and_errors(tmp_path: Path) -> None:
    out = tmp_path / "reg.pdf"
    assert main(["print", "--registration", "--paper", "letter", "--dpi", "72", "-o", str(out)]) == 0
    assert len(read_pages(out.read_bytes())) == 2
    assert main(["print", "chess", "-o", str(tmp_path / "x.pdf")]) == 2
    assert main(["print", "lutetia", "--card", "2x2km", "-o", str(tmp_path / "x.pdf")]) == 2
    assert main(["print"]) == 2
    assert main(["print", "lutetia", "--paper", "a3"]) == 2
    assert main(["print", "--help"]) == 0


def test_render_pdf_from_a_thread_is_safe_and_deterministic() -> None:
    """The web app calls render_pdf off the event loop, in a thread: no fork/spawn there, same bytes."""
    import threading

    kw = dict(mod_deck="3,3,3", dpi=72, backs="duplex-long")
    serial = render_pdf("lutetia", "mods", workers=1, **kw)
    result: dict[str, bytes] = {}
    t = threading.Thread(target=lambda: result.setdefault("pdf", render_pdf("lutetia", "mods", workers=2, **kw)))
    t.start()
    t.join(60)
    assert result["pdf"] == serial
    assert render_pdf("lutetia", "mods", workers=2, **kw) == serial  # process pool in a single thread


def test_deck_defaults_apply_unless_the_caller_sets_them() -> None:
    from companion.printing.api import game_jobs
    from companion.printing.units import mm_to_px

    chips = game_jobs("quovadis", dpi=100, guide=False)[0]
    p, q = chips.placed[0], chips.placed[1]
    assert p.w == mm_to_px(24, 100) and p.bleed == mm_to_px(1.5, 100)
    assert q.x - (p.x + p.w) == mm_to_px(4, 100)  # the chips' own gap
    big = game_jobs("quovadis", dpi=100, card="30mm", gap="2mm", bleed="1mm", guide=False)[0]
    p, q = big.placed[0], big.placed[1]
    assert p.w == mm_to_px(30, 100) and p.bleed == mm_to_px(1, 100) and q.x - (p.x + p.w) == mm_to_px(2, 100)
    lutece = game_jobs("lutece", dpi=100, guide=False)[0]
    assert lutece.placed[0].w == mm_to_px(44, 100)  # mini cards by default


def test_markers_and_pieces_the_seeds_list() -> None:
    """LUTETIA: the two track markers (Miraculix, Asterix); Quo Vadis: 8 senators per player colour
    (3–5 players) and the Caesar token – all round, the same on both sides."""
    m = LP.lutetia_markers()
    assert m.count() == 2 and m.shape == "circle" and all(c.front == c.back for c in m.cards)
    p = QP.quovadis_pieces()
    assert p.count("senator") == 5 * 8 and p.count("caesar") == 1
    assert {c.front.kw["name"] for c in p.cards if c.kind == "senator"} == {n for n, _ in D.PLAYER_COLOURS[:5]}
    assert all(c.front == c.back for c in p.cards)
    assert [i.name for i in D.game_items("lutetia")][-1] == "markers"
    assert [i.name for i in D.game_items("quovadis")] == ["laurels", "pieces"]
