"""Message catalogs as gettext `.po` files, read with Babel; plural forms by the CLDR rules.

A catalog directory holds one folder per language, in gettext's layout:

    <dir>/en/LC_MESSAGES/<domain>.po     (de, fr alike; every .po in the folder is read)

Each entry's msgid is the message key the code uses (`t(lang, "tbl.err.name_long", max=24)`),
its msgstr the text with `str.format` placeholders. A message that shows a count is a gettext
plural entry: msgid is the key, msgid_plural the name of the count's placeholder ("seconds": a
bare name, not "{seconds}", so that `msgfmt -c` does not take it for a format string the
translations must match), and msgstr[0..] are the language's forms in gettext order, as the
`Plural-Forms` line of the file's header says (written from Babel's CLDR rules: English and German two forms, `n != 1`; French
three – "one" for 0 and 1, "many" for whole millions, "other"). For example, in
fr/LC_MESSAGES/companion.po:

    msgid "tbl.err.too_many_guesses"
    msgid_plural "seconds"
    msgstr[0] "Trop de codes erronés. Attendez {seconds} seconde."
    msgstr[1] "Trop de codes erronés. Attendez {seconds} secondes."
    msgstr[2] "Trop de codes erronés. Attendez {seconds} secondes."

The form is chosen by the file's own header, so a .po file keeps working with another Babel
version. A translator edits msgstr only (Poedit, Weblate); the keys and msgid_plural stay.

`load_catalog(dir)` returns `{lang: {key: text}}` where a plural entry's text is a `Plural`: a
`str` (the last, "many" form – the text the catalog had before plural forms, so code that only
reads texts sees no change) that also carries `count` (the placeholder's name) and `forms`.
`companion.i18n.t` picks the form for the count's value through Babel's catalog API: each .po file
is compiled as msgfmt would (`write_mo`) into a `babel.support.Translations`, and the form is its
`ngettext(key, count, n)` – gettext's own choice by the file's Plural-Forms header.
"""

from __future__ import annotations

import io
import re
import string
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel.core import negotiate_locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural
from babel.support import Translations

Texts = dict[str, str]  # key -> text (a Plural for a plural entry)


class Plural(str):
    """A message with plural forms: the str value is the last form; `form(n)` picks one.

    `rule` is the language's (number of forms, gettext plural expression): the one in the .po
    file's header when read from a file, else Babel's (CLDR) for the language. The form is chosen
    by Babel's `Translations` of the entry's catalog (`ngettext`): the file's when read from one,
    else a catalog of this one entry under `rule`."""

    count: str
    forms: tuple[str, ...]
    rule: tuple[int, str]
    key: str
    translations: Any

    def __new__(cls, count: str, forms: Iterable[str], rule: tuple[int, str], key: str = "",
                translations: Any = None) -> Plural:
        forms = tuple(forms)
        self = super().__new__(cls, forms[-1])
        self.count = count
        self.forms = forms
        self.rule = (int(rule[0]), rule[1])
        self.key = key or forms[-1]
        if translations is None:
            one = Catalog(fuzzy=False)
            one.mime_headers = [("Plural-Forms", f"nplurals={self.rule[0]}; plural={self.rule[1]};")]
            one.add((self.key, count), forms)
            translations = compiled(one)
        self.translations = translations
        return self

    def form(self, n: object) -> str:
        """The form for the count `n` (an int or a string of digits); the last form otherwise."""
        if isinstance(n, str) and n.strip().lstrip("+-").isdigit():
            n = int(n)
        if isinstance(n, bool) or not isinstance(n, int):
            return self.forms[-1]
        got = self.translations.ngettext(self.key, self.count, abs(n))  # CLDR's operand n is |n|
        return got if got in self.forms else self.forms[-1]  # (a file with too few forms: problems())

    def __reduce__(self):  # pickling/copying keeps the forms
        return (Plural, (self.count, self.forms, self.rule, self.key))


