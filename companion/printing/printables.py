"""`companion print --all`: the committed PDFs in printables/, their manifest, the previews.

The manifest records, per file, a recipe hash (options + the deck data + a hash of the
drawing code and fonts) and the file's own hash. tests/test_printing_printables.py fails when
either no longer matches: the printables are stale and `companion print --all` must be run.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.printing import api
from companion.printing import decks as D
from companion.printing.engine import paint

ROOT = Path(__file__).resolve().parents[2]
PRINTABLES = ROOT / "printables"
DOCS = ROOT / "docs"
MANIFEST = "MANIFEST.json"
PAPERS = ("a4", "letter")
# 300 dpi keeps the cards sharp; JPEG quality 70 with optimised tables keeps the set small (~37 MB)
PRINT_DPI = 300
PRINT_QUALITY = 70
# the code that decides what a page looks like (not runner.py, cli.py: how, not what)
ENGINE_FILES = ("units.py", "layout.py", "pdf.py", "fonts.py", "art.py", "cards.py", "board.py", "decks.py",
                "engine.py", "api.py")
PREVIEW_DPI = 150


def specs() -> list[dict[str, Any]]:
    """Every committed PDF: one per game and paper (all decks, duplex long edge) + registration."""
    out = []
    for paper in PAPERS:
        for game in D.GAMES:
            out.append({"file": f"{game}-{paper}.pdf", "game": game, "paper": paper, "backs": "duplex-long",
                        "dpi": PRINT_DPI, "quality": PRINT_QUALITY})
        out.append({"file": f"registration-{paper}.pdf", "game": None, "paper": paper, "backs": "duplex-long",
                    "dpi": PRINT_DPI, "quality": PRINT_QUALITY})
    return out


def engine_hash() -> str:
    h = hashlib.sha256()
    here = Path(__file__).resolve().parent
    for name in ENGINE_FILES:
        h.update(name.encode() + b"\0" + (here / name).read_bytes())
    for f in sorted((ROOT / "assets" / "fonts").glob("*.ttf")):
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


def recipe_hash(spec: dict[str, Any], engine: str | None = None) -> str:
    data = repr(D.game_items(spec["game"])) if spec["game"] else "registration"
    payload = json.dumps({k: spec[k] for k in sorted(spec)}, sort_keys=True) + data + (engine or engine_hash())
    return hashlib.sha256(payload.encode()).hexdigest()


def build(spec: dict[str, Any], progress: Callable[[int, int], None] | None = None) -> bytes:
    if spec["game"] is None:
        return api.registration_pdf(spec["paper"], spec["backs"], dpi=spec["dpi"], quality=spec["quality"],
                                    optimize=True)
    return api.render_pdf(spec["game"], paper=spec["paper"], backs=spec["backs"], dpi=spec["dpi"],
                          quality=spec["quality"], optimize=True, progress=progress)


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
    """docs/print-<game>-<deck>.png: the first page of every deck and board (A4, fronts)."""
    docs.mkdir(parents=True, exist_ok=True)
    paths = []
    for game in D.GAMES:
        for item in D.game_items(game):
            jobs = api.game_jobs(game, item.name, paper="a4", backs="duplex-long", dpi=PREVIEW_DPI)
            img = paint(jobs[0])
            path = docs / f"print-{game}-{item.name}.png"
            img.save(path, "PNG", optimize=True)
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
