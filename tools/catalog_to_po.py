"""Turn a `{lang: {key: text}}` message dict into gettext .po files (one per language), with
plural entries for the messages that show a count.

    .venv/bin/python tools/catalog_to_po.py MODULE:ATTR OUT_DIR [--domain NAME] [--forms MODULE:ATTR]

    # the platform catalog (how companion/i18n/locale/ was made from the old companion/i18n/core.py,
    # git show 5b091e4:companion/i18n/core.py > /tmp/core.py):
    .venv/bin/python tools/catalog_to_po.py /tmp/core.py:MESSAGES companion/i18n/locale \
        --domain companion --forms tools.plural_forms:CORE
    # a game's catalog, into its folder:
    .venv/bin/python tools/catalog_to_po.py companion.games.lutece.messages:MESSAGES \
        companion/games/lutece/locale --domain lutece --forms tools.plural_forms:GAMES.lutece

Writes OUT_DIR/<lang>/LC_MESSAGES/<domain>.po for every language of the dict; msgid = the key,
msgstr = the text, in the dict's order, no line wrapping, dates from SOURCE_DATE_EPOCH (0 if
unset) so that a re-run gives the same files. `--forms` names a `{key: (count, {lang: forms})}`
dict (see tools/plural_forms.py): those keys become plural entries (msgid_plural "<count>",
msgstr[0..] in the language's gettext order, the last form being the dict's text). Every other
message whose English text looks like it shows a count (`companion.i18n.po.count_candidates`:
`{n} cards`, `{n} of {total} have`, `card(s)`) is listed on stderr, for a person to decide, and
so is a key of `--forms` the dict does not have (skipped). Read the files back with
`companion.i18n.load_catalog(OUT_DIR)`; `--replace-module` then rewrites the source module (a
game's messages.py) as that one line, `MESSAGES = load_catalog(Path(__file__)... / "locale")`.

All games, once each lives in companion/games/<id>/ with its messages.py:

    for g in lutece lutetia quovadis sealed_vote; do
      .venv/bin/python tools/catalog_to_po.py companion.games.$g.messages:MESSAGES \
          companion/games/$g/locale --domain $g --forms tools.plural_forms:GAMES.$g --replace-module
    done
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
    for part in attr.split("."):  # ATTR.KEY looks into a dict: tools.plural_forms:GAMES.lutece
        obj = obj[part] if isinstance(obj, dict) else getattr(obj, part)
    return obj


def convert(messages, out_dir, domain, forms=None, warn=print) -> list[Path]:
    """Write the .po files; return their paths. `warn` gets the notes for a person."""
    forms = forms or {}
    en = messages.get("en") or next(iter(messages.values()))
    unknown = sorted(k for k in forms if k not in en)
    if unknown:  # e.g. texts moved to another catalog since: their forms go with them
        warn(f"note: --forms names keys this catalog does not have (skipped): {unknown}")
        forms = {k: v for k, v in forms.items() if k in en}
    for key, text in en.items():
        if key not in forms:
            for c in count_candidates(str(text)):
                warn(f"note: {key} may show a count in {{{c}}} (no plural forms given): {text}")
    catalog = as_plurals(messages, forms)
    for p in problems(catalog):
        warn(f"warning: {p}")
    return write_catalog(catalog, out_dir, domain)


STUB = '''"""The {domain} message catalog (en/de/fr): gettext .po files in {rel}/<lang>/LC_MESSAGES/{domain}.po.

Made by tools/catalog_to_po.py from the dict this module held; edit the .po files (msgid = the key
in the code, see companion/i18n/po.py).
"""

from __future__ import annotations

from pathlib import Path

from companion.i18n import load_catalog

{attr} = load_catalog(Path(__file__).resolve().parent / "{rel}")
'''


def replace_module(spec: str, out_dir: Path, domain: str) -> Path:
    """Rewrite the source module as a stub that loads `out_dir` (which must be inside its folder)."""
    module, _, attr = spec.rpartition(":")
    if module.endswith(".py"):
        path = Path(module).resolve()
    else:
        path = Path(importlib.import_module(module).__file__ or "").resolve()
    try:
        rel = out_dir.resolve().relative_to(path.parent).as_posix()
    except ValueError:
        raise SystemExit(f"--replace-module: {out_dir} is not inside {path.parent}") from None
    path.write_text(STUB.format(rel=rel, domain=domain, attr=attr.split(".")[-1]), "utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", help="MODULE:ATTR or FILE.py:ATTR of a {lang: {key: text}} dict")
    ap.add_argument("out_dir", type=Path, help="the locale directory to write (<lang>/LC_MESSAGES/<domain>.po)")
    ap.add_argument("--domain", default="messages", help="the .po file's name (default messages)")
    ap.add_argument("--forms", help="MODULE:ATTR of {key: (count, {lang: forms})} for the plural entries")
    ap.add_argument("--replace-module", action="store_true",
                    help="then rewrite the source module as `ATTR = load_catalog(<its folder>/OUT_DIR)`")
    a = ap.parse_args(argv)
    paths = convert(load(a.source), a.out_dir, a.domain, load(a.forms) if a.forms else None,
                    warn=lambda s: print(s, file=sys.stderr))
    for p in paths:
        print(p)
    if a.replace_module:
        print(replace_module(a.source, a.out_dir, a.domain))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