def compiled(cat: Catalog) -> Translations:
    """A catalog as Babel's Translations, compiled as msgfmt would (fuzzy entries left out)."""
    buf = io.BytesIO()
    write_mo(buf, cat)
    buf.seek(0)
    return Translations(buf)


@cache
def plural_rule(lang: str) -> tuple[int, str]:
    """(number of forms, gettext plural expression) for `lang`, from Babel (CLDR)."""
    p = get_plural(lang)
    return p.num_plurals, p.plural_expr


def negotiate(preferred: Iterable[str], available: Iterable[str]) -> str | None:
    """The best of `available` ('en', 'de', ...) for the preferred locales ('de-CH', 'fr_FR', ...),
    by Babel's negotiation; None if none fits. Case and '-'/'_' do not matter."""
    avail = [a.lower() for a in available]
    want = [p.strip().replace("_", "-") for p in preferred if isinstance(p, str) and p.strip()]
    got = negotiate_locale(want, avail, sep="-")
    if got is None:
        return None
    got = got.split("-")[0].lower()
    return got if got in avail else None


def load_catalog(directory: str | Path) -> dict[str, Texts]:
    """Every `<directory>/<lang>/LC_MESSAGES/*.po` as {lang: {key: text or Plural}}."""
    from babel.messages.pofile import read_po

    out: dict[str, Texts] = {}
    root = Path(directory)
    for lang_dir in sorted(p for p in root.iterdir() if (p / "LC_MESSAGES").is_dir()):
        lang = lang_dir.name
        texts = out.setdefault(lang, {})
        for po in sorted((lang_dir / "LC_MESSAGES").glob("*.po")):
            with po.open("rb") as f:
                cat = read_po(f, locale=lang)
            rule = (cat.num_plurals, cat.plural_expr)  # the file's Plural-Forms header
            translations = compiled(cat)
            for msg in cat:
                if not msg.id or msg.fuzzy:
                    continue  # the header; an entry marked fuzzy waits for review (as msgfmt leaves it out)
                if isinstance(msg.id, tuple):
                    key, plural_id = msg.id
                    texts[key] = Plural(plural_id.strip().strip("{}"), msg.string, rule, key,  # "n" (or "{n}")
                                        translations)
                else:
                    texts[msg.id] = msg.string
    return out


# --- writing (tools/catalog_to_po.py) and the checks shared with tests/test_i18n.py ----------------

# Placeholders that name things, never a count (a hint list for `count_candidates`).
_NOT_COUNTS = {"name", "names", "player", "to_player", "slot", "card", "card1", "card2", "title", "game",
               "code", "path", "reason", "file", "what", "paper", "edge", "colour", "res", "others", "first",
               "last", "node", "space", "url", "text", "chip", "phase", "option", "size", "value", "a", "b",
               "x", "y", "lo", "hi", "rank", "pos", "m", "plan", "most", "fewest", "cards"}


def fields(text: str) -> set[str]:
    """The `str.format` placeholders of a text."""
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def count_candidates(text: str) -> list[str]:
    """Placeholders that look like a count in an English text: `{n} cards`, `{seconds} seconds`,
    `{n} of {total} have`, `card(s)` – a hint for a person, who decides (tools/catalog_to_po.py)."""
    out = []
    for f in sorted(fields(text)):
        if f in _NOT_COUNTS:
            continue
        if re.search(r"\{" + re.escape(f) + r"\}\s+(?:×\s*)?[^\W\d_]", text) or (
                "(s)" in text and "{" + f + "}" in text):
            out.append(f)
    return out


