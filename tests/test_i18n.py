"""Every user-facing string exists in English, German and French, with the same placeholders;
plural entries have every form of each language's rule; counts pick the right form."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from companion import i18n
from companion.games import games
from companion.i18n.po import Plural, fields, load_catalog, problems

ROOT = Path(__file__).resolve().parents[1]
CORE = load_catalog(i18n.LOCALE_DIR)
CATALOGS = {"core": CORE, **{gid: g.MESSAGES for gid, g in games().items()}}


@pytest.mark.parametrize("name", sorted(CATALOGS))
def test_all_languages_have_the_same_keys_and_placeholders(name):
    cat = CATALOGS[name]
    en = cat["en"]
    for lang in ("de", "fr"):
        assert set(cat[lang]) == set(en), f"{name}/{lang}: {set(cat[lang]) ^ set(en)}"
        for key, text in en.items():
            assert fields(cat[lang][key]) == fields(text), f"{name}/{lang}/{key}"
    assert problems(cat) == []  # every form: same placeholders; plural entries complete


def test_the_platform_catalog_is_the_po_files():
    assert set(CORE) == set(i18n.LANGS)
    assert all((i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "companion.po").is_file() for lang in i18n.LANGS)
    assert len(CORE["en"]) > 200 and i18n.t("de", "ui.print.title") == "Drucken"
    # a plural entry's str value is its "other" form, so readers of plain texts see the old text
    p = CORE["fr"]["tbl.err.too_many_guesses"]
    assert isinstance(p, Plural) and p == p.forms[-1] and p.count == "seconds"


def test_po_headers_carry_each_languages_plural_rule():
    for lang in i18n.LANGS:
        text = (i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "companion.po").read_text("utf-8")
        assert f'"Language: {lang}\\n"' in text and "Plural-Forms: nplurals=" in text
        plurals = [v for v in CORE[lang].values() if isinstance(v, Plural)]
        assert plurals and all(len(v.forms) == v.rule[0] for v in plurals)


# The counts the old catalog got wrong: "1 seconds", "1 days", "1 of 6 have locked" (and in
# French the singular for 0 and 1). Each line: key, params, and the text that must be seen.
PLURAL_CASES = [
    ("en", "tbl.err.too_many_guesses", {"seconds": 1}, "wait 1 second and"),
    ("en", "tbl.err.too_many_guesses", {"seconds": 0}, "wait 0 seconds and"),
    ("en", "tbl.err.too_many_guesses", {"seconds": 2}, "wait 2 seconds and"),
    ("de", "tbl.err.too_many_guesses", {"seconds": 1}, "warte 1 Sekunde."),
    ("de", "tbl.err.too_many_guesses", {"seconds": 0}, "warte 0 Sekunden."),
    ("fr", "tbl.err.too_many_guesses", {"seconds": 0}, "Attendez 0 seconde."),
    ("fr", "tbl.err.too_many_guesses", {"seconds": 1}, "Attendez 1 seconde."),
    ("fr", "tbl.err.too_many_guesses", {"seconds": 2}, "Attendez 2 secondes."),
    ("en", "ui.locked_count", {"n": 1, "total": 6}, "1 of 6 has locked"),
    ("en", "ui.locked_count", {"n": 0, "total": 6}, "0 of 6 have locked"),
    ("de", "ui.locked_count", {"n": 1, "total": 6}, "1 von 6 hat festgelegt"),
    ("de", "ui.locked_count", {"n": 3, "total": 6}, "3 von 6 haben festgelegt"),
    ("fr", "ui.locked_count", {"n": 0, "total": 6}, "0 sur 6 a verrouillé"),
    ("fr", "ui.locked_count", {"n": 1, "total": 6}, "1 sur 6 a verrouillé"),
    ("fr", "ui.locked_count", {"n": 2, "total": 6}, "2 sur 6 ont verrouillé"),
    ("en", "tbl.err.delete_in_play", {"days": 1}, "untouched for 1 day,"),
    ("fr", "tbl.err.delete_in_play", {"days": 1}, "pendant 1 jour,"),
    ("de", "tbl.err.delete_in_play", {"days": 7}, "der 7 Tage unberührt"),
    ("en", "tbl.err.name_long", {"max": 1}, "(1 character at most)"),
    ("fr", "tbl.err.name_long", {"max": 24}, "(24 caractères au plus)"),
    ("en", "print.guide.print_single", {"pages": 1, "paper": "A4"}, "1 page on A4 card"),
    ("fr", "print.guide.print_single", {"pages": 1, "paper": "A4"}, "1 page sur carte A4"),
    ("de", "print.guide.print_duplex", {"pages": 8, "paper": "A4", "edge": "LANGEN"}, "8 Seiten auf A4-Karton"),
    # the store passes its count as a string
    ("en", "store.err.set_aside", {"saved": "1", "reason": "r", "file": "f", "path": "p"}, "the 1 table that"),
    ("en", "store.err.set_aside", {"saved": "0", "reason": "r", "file": "f", "path": "p"}, "the 0 tables that"),
    ("fr", "store.err.set_aside", {"saved": "0", "reason": "r", "file": "f", "path": "p"}, "0 table lisible a été"),
    ("de", "store.err.set_aside", {"saved": "2", "reason": "r", "file": "f", "path": "p"}, "die 2 daraus lesbaren Tische"),
]


@pytest.mark.parametrize("lang,key,params,want", PLURAL_CASES)
def test_counts_pick_the_languages_plural_form(lang, key, params, want):
    assert want in i18n.t(lang, key, **params)


def test_a_count_that_is_not_a_number_gets_the_other_form():
    assert "{seconds} seconds" in i18n.t("en", "tbl.err.too_many_guesses")  # no params: the text as is
    assert "wait many seconds" in i18n.t("en", "tbl.err.too_many_guesses", seconds="many")
    assert i18n.t("xx", "tbl.err.too_many_guesses", seconds=1) == i18n.t("en", "tbl.err.too_many_guesses", seconds=1)


def test_every_key_used_in_code_exists():
    """Literal catalog keys in the platform code and screens exist in the catalog."""
    root = ROOT / "companion"
    missing = set()
    for path in list((root / "table").glob("*.py")) + list((root / "ui").glob("*.py")) + [root / "app.py"]:
        for key in re.findall(r'"((?:ui|tbl|store|err|sv)\.[a-z_.]+)"', path.read_text()):
            if not key.endswith(".") and not i18n.has(key):
                missing.add(key)
    assert not missing


def test_language_pick_and_fallback():
    assert i18n.pick_lang("de-CH") == "de" and i18n.pick_lang("fr_FR") == "fr"
    assert i18n.pick_lang("es-ES") == "en" and i18n.pick_lang(None) == "en"
    assert i18n.pick_lang("DE") == "de" and i18n.pick_lang("fr-Latn-FR") == "fr"
    assert all(i18n.pick_lang(x) == "en" for x in ("", "C", "POSIX", "und", "-", "en-GB", 42))
    assert i18n.t("xx", "err.not_now") == i18n.t("en", "err.not_now")
    assert i18n.t("de", "tbl.err.no_table", code="QQQQ").startswith("Es gibt keinen Tisch")


def test_catalog_to_po_round_trips_a_game_catalog(tmp_path):
    """tools/catalog_to_po.py on today's LUTECE catalog: the .po files read back as the same texts,
    and the plural entries of tools/plural_forms.py fix "1 pièces" on the French screen."""
    sys.path.insert(0, str(ROOT))
    try:
        from tools import catalog_to_po, plural_forms
    finally:
        sys.path.remove(str(ROOT))
    source = games()["lutece"].MESSAGES
    notes: list[str] = []
    paths = catalog_to_po.convert(source, tmp_path, "lutece", plural_forms.LUTECE, warn=notes.append)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in paths) == [
        f"{lang}/LC_MESSAGES/lutece.po" for lang in ("de", "en", "fr")]
    assert not [n for n in notes if n.startswith("warning")]
    back = load_catalog(tmp_path)
    assert problems(back) == []
    for lang in ("en", "de", "fr"):
        assert list(back[lang]) == list(source[lang])
        assert all(str(back[lang][k]) == v for k, v in source[lang].items())  # the many form: today's text
    coins = back["fr"]["lutece.ui.coins_on"]
    assert [coins.form(n).format(coins=n) for n in (0, 1, 2)] == ["0 pièce dessus", "1 pièce dessus", "2 pièces dessus"]
    ready = back["en"]["lutece.ui.locked_count"]
    assert ready.form(1).format(n=1, total=4) == "1 of 4 has locked"
    assert ready.form(2).format(n=2, total=4) == "2 of 4 have locked"


def test_plural_forms_for_the_games_fit_their_catalogs(tmp_path):
    """Every key of tools/plural_forms.py exists in its catalog, with the count among its placeholders."""
    sys.path.insert(0, str(ROOT))
    try:
        from tools import plural_forms
    finally:
        sys.path.remove(str(ROOT))
    from companion.i18n.po import as_plurals

    for gid, forms in plural_forms.GAMES.items():
        cat = as_plurals(games()[gid].MESSAGES, forms)
        assert problems(cat) == [], gid
        assert all(isinstance(cat[lang][k], Plural) for k in forms for lang in i18n.LANGS), gid
    core = as_plurals({lang: {k: str(v) for k, v in CORE[lang].items()} for lang in i18n.LANGS},
                      {**plural_forms.CORE, **plural_forms.HISTORY})
    assert {lang: [tuple(getattr(v, "forms", (v,))) for v in core[lang].values()] for lang in i18n.LANGS} == {
        lang: [tuple(getattr(v, "forms", (v,))) for v in CORE[lang].values()] for lang in i18n.LANGS}


@pytest.mark.parametrize("lang,locked,want", [
    ("en", 0, "0 of 3 have locked"), ("en", 1, "1 of 3 has locked"), ("en", 2, "2 of 3 have locked"),
    ("de", 1, "1 von 3 hat festgelegt"), ("de", 2, "2 von 3 haben festgelegt"),
    ("fr", 0, "0 sur 3 a verrouillé"), ("fr", 1, "1 sur 3 a verrouillé"), ("fr", 2, "2 sur 3 ont verrouillé"),
])
def test_the_host_screen_counts_locked_seats_in_the_right_form(lang, locked, want):
    """The sealed vote's host screen (the screen said "1 of 3 have locked", "1 sur 3 ont verrouillé")."""
    try:
        from companion.games import screens  # a game is one folder (issue 16.1)
    except ImportError:
        from companion.ui.games import screens
    from tests.ui_harness import act, ctx, started_table, text

    t = started_table("sealed_vote", ["Ann", "Bob", "Cy"])
    for seat in range(locked):
        act(t, seat, {"type": "submit", "value": "sv.yes"})
        act(t, seat, {"type": "lock"})
    shown = text(screens("sealed_vote").host(ctx(t, None, host=True, lang=lang)))
    assert want in shown


