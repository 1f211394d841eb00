"""`companion print --all`: the committed PDFs in printables/, their manifest, the previews.

The manifest records, per file, a recipe hash (options + the deck data + a hash of the
drawing code, fonts and English printed texts) and the file's own hash.
tests/test_printing_printables.py fails when either no longer matches: the printables are
stale and `companion print --all` must be run.

The committed files are English. `localized(name, lang, cache_dir)` renders the same file in
another language (for the host screen's download in the host's language) and keeps it in
`cache_dir`, named by the recipe, so a changed drawing code or text makes a new file.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from companion.i18n import LANGS, catalog
from companion.printing import api
from companion.printing import decks as D
from companion.printing.engine import paint
from companion.printing.fonts import FONT_DIR

MANIFEST = "MANIFEST.json"

# The source checkout around the package: `--all` writes its printables/ and docs/; the app serves
# the committed English files from there. An installed wheel has no checkout (in_checkout() is
# False): the app renders every download on demand into its cache instead (`localized`).
ROOT = Path(__file__).resolve().parents[2]
PRINTABLES = ROOT / "printables"
DOCS = ROOT / "docs"

PAPERS = ("a4", "letter")
# 300 dpi keeps the cards sharp; pages are indexed colour (PRINT_QUALITY only matters for --format jpeg):
# the whole set is about 10 MB
PRINT_DPI = 300
PRINT_QUALITY = 70
# the code that decides what a page looks like (not runner.py, cli.py: how, not what)
ENGINE_FILES = ("units.py", "layout.py", "pdf.py", "fonts.py", "art.py", "cards.py", "board.py", "decks.py",
                "engine.py", "api.py")
PREVIEW_DPI = 150


def in_checkout() -> bool:
    """Whether the package runs from a source checkout (with its printables/)."""
    return (ROOT / "pyproject.toml").is_file() and PRINTABLES.is_dir()


def specs() -> list[dict[str, Any]]:
    """Every committed PDF: one per game and paper (all decks, duplex long edge) + registration."""
    out = []
    for paper in PAPERS:
        for game in D.product_games():
            out.append({"file": f"{game}-{paper}.pdf", "game": game, "paper": paper, "backs": "duplex-long",
                        "dpi": PRINT_DPI, "quality": PRINT_QUALITY})
        out.append({"file": f"registration-{paper}.pdf", "game": None, "paper": paper, "backs": "duplex-long",
                    "dpi": PRINT_DPI, "quality": PRINT_QUALITY})
    return out


def texts(lang: str = "en") -> dict[str, str]:
    """The catalog texts printed on cards and sheets in `lang`: the platform's ("print.*") and each
    product game's own ("<id>.print.*", from its folder's catalog)."""
    heads = ("print.", *(f"{gid}.print." for gid in D.product_games()))
    return {k: v for k, v in sorted(catalog(lang).items()) if k.startswith(heads)}


def engine_hash() -> str:
    h = hashlib.sha256()
    h.update(json.dumps(texts("en"), sort_keys=True).encode())
    here = Path(__file__).resolve().parent
    for name in ENGINE_FILES:
        h.update(name.encode() + b"\0" + (here / name).read_bytes())
    for gid in D.product_games():  # each game's deck data and renderers (companion/games/<id>/printing.py)
        module = D.spec(gid).printing_module()
        h.update(gid.encode() + b"\0" + Path(module.__file__).read_bytes())
    for f in sorted(FONT_DIR.glob("*.ttf")):
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


def recipe_hash(spec: dict[str, Any], engine: str | None = None) -> str:
    data = repr(D.game_items(spec["game"])) if spec["game"] else "registration"
    payload = json.dumps({k: spec[k] for k in sorted(spec)}, sort_keys=True) + data + (engine or engine_hash())
    return hashlib.sha256(payload.encode()).hexdigest()


def build(spec: dict[str, Any], progress: Callable[[int, int], None] | None = None, lang: str = "en") -> bytes:
    if spec["game"] is None:
        return api.registration_pdf(spec["paper"], spec["backs"], dpi=spec["dpi"], quality=spec["quality"],
                                    optimize=True, lang=lang)
    return api.render_pdf(spec["game"], paper=spec["paper"], backs=spec["backs"], dpi=spec["dpi"],
                          quality=spec["quality"], optimize=True, progress=progress, lang=lang)


def spec_for(name: str) -> dict[str, Any] | None:
    """The spec of a committed file by its name without ".pdf" ("<game>-a4"), else None."""
    return next((s for s in specs() if s["file"] == f"{name}.pdf"), None)


@lru_cache(maxsize=1)
def _engine_once() -> str:
    return engine_hash()


def localized_name(name: str, lang: str) -> str:
    """Cache file name of `name` in `lang`: changes with the drawing code, the deck data, the texts."""
    spec = spec_for(name)
    if spec is None:
        raise ValueError(f"no printable called {name!r}")
    h = hashlib.sha256((recipe_hash(spec, _engine_once()) + json.dumps(texts(lang), sort_keys=True)).encode())
    return f"{name}-{lang}-{h.hexdigest()[:16]}.pdf"


def localized(name: str, lang: str, cache_dir: Path) -> bytes:
    """A committed printable ("<game>-a4") rendered with its texts in `lang` (same recipe), from
    `cache_dir` when it was made before. Slow the first time (seconds of CPU): call it off the
    event loop. English is the committed file itself (rendered and cached too where there is none:
    an installed wheel carries no printables/)."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {str(lang)[:20]!r}; choose one of {', '.join(LANGS)}")
    spec = spec_for(name)
    if spec is None:
        raise ValueError(f"no printable called {name!r}")
    committed = PRINTABLES / spec["file"]
    if lang == "en" and committed.is_file():
        return committed.read_bytes()
    path = cache_dir / localized_name(name, lang)
    try:
        return path.read_bytes()
    except OSError:
        pass
    pdf = build(spec, lang=lang)
    tmp = None
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=cache_dir, suffix=".part")
        with os.fdopen(fd, "wb") as f:
            f.write(pdf)
        os.replace(tmp, path)  # whole files only, also with two servers on one data dir
    except OSError:  # a cache that cannot be written only costs the next render
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
    return pdf


