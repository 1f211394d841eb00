"""Cut Flutter's Material icon font down to the icons this app can show.

    .venv/bin/pip install fonttools      # only needed to run this script
    .venv/bin/python tools/subset_icons.py [--check]

Flet's web client ships the whole `MaterialIcons-Regular.otf` (1.26 MB, 0.47 MB gzipped; every
icon in four styles) because a Flet app names its icons at run time, so Flutter's icon
tree-shaking cannot run. Flutter downloads the font before its first frame. This script writes

* `companion/assets/icons/MaterialIcons-Regular.otf` – the same font with only the glyphs of
  (a) every `Icons.NAME` in `companion/**/*.py` and (b) the icons Flutter's and Flet's own
  widgets draw (back/close/menu buttons, dropdown and expand arrows, password eye, chips, date
  and time pickers, data-table sort arrows, …: `FRAMEWORK_ICONS`), each in all four styles;
* `companion/assets/icons/MaterialIcons-Regular.json` – what it was cut from (flet-web version,
  size and SHA-256 of the original: `companion/web.py` serves the subset only in place of
  exactly that file), the icons the app's source uses with their code points, and every code
  point in the subset (the tests check the app's icons against it without fontTools).

Run it again after adding an icon to the app (the test `tests/test_icon_subset.py` fails until
then) or after upgrading Flet (the server falls back to the full font until then).
`--check` only verifies that the committed subset is current.

Glyph names in Flutter's font are `<name>_baseline` / `_outlined` / `_rounded` / `_sharp`;
Flet's `Icons.CHECK_CIRCLE_OUTLINED` is Flutter's `Icons.check_circle_outlined`, drawn with the
glyph `check_circle_outlined` (same code point as in Flutter's `icons.dart`). A few Flet names
are aliases or spelled differently (`COPY`, `CLASS_`, `EIGHT_K`): the script stops with a
message if the app uses one of those; add it to `ALIASES`.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "companion" / "assets" / "icons"
FONT_NAME = "MaterialIcons-Regular.otf"
SOURCE_REL = "assets/fonts/" + FONT_NAME
STYLES = ("_baseline", "_outlined", "_rounded", "_sharp")
ICON_REF = re.compile(r"\bIcons\.([A-Z][A-Z0-9_]*)\b")

# Icons that Flutter's Material widgets and Flet's controls draw on their own (generous: a few
# hundred bytes each). Flutter names, without style suffix; all four styles are kept.
FRAMEWORK_ICONS = (
    # app bar, navigation, drawers (BackButtonIcon, CloseButtonIcon, DrawerButtonIcon, Icons.adaptive)
    "arrow_back", "arrow_back_ios", "arrow_back_ios_new", "arrow_forward", "arrow_forward_ios",
    "close", "menu", "more_vert", "more_horiz", "share", "ios_share",
    # dropdowns, menus, expansion tiles/panels, steppers, trees
    "arrow_drop_down", "arrow_drop_up", "arrow_left", "arrow_right", "expand_more", "expand_less",
    "keyboard_arrow_down", "keyboard_arrow_up", "keyboard_arrow_left", "keyboard_arrow_right",
    "chevron_left", "chevron_right", "navigate_before", "navigate_next", "first_page", "last_page",
    "unfold_more", "unfold_less",
    # text fields, search, chips, snack bars, banners
    "visibility", "visibility_off", "search", "clear", "cancel", "check", "done", "error",
    "error_outline", "info", "info_outline", "warning", "warning_amber", "help", "help_outline",
    # check boxes / radios / switches drawn as icons (Switch thumb icons, adaptive controls)
    "check_box", "check_box_outline_blank", "indeterminate_check_box", "radio_button_checked",
    "radio_button_unchecked", "check_circle", "remove", "add",
    # data tables, reorderable lists, pickers
    "arrow_upward", "arrow_downward", "drag_handle", "edit", "edit_calendar", "calendar_today",
    "calendar_month", "access_time", "schedule", "keyboard", "date_range",
    # images, files, misc defaults in Flet controls
    "broken_image", "image", "image_not_supported", "refresh", "sync", "delete", "content_copy",
    "content_paste", "content_cut", "select_all", "star", "star_border", "star_half", "favorite",
    "favorite_border", "home", "settings", "person", "account_circle", "language", "translate",
    "light_mode", "dark_mode", "brightness_auto", "play_arrow", "pause", "stop", "fullscreen",
    "fullscreen_exit", "volume_up", "volume_off", "lock", "lock_open", "wifi_off", "cloud_off",
)
# Flet names whose Flutter glyph is spelled differently (extend when the script asks for it).
ALIASES: dict[str, str] = {"COPY": "content_copy", "CUT": "content_cut", "PASTE": "content_paste"}


def glyph_for(flet_name: str) -> str:
    """Flet's `Icons.NAME` → the glyph name in Flutter's MaterialIcons font."""
    base = ALIASES.get(flet_name)
    if base is not None:
        return base + "_baseline"
    n = flet_name.lower()
    for style in STYLES[1:]:
        if n.endswith(style):
            bare = ALIASES.get(flet_name[: -len(style)])
            return (bare + style) if bare else n
    return n + "_baseline"


def app_icons(root: Path = ROOT) -> list[str]:
    """Every `Icons.NAME` written in the app's source (sorted, unique)."""
    names: set[str] = set()
    for f in sorted((root / "companion").rglob("*.py")):
        names.update(ICON_REF.findall(f.read_text("utf-8")))
    return sorted(names)