def test_catalog_to_po_command_replaces_a_messages_module(tmp_path):
    """The command line as the lead runs it on a game folder: .po files, then messages.py a stub."""
    import importlib.util
    import subprocess

    folder = tmp_path / "mygame"
    folder.mkdir()
    src = {"en": {"g.n": "{n} cards", "g.hi": "Hello"}, "de": {"g.n": "{n} Karten", "g.hi": "Hallo"},
           "fr": {"g.n": "{n} cartes", "g.hi": "Bonjour"}}
    (folder / "messages.py").write_text(f'"""Test game messages."""\n\nMESSAGES = {src!r}\n', "utf-8")
    (tmp_path / "forms.py").write_text(
        'FORMS = {"g.n": ("n", {"en": "{n} card", "de": "{n} Karte", "fr": "{n} carte"})}\n', "utf-8")
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "catalog_to_po.py"), f"{folder / 'messages.py'}:MESSAGES",
                          str(folder / "locale"), "--domain", "mygame", "--forms", f"{tmp_path / 'forms.py'}:FORMS",
                          "--replace-module"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    assert (folder / "locale" / "fr" / "LC_MESSAGES" / "mygame.po").is_file()
    spec = importlib.util.spec_from_file_location("mygame_messages", folder / "messages.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert "load_catalog" in (folder / "messages.py").read_text("utf-8")
    assert {lang: {k: str(v) for k, v in texts.items()} for lang, texts in mod.MESSAGES.items()} == src
    n = mod.MESSAGES["fr"]["g.n"]
    assert [n.form(k).format(n=k) for k in (0, 1, 2)] == ["0 carte", "1 carte", "2 cartes"]


def test_an_untranslated_or_fuzzy_entry_is_found(tmp_path):
    from companion.i18n.po import write_catalog

    write_catalog({"en": {"a": "A", "b": "B"}, "fr": {"a": "", "b": "Bé"}}, tmp_path, "t")
    po = tmp_path / "fr" / "LC_MESSAGES" / "t.po"
    po.write_text(po.read_text("utf-8").replace('msgid "b"', '#, fuzzy\nmsgid "b"'), "utf-8")
    cat = load_catalog(tmp_path)
    assert "b" not in cat["fr"]  # fuzzy: left out, as msgfmt does
    found = problems(cat)
    assert any("keys differ" in p for p in found) and any("fr/a: not translated" in p for p in found)


@pytest.mark.skipif(not __import__("shutil").which("msgfmt"), reason="GNU gettext's msgfmt not installed")
def test_gnu_msgfmt_accepts_the_po_files():
    """What Poedit and other gettext tools run on save: `msgfmt -c` (syntax, header, formats)."""
    import subprocess

    for po in sorted(i18n.LOCALE_DIR.glob("*/LC_MESSAGES/*.po")):
        out = subprocess.run(["msgfmt", "-c", "-o", "/dev/null", str(po)], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0 and not out.stderr.strip(), (po, out.stderr)


def test_plural_forms_are_chosen_by_babels_translations_of_the_file(tmp_path):
    """The form comes from Babel's catalog API – the .po compiled (write_mo) into a
    babel.support.Translations, its ngettext – by the file's own Plural-Forms header (here the old
    French rule, n > 1, where 0 takes the singular too but a million is plain plural)."""
    from babel.support import Translations

    d = tmp_path / "fr" / "LC_MESSAGES"
    d.mkdir(parents=True)
    (d / "x.po").write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
                            '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
                            'msgid "g.cards"\nmsgid_plural "n"\nmsgstr[0] "{n} carte"\nmsgstr[1] "{n} cartes"\n',
                            "utf-8")
    p = load_catalog(tmp_path)["fr"]["g.cards"]
    assert isinstance(p, Plural) and isinstance(p.translations, Translations)
    assert [p.form(n) for n in (0, 1, 2, 1_000_000)] == ["{n} carte", "{n} carte", "{n} cartes", "{n} cartes"]
    assert p.form(2) == p.translations.ngettext("g.cards", "n", 2)


def test_every_text_a_screen_draws_has_its_glyphs_in_the_bundled_font():
    """Flutter draws the screens with the client's Roboto; a character it lacks is an empty box
    offline (the history page's "Cy → Cyrus" showed one: Roboto has no arrows). Every message in
    every language – but the printed ones (print.*, drawn into the PDF with DejaVu) – uses only
    characters Roboto has."""
    import flet_web
    from fontTools.ttLib import TTFont

    font = Path(flet_web.__file__).parent / "web" / "assets" / "fonts" / "roboto.woff2"
    has = TTFont(str(font)).getBestCmap()
    missing = []
    for name, cat in CATALOGS.items():
        for lang in i18n.LANGS:
            for key, text in cat.get(lang, {}).items():
                if key.startswith("print.") or ".print." in key:
                    continue
                for form in (text.forms if isinstance(text, Plural) else (text,)):
                    bad = sorted({c for c in form if ord(c) >= 0x20 and ord(c) not in has})
                    if bad:
                        missing.append((name, lang, key, "".join(bad)))
    assert not missing, missing


def test_french_punctuation_is_held_to_its_word():
    """French sets a space before : ; ? ! » and after «. A plain space lets a phone's line break
    there, leaving the colon alone at the start of the next line ("…touchez votre place / :" on a
    412 px phone); every French message uses a no-break space (U+00A0, which Roboto has)."""
    loose = []
    for name, cat in CATALOGS.items():
        for key, text in cat["fr"].items():
            for form in (text.forms if isinstance(text, Plural) else (text,)):
                if re.search(r" [:;?!»]|« ", form):
                    loose.append((name, key, form[:60]))
    assert not loose, loose


@pytest.mark.parametrize("env, lang", [
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LC_MESSAGES": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"}, "fr"),
    ({"LC_ALL": "de_CH.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8", "LANG": "en_GB.UTF-8"}, "de"),
    ({"LANG": "C"}, "en"),
    ({}, "en"),
])
def test_the_command_lines_language_follows_the_locale_in_posix_order(monkeypatch: pytest.MonkeyPatch,
                                                                      env: dict[str, str], lang: str) -> None:
    """`companion print` and `companion history` (without --lang) read the locale the same way: $LC_ALL,
    else $LC_MESSAGES, else $LANG (history skipped $LC_MESSAGES)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert i18n.environment_lang() == lang