def write_all(out_dir: Path = PRINTABLES, log: Callable[[str], None] = print,
              progress_for: Callable[[str], Callable[[int, int], None] | None] | None = None) -> dict[str, Any]:
    out_dir.mkdir(parents=True, exist_ok=True)
    engine = engine_hash()
    manifest: dict[str, Any] = {"engine": engine, "files": {}}
    for spec in specs():
        t = time.perf_counter()
        pdf = build(spec, progress_for(spec["file"]) if progress_for else None)
        (out_dir / spec["file"]).write_bytes(pdf)
        manifest["files"][spec["file"]] = {
            "recipe": {k: v for k, v in spec.items() if k != "file"},
            "recipe_hash": recipe_hash(spec, engine),
            "sha256": hashlib.sha256(pdf).hexdigest(),
            "bytes": len(pdf),
        }
        log(f"{spec['file']}: {len(pdf) / 1e6:.1f} MB in {time.perf_counter() - t:.1f} s")
    (out_dir / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return manifest


def write_previews(docs: Path = DOCS, log: Callable[[str], None] = print) -> list[Path]:
    """docs/print-<game>-<deck>.png: the first page of every deck and board (A4, fronts), and the
    pages a game's printing module asks for (`PREVIEWS`: docs/print-<game>-<name>.png, e.g. its
    how-to-print sheet or a sheet of backs)."""
    docs.mkdir(parents=True, exist_ok=True)
    paths = []
    extra: dict[str, Any] = {}
    for game in D.product_games():
        for item in D.game_items(game):
            jobs = api.game_jobs(game, item.name, paper="a4", backs="duplex-long", dpi=PREVIEW_DPI)
            img = paint(jobs[0])
            path = docs / f"print-{game}-{item.name}.png"
            img.save(path, "PNG", optimize=True)
            paths.append(path)
            log(f"{path.relative_to(docs.parent)}")
        for name, (deck, page) in D.previews(game).items():
            extra[f"print-{game}-{name}.png"] = api.game_jobs(game, deck, paper="a4", backs="duplex-long",
                                                              dpi=PREVIEW_DPI)[page]
    for name, job in extra.items():
        path = docs / name
        paint(job).save(path, "PNG", optimize=True)
        paths.append(path)
        log(f"{path.relative_to(docs.parent)}")
    jobs = api.join_card_jobs("K7QX", "http://192.168.1.20:8550/t/K7QX", "a4", PREVIEW_DPI)
    path = docs / "print-join-card.png"
    paint(jobs[0]).save(path, "PNG", optimize=True)
    paths.append(path)
    return paths


def stale(out_dir: Path = PRINTABLES) -> list[str]:
    """Files that `companion print --all` would change (empty list = up to date)."""
    problems = []
    try:
        manifest = json.loads((out_dir / MANIFEST).read_text())
    except (OSError, ValueError):
        return [f"{MANIFEST} missing or unreadable"]
    engine = engine_hash()
    wanted = {s["file"]: s for s in specs()}
    for name, spec in wanted.items():
        entry = manifest.get("files", {}).get(name)
        path = out_dir / name
        if entry is None or not path.exists():
            problems.append(f"{name}: missing")
        elif entry["recipe_hash"] != recipe_hash(spec, engine):
            problems.append(f"{name}: deck data, options or drawing code changed")
        elif hashlib.sha256(path.read_bytes()).hexdigest() != entry["sha256"]:
            problems.append(f"{name}: file differs from the manifest")
    extra = {p.name for p in out_dir.glob("*.pdf")} - set(wanted)
    problems += [f"{name}: not produced by --all" for name in sorted(extra)]
    return problems
