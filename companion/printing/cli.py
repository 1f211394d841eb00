"""`companion print ...`: PDFs of card sheets, boards, join cards and the registration page.

    companion print GAME [--deck NAME] [--paper a4|letter] [--card poker] [--bleed 3mm]
                         [--backs duplex-long|duplex-short|fold|none] [--dpi 300]
                         [--orientation portrait|landscape] [--offset X,Y] [--copies N] [--lang en|de|fr]
                         [the game's own options, e.g. --mod-deck 12,12,12] -o FILE.pdf
    companion print --all            regenerate printables/ (A4 + Letter, English) and docs/print-*.png
    companion print --registration   duplex offset test page
    companion print --join CODE URL  a sheet of join cards for a table
    companion print --list           games and decks

--lang: the language of the texts printed on cards and sheets (default en) and of the command's
messages (without it: from $LC_ALL / $LC_MESSAGES / $LANG, as `companion history`). A mistake is one
line on stderr in that language (keys pcli.* of the platform catalog). A game's own print options
come from its printing module (`OPTIONS`, companion/printing/decks.py: `options(game)`).
"""

from __future__ import annotations

import argparse
import errno
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from companion import i18n
from companion.i18n import LANGS
from companion.printing import api, printables
from companion.printing import decks as D
from companion.printing.layout import BACKS, CARD_PRESETS, PAPERS
from companion.printing.units import KeyedError


class CliError(KeyedError):
    """A mistake on the command line (exit 2), said in the user's language (units.KeyedError)."""


class OutputError(CliError):
    """The PDF cannot be written where asked (said before rendering when it can be known)."""


def message_lang(argv: list[str]) -> str:
    """The language of the messages: --lang when given (and known), else the locale's."""
    for i, arg in enumerate(argv):
        value = arg.split("=", 1)[1] if arg.startswith("--lang=") else argv[i + 1] if arg == "--lang" and \
            i + 1 < len(argv) else None
        if value in LANGS:
            return value
    return i18n.environment_lang()


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line that says what to do (not the whole usage), in the
    messages' language (`lang`)."""

    lang = "en"

    def error(self, message: str) -> NoReturn:
        m = re.match(r"argument (\S+?)(?:/\S+)?: invalid choice: (.+?) \(choose from (.+)\)$", message)
        n = re.match(r"argument (\S+?)(?:/\S+)?: invalid int value: (.+)$", message)
        if m:
            choices = ", ".join(c.strip().strip("'") for c in m.group(3).split(","))
            message = i18n.t(self.lang, "pcli.choice", flag=m.group(1), choices=choices, value=m.group(2))
        elif n:
            message = i18n.t(self.lang, "pcli.int", flag=n.group(1), value=n.group(2))
        self.exit(2, f"{self.prog}: {i18n.t(self.lang, 'pcli.see_help', message=message, prog=self.prog)}\n")


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="companion print", description="Print-and-play PDFs (cards, boards, chips).")
    p.add_argument("game", nargs="?", help=f"one of {', '.join(D.GAMES)}")
    p.add_argument("--deck", help="one deck or board of the game (default: all); see --list")
    p.add_argument("--paper", default="a4", choices=sorted(PAPERS))
    p.add_argument("--orientation", choices=["portrait", "landscape"], help="default: whichever fits more")
    p.add_argument("--card", help=f"{', '.join(CARD_PRESETS)} or a size like 63x88mm, 2.5x3.5in "
                                  "(default: each deck's own size)")
    p.add_argument("--bleed", default=None, help="default 3mm (chips 1.5mm)")
    p.add_argument("--margin", default=None, help="minimum paper margin, default 4mm")
    p.add_argument("--gap", default=None, help="space between cards, default 0mm (chips 4mm)")
    p.add_argument("--backs", default="duplex-long", choices=BACKS)
    p.add_argument("--dpi", type=int, default=300)
    p.add_argument("--offset", help="duplex correction X,Y in mm for back pages (see --registration)")
    p.add_argument("--copies", type=int, default=1, help="print every card this many times")
    for name, (text, games) in game_options().items():  # each game's own print options
        p.add_argument("--" + name.replace("_", "-"), dest=name, help=f"{', '.join(games)}: {text}")
    p.add_argument("--format", dest="image_format", default="indexed", choices=["indexed", "jpeg"],
                   help="page images: indexed colour (crisp, small; default) or jpeg (--quality)")
    p.add_argument("--quality", type=int, default=85, help="JPEG quality with --format jpeg (default 85)")
    p.add_argument("--optimize", action="store_true", help="smaller JPEG pages (about 15 %%), a bit slower")
    p.add_argument("--no-crop-marks", action="store_true")
    p.add_argument("--ink-saver", action="store_true",
                   help="light tints and outlines instead of full-colour frames, backs, chips and track "
                        "(about half the ink on every page)")
    p.add_argument("--workers", type=int, help="render processes (default: CPU count, max 4)")
    p.add_argument("-o", "--output", help="output PDF, a name ending in .pdf (default: GAME[-DECK]-PAPER.pdf)")
    p.add_argument("--force", action="store_true", help="replace the output file if it exists")
    p.add_argument("--all", action="store_true", help="regenerate printables/ and docs/print-*.png")
    p.add_argument("--check", action="store_true", help="with --all: only report whether printables/ is stale")
    p.add_argument("--registration", action="store_true", help="the duplex registration test page")
    p.add_argument("--join", nargs=2, metavar=("CODE", "URL"), help="a sheet of join cards")
    p.add_argument("--list", action="store_true", help="list games and decks")
    p.add_argument("--lang", default=None, choices=LANGS,
                   help="language of the printed texts (default en) and of the messages (default: from $LANG)")
    return p