def as_plurals(messages: Mapping[str, Mapping[str, str]],
               forms: Mapping[str, tuple[str, Mapping[str, Iterable[str] | str]]]) -> dict[str, Texts]:
    """`messages` ({lang: {key: text}}) with the keys of `forms` made plural entries.

    `forms[key] = (count, {lang: forms})`: the placeholder that holds the count, and per language
    either one string, the singular (CLDR "one"; the catalog's text is then "other"), or a tuple
    of forms in gettext order whose last is "other". Forms not given (French "many", for millions)
    are "other". A language left out gets its text for every form. The rule is Babel's."""
    out: dict[str, Texts] = {lang: dict(texts) for lang, texts in messages.items()}
    for key, (count, per_lang) in forms.items():
        for lang, texts in out.items():
            if key not in texts:
                continue
            last = str(texts[key])
            rule = plural_rule(lang)
            given = per_lang.get(lang, ())
            given = [given] if isinstance(given, str) else list(given)
            # one form given: the singular, the catalog's text is "other"; several: the last is "other"
            head, other = (given[:-1], given[-1]) if len(given) >= 2 else (given, last)
            n = rule[0]
            texts[key] = Plural(count, [*(head + [other] * n)[: n - 1], other], rule, key)
    return out


def write_catalog(messages: Mapping[str, Mapping[str, str]], directory: str | Path, domain: str,
                  project: str = "Tabletop Companion") -> list[Path]:
    """Write {lang: {key: text or Plural}} as `<directory>/<lang>/LC_MESSAGES/<domain>.po`."""
    import datetime as dt
    import os

    from babel.messages.pofile import write_po

    when = dt.datetime.fromtimestamp(int(os.environ.get("SOURCE_DATE_EPOCH", "0")), dt.UTC)
    written = []
    for lang, texts in messages.items():
        cat = Catalog(locale=lang, domain=domain, project=project, version="1", fuzzy=False,
                      creation_date=when, revision_date=when, language_team=f"{lang} <none>",
                      last_translator="tools/catalog_to_po.py", copyright_holder=project,
                      header_comment=f"# {project}: messages in {lang}. msgid = the key in the code; "
                                     "msgid_plural names the count's placeholder (companion/i18n/po.py).\n")
        for key, text in texts.items():
            if isinstance(text, Plural):
                cat.add((key, text.count), text.forms)  # msgid_plural: the count's name
            else:
                cat.add(key, text)
        path = Path(directory) / lang / "LC_MESSAGES" / f"{domain}.po"
        path.parent.mkdir(parents=True, exist_ok=True)
        buf = io.BytesIO()
        write_po(buf, cat, width=0, omit_header=False, sort_output=False)
        path.write_bytes(buf.getvalue().rstrip(b"\n") + b"\n")  # no blank line at the end
        written.append(path)
    return written


def problems(catalog: Mapping[str, Mapping[str, str]], ref: str = "en") -> list[str]:
    """What makes a catalog incomplete: a key missing in a language (or left fuzzy in its .po), an
    empty text, different placeholders, a plural entry whose number of forms is not its rule's, or
    whose count differs from `ref`'s."""
    out = []
    base = catalog[ref]
    for lang, texts in catalog.items():
        if set(texts) != set(base):
            out.append(f"{lang}: keys differ from {ref}: {sorted(set(texts) ^ set(base))}")
        for key, text in texts.items():
            if key not in base:
                continue
            want = fields(base[key])
            if not all(getattr(text, "forms", (text,))):
                out.append(f"{lang}/{key}: not translated (an empty msgstr)")
            for form in getattr(text, "forms", (text,)):
                if fields(form) != want:
                    out.append(f"{lang}/{key}: placeholders {sorted(fields(form))} != {sorted(want)}")
            if isinstance(text, Plural) or isinstance(base[key], Plural):
                if not (isinstance(text, Plural) and isinstance(base[key], Plural)):
                    out.append(f"{lang}/{key}: plural in one language, not in the other")
                    continue
                if len(text.forms) != text.rule[0]:
                    out.append(f"{lang}/{key}: {len(text.forms)} forms, its rule has {text.rule[0]}")
                if text.count != base[key].count or text.count not in want:
                    out.append(f"{lang}/{key}: counts {{{text.count}}} (placeholders {sorted(want)})")
    return out