def original_font() -> tuple[Path, str]:
    from flet_web import get_package_web_dir
    from flet_web.version import version

    return Path(get_package_web_dir()) / SOURCE_REL, str(version)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def build() -> tuple[bytes, dict[str, object]]:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    src, flet_web_version = original_font()
    raw = src.read_bytes()
    font = TTFont(io.BytesIO(raw), recalcTimestamp=False)  # (same input, same bytes)
    by_glyph = {name: cp for cp, name in font.getBestCmap().items()}
    used = app_icons()
    missing = [n for n in used if glyph_for(n) not in by_glyph]
    if missing:
        sys.exit(f"no glyph for {missing} in {src.name}: add them to ALIASES in {Path(__file__).name}")
    wanted = {glyph_for(n) for n in used}
    unknown = [n for n in FRAMEWORK_ICONS if n + "_baseline" not in by_glyph]
    if unknown:
        sys.exit(f"FRAMEWORK_ICONS not in {src.name}: {unknown}")
    for name in FRAMEWORK_ICONS:
        wanted.update(name + s for s in STYLES)
    codepoints = sorted({by_glyph[g] for g in wanted if g in by_glyph} | {0x20})
    options = subset.Options()
    options.name_IDs = ["*"]  # keep the copyright and licence entries of the name table
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.glyph_names = True
    options.layout_features = []
    sub = subset.Subsetter(options)
    sub.populate(unicodes=codepoints)
    sub.subset(font)
    out = io.BytesIO()
    font.save(out)
    data = out.getvalue()
    meta: dict[str, object] = {
        "about": "Subset of Flutter's Material icon font, made by tools/subset_icons.py; served by "
                 "companion/web.py in place of the source file below only when that file matches.",
        "source": {"path": SOURCE_REL, "flet_web": flet_web_version, "size": len(raw), "sha256": sha256(raw)},
        "subset": {"size": len(data), "sha256": sha256(data)},
        "icons": {n: by_glyph[glyph_for(n)] for n in used},
        "framework_icons": list(FRAMEWORK_ICONS),
        "codepoints": codepoints,
    }
    return data, meta


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="exit 1 if the committed subset is not current")
    args = ap.parse_args()
    data, meta = build()
    font_path, meta_path = OUT_DIR / FONT_NAME, OUT_DIR / FONT_NAME.replace(".otf", ".json")
    text = json.dumps(meta, indent=1) + "\n"
    if args.check:
        current = font_path.is_file() and meta_path.is_file() and meta_path.read_text("utf-8") == text \
            and sha256(font_path.read_bytes()) == meta["subset"]["sha256"]  # type: ignore[index]
        print("subset is current" if current else "subset is NOT current: run tools/subset_icons.py")
        sys.exit(0 if current else 1)
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    font_path.write_bytes(data)
    meta_path.write_text(text, "utf-8")
    src = meta["source"]
    print(f"{font_path.relative_to(ROOT)}: {len(meta['codepoints'])} glyphs, {len(data):,} bytes "  # type: ignore[arg-type]
          f"(from {src['size']:,}); app icons: {', '.join(meta['icons'])}")  # type: ignore[index, arg-type]


if __name__ == "__main__":
    main()