def game_options() -> dict[str, tuple[str, list[str]]]:
    """The print options games declare (decks.options): {name: (help, [games that take it])}."""
    out: dict[str, tuple[str, list[str]]] = {}
    for g in D.GAMES:
        for name, text in D.options(g).items():
            out.setdefault(name, (text, []))[1].append(g)
    return out


def _game_options(a: argparse.Namespace, game: str) -> dict[str, str]:
    """The game's own options given on the command line; one given that the game does not take: ValueError."""
    given = {name: getattr(a, name) for name in game_options() if getattr(a, name, None) is not None}
    own = D.options(game)
    other = [name for name in given if name not in own]
    if other:
        flags = ", ".join("--" + n.replace("_", "-") for n in other)
        if own:
            raise CliError("pcli.not_option_own", flags=flags, game=game,
                           own=", ".join("--" + n.replace("_", "-") for n in own))
        raise CliError("pcli.not_option", flags=flags, game=game)
    return given


def _progress(label: str) -> Callable[[int, int], None]:
    tty = sys.stderr.isatty()

    def show(done: int, total: int) -> None:
        bar = "#" * (20 * done // total)
        end = "\n" if done == total else ""
        if tty:
            print(f"\r{label}: [{bar:<20}] {done}/{total} pages", end=end, file=sys.stderr, flush=True)
        elif done == total or done % 5 == 0:
            print(f"{label}: {done}/{total} pages", file=sys.stderr, flush=True)
    return show


def _suffix(lang: str) -> str:
    return "" if lang == "en" else f"-{lang}"


def main(argv: list[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["print"]:
        args_list = args_list[1:]
    lang = message_lang(args_list)
    p = parser()
    p.lang = lang  # type: ignore[attr-defined]
    try:
        a = p.parse_args(args_list)
    except SystemExit as e:  # --help or a usage error: return its code, the caller decides
        return int(e.code or 0) if not isinstance(e.code, str) else 2
    a.lang = a.lang or "en"  # (the printed texts: English unless asked)
    try:
        _check_args(a)
        return _run(a, p, lang)
    except OutputError as e:
        print(f"companion print: {e.text(lang)}", file=sys.stderr)
        return 1
    except (ValueError, TypeError) as e:
        print(f"companion print: {_said(e, lang)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: the workers ignore it and stop; the target file is untouched
        start = "\n" if sys.stderr.isatty() else ""  # end a progress bar's line
        print(f"{start}companion print: {i18n.t(lang, 'pcli.interrupted_all' if a.all else 'pcli.interrupted')}",
              file=sys.stderr)
        return 130


def _said(e: Exception, lang: str) -> str:
    """A refusal from the printing modules: in the messages' language where it is keyed
    (units.KeyedError), else as it is."""
    return e.text(lang) if isinstance(e, KeyedError) else str(e)


def _check_args(a: argparse.Namespace) -> None:
    """Refuse values that make no sense, before any rendering (ValueError -> exit 2)."""
    if not 1 <= a.quality <= 100:
        raise CliError("pcli.quality", value=a.quality)
    if a.copies < 1:
        raise CliError("pcli.copies", value=a.copies)
    if a.workers is not None and a.workers < 1:
        raise CliError("pcli.workers", value=a.workers)
    if not 50 <= a.dpi <= 1200:
        raise CliError("pcli.dpi", value=a.dpi)
    if a.join is not None and (not a.join[0].strip() or not a.join[1].strip()):
        raise CliError("pcli.join")
    if a.offset is not None:
        from companion.printing.layout import parse_offset
        parse_offset(a.offset)


def check_output(out: str, force: bool = False) -> Path:
    """The output file's path, checked before rendering: not a directory, a name ending in .pdf, its
    folder exists and is writable, and no file there already unless `force`. Raises OutputError with
    a one-line reason."""
    path = Path(out).expanduser()
    if str(out).endswith(("/", os.sep)) or path.is_dir():
        raise OutputError("pcli.out_dir", out=out, example=path / "cards.pdf")
    if path.suffix.lower() != ".pdf":
        raise OutputError("pcli.out_pdf", out=out,
                          example=path.with_suffix(".pdf") if path.suffix else path.name + ".pdf")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise OutputError("pcli.no_folder", folder=parent)
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError("pcli.no_write_dir", folder=parent)
    if path.exists() and not force:
        raise OutputError("pcli.exists", path=path)
    if path.exists() and not os.access(path, os.W_OK):
        raise OutputError("pcli.no_overwrite", path=path)
    return path


def write_atomic(path: Path, data: bytes, lang: str = "en") -> None:
    """Write to a temporary file beside `path`, flush it to disk, then rename: `path` is either the
    old file or the whole new one, never a truncated PDF. Raises OutputError on a write error."""
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        tmp = None
    except OSError as e:
        reason = i18n.t(lang, "pcli.disk_full") if e.errno in (errno.ENOSPC, errno.EDQUOT) else (e.strerror or str(e))
        raise OutputError("pcli.write_failed", path=path, reason=reason) from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _run(a: argparse.Namespace, p: argparse.ArgumentParser, lang: str = "en") -> int:
    if a.list:
        for g in D.GAMES:
            print(f"{g}: " + ", ".join(f"{i.name} ({i.count() if isinstance(i, D.Deck) else 'board'})"
                                       for i in D.game_items(g)))
        return 0
    if a.all:
        if a.lang != "en":
            print(f"companion print: {i18n.t(lang, 'pcli.all_lang')}", file=sys.stderr)
            return 2
        if not printables.in_checkout():
            print(f"companion print: {i18n.t(lang, 'pcli.all_installed')}", file=sys.stderr)
            return 2
        if a.check:
            problems = printables.stale()
            for line in problems:
                print(line, file=sys.stderr)
            print("printables/ is up to date" if not problems else "printables/ is stale: run companion print --all")
            return 1 if problems else 0
        t = time.perf_counter()
        printables.write_all(log=lambda s: print(s, file=sys.stderr), progress_for=_progress)
        printables.write_previews(log=lambda s: print(s, file=sys.stderr))
        print(f"printables regenerated in {time.perf_counter() - t:.1f} s", file=sys.stderr)
        return 0
    t = time.perf_counter()
    if a.registration:
        out = check_output(a.output or f"registration-{a.paper}{_suffix(a.lang)}.pdf", a.force)
        if not a.backs.startswith("duplex"):
            raise CliError("pcli.registration_duplex")
        pdf = api.registration_pdf(a.paper, a.backs, a.offset, a.dpi, a.quality, a.optimize, lang=a.lang,
                                   orientation=a.orientation, image_format=a.image_format)
    elif a.join:
        out = check_output(a.output or f"join-{a.join[0]}-{a.paper}{_suffix(a.lang)}.pdf", a.force)
        pdf = api.join_card_pdf(a.join[0], a.join[1], a.paper, a.dpi, lang=a.lang)
    elif a.game:
        game = D.game_id(a.game)
        own = _game_options(a, game)
        out = check_output(a.output or f"{game}{'-' + a.deck if a.deck else ''}-{a.paper}{_suffix(a.lang)}.pdf", a.force)
        api.select_items(game, a.deck, a.lang, **own)  # a wrong deck or option value: said before rendering
        pdf = api.render_pdf(
            game, a.deck, paper=a.paper, orientation=a.orientation, card=a.card, bleed=a.bleed, margin=a.margin,
            gap=a.gap, dpi=a.dpi, backs=a.backs, offset=a.offset, copies=a.copies,
            quality=a.quality, optimize=a.optimize, crop_marks=not a.no_crop_marks, workers=a.workers,
            progress=_progress(f"{game}{'/' + a.deck if a.deck else ''}"), lang=a.lang, ink_saver=a.ink_saver,
            image_format=a.image_format, **own,
        )
    else:
        p.print_usage(sys.stderr)
        print(f"companion print: {i18n.t(lang, 'pcli.nothing')}", file=sys.stderr)
        return 2
    write_atomic(out, pdf, lang)
    print(f"wrote {out} ({len(pdf) / 1e6:.1f} MB) in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
