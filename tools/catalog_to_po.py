"""Turn a `{lang: {key: text}}` message dict into gettext .po files (one per language), with
plural entries for the messages that show a count.

    .venv/bin/python tools/catalog_to_po.py MODULE:ATTR OUT_DIR [--domain NAME] [--forms MODULE:ATTR]

    # the platform catalog (how companion/i18n/locale/ was made from the old companion/i18n/core.py,
    # git show 5b091e4:companion/i18n/core.py > /tmp/core.py):
    .venv/bin/python tools/catalog_to_po.py /tmp/core.py:MESSAGES companion/i18n/locale \
        --domain companion --forms tools.plural_forms:CORE
    # a game's catalog, into its folder:
    .venv/bin/python tools/catalog_to_po.py companion.games.lutece.messages:MESSAGES \
        companion/games/lutece/locale --domain lutece --forms tools.plural_forms:LUTECE

Writes OUT_DIR/<lang>/LC_MESSAGES/<domain>.po for every language of the dict; msgid = the key,
msgstr = the text, in the dict's order, no line wrapping, dates from SOURCE_DATE_EPOCH (0 if
unset) so that a re-run gives the same files. `--forms` names a `{key: (count, {lang: forms})}`
dict (see tools/plural_forms.py): those keys become plural entries (msgid_plural "{count}",
msgstr[0..] in the language's gettext order, the last form being the dict's text). Every other
message whose English text looks like it shows a count (`companion.i18n.po.count_candidates`:
`{n} cards`, `{n} of {total} have`, `card(s)`) is listed on stderr, for a person to decide; a
key of `--forms` the dict does not have is an error. Read the files back with
`companion.i18n.po.load_catalog(OUT_DIR)`; a game module then needs only
`MESSAGES = load_catalog(Path(__file__).parent / "locale")`.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.i18n.po import as_plurals, count_candidates, problems, write_catalog  # noqa: E402


def load(spec: str):
    """`package.module:ATTR` or `path/to/file.py:ATTR` (a file need not be importable: an old
    version taken out of git, e.g. `git show hgames:companion/i18n/core.py > /tmp/core.py`)."""
    module, _, attr = spec.rpartition(":")
    if not module or not attr:
        raise SystemExit(f"{spec!r}: give MODULE:ATTRIBUTE, e.g. companion.games.lutece.messages:MESSAGES")
    if module.endswith(".py"):
        loader = importlib.util.spec_from_file_location(Path(module).stem, module)
        if loader is None or loader.loader is None:
            raise SystemExit(f"{module}: cannot be read as Python")
        obj = importlib.util.module_from_spec(loader)
        loader.loader.exec_module(obj)
    else:
        obj = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def convert(messages, out_dir, domain, forms=None, warn=print) -> list[Path]:
    """Write the .po files; return their paths. `warn` gets the notes for a person."""
    forms = forms or {}
    en = messages.get("en") or next(iter(messages.values()))
    unknown = sorted(k for k in forms if k not in en)
    if unknown:
        raise SystemExit(f"--forms names keys the catalog does not have: {unknown}")
    for key, text in en.items():
        if key not in forms:
            for c in count_candidates(str(text)):
                warn(f"note: {key} may show a count in {{{c}}} (no plural forms given): {text}")
    catalog = as_plurals(messages, forms)
    for p in problems(catalog):
        warn(f"warning: {p}")
    return write_catalog(catalog, out_dir, domain)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", help="MODULE:ATTR or FILE.py:ATTR of a {lang: {key: text}} dict")
    ap.add_argument("out_dir", type=Path, help="the locale directory to write (<lang>/LC_MESSAGES/<domain>.po)")
    ap.add_argument("--domain", default="messages", help="the .po file's name (default messages)")
    ap.add_argument("--forms", help="MODULE:ATTR of {key: (count, {lang: forms})} for the plural entries")
    a = ap.parse_args(argv)
    paths = convert(load(a.source), a.out_dir, a.domain, load(a.forms) if a.forms else None,
                    warn=lambda s: print(s, file=sys.stderr))
    for p in paths:
        print(p)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
