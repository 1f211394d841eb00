"""Issue 32.3: a view is a function of what it draws. It reads the screen's public surface (its table,
seat, language, `slots`, `parts`, `seen`, `shared`, `finding`, `save`…) and never a private name of the
screen (`scr._finding`, `getattr(scr, "_shared")`); the screen, and one view of another, never use a
view's private names. The same for companion/ui/sound.py, which keeps the screen's chime (`scr.sound`).
Read from the source (ast): a new view that pokes into the screen fails here.

The last part of it: a view takes what it draws as arguments – plain values, frozen dataclasses of what it
shows and a `kit.Calls` of the session's callbacks – and not the screen; companion/ui/assemble/ builds them.
The views converted so far (CONVERTED) neither take nor import the Screen."""

from __future__ import annotations

import ast
from pathlib import Path

import companion.ui.views
from companion.ui import assemble, screens, sound

VIEWS = sorted(Path(companion.ui.views.__file__).parent.glob("*.py"))
DRAWING = [*VIEWS, Path(sound.__file__)]  # what reads the screen to draw it
SCREEN_NAMES = {"scr", "screen"}  # what the views call the screen, besides a parameter typed Screen
ATTR_CALLS = {"getattr", "setattr", "hasattr", "delattr"}
# The views that are functions of what they draw: no Screen in them at all (issue 32.3's last part).
CONVERTED = ["seats.py", "common.py", "phone.py", "display.py", "host.py", "spectator.py", "join.py", "rematch.py", "home.py", "history.py", "shared.py",
             "moment.py"]  # (moment.py: (ctx, seen) already)


def _private(name: str) -> bool:
    return name.startswith("_") and not name.endswith("__")


def _screen_names(tree: ast.AST) -> set[str]:
    """The names a module gives the screen: scr, screen and every parameter annotated Screen."""
    names = set(SCREEN_NAMES)
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.annotation is not None \
                and ast.unparse(node.annotation).strip("'\"") == "Screen":
            names.add(node.arg)
    return names


def _is_screen(node: ast.AST, names: set[str]) -> bool:
    """`scr`, or a screen held by something else (`self.scr`)."""
    if isinstance(node, ast.Name):
        return node.id in names
    return isinstance(node, ast.Attribute) and node.attr in SCREEN_NAMES


def screen_privates(path: Path) -> list[str]:
    """Where the module reads or writes a private name of the screen."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = _screen_names(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr) and _is_screen(node.value, names):
            found.append(f"{path.name}:{node.lineno} .{node.attr}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ATTR_CALLS
              and len(node.args) >= 2 and _is_screen(node.args[0], names)
              and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
              and _private(node.args[1].value)):
            found.append(f"{path.name}:{node.lineno} {node.func.id}(…, {node.args[1].value!r})")
    return found


def view_privates(path: Path) -> list[str]:
    """Where the module uses a private name of a view module (companion/ui/views/*): imported by
    name, or reached through the module (`_moment._face`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules: set[str] = set()  # the names the views' modules go by here
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            if node.module == "companion.ui.views":
                modules |= {a.asname or a.name for a in node.names}
            elif node.module.startswith("companion.ui.views."):
                found += [f"{path.name}:{node.lineno} import {a.name}" for a in node.names if _private(a.name)]
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name) \
                and node.value.id in modules:
            found.append(f"{path.name}:{node.lineno} {node.value.id}.{node.attr}")
    return found


def takes_screen(path: Path) -> list[str]:
    """Where the module takes, imports or names the screen: `Screen` (an import, an annotation, a
    string), companion.ui.screens / session, or a parameter called scr / screen."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in ("companion.ui.screens", "companion.ui.session"):
            found.append(f"{path.name}:{node.lineno} from {node.module} import")
        elif isinstance(node, ast.ImportFrom) and node.module == "companion.ui" \
                and {a.name for a in node.names} & {"screens", "session"}:
            found.append(f"{path.name}:{node.lineno} import screens/session")
        elif isinstance(node, ast.Import) and any(a.name in ("companion.ui.screens", "companion.ui.session")
                                                  for a in node.names):
            found.append(f"{path.name}:{node.lineno} import screens/session")
        elif isinstance(node, ast.Name) and node.id == "Screen" \
                or isinstance(node, ast.Attribute) and node.attr == "Screen" \
                or isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip("'\"") == "Screen":
            found.append(f"{path.name}:{node.lineno} Screen")
        elif isinstance(node, ast.arg) and node.arg in SCREEN_NAMES:
            found.append(f"{path.name}:{node.lineno} parameter {node.arg}")
    return found


def test_the_converted_views_take_what_they_draw_not_the_screen() -> None:
    views = {p.name: p for p in VIEWS}
    assert set(CONVERTED) <= set(views)
    assert [f for name in CONVERTED for f in takes_screen(views[name])] == []


def test_the_views_read_no_private_state_of_the_screen() -> None:
    assert len(VIEWS) > 10
    assert [f for p in DRAWING for f in screen_privates(p)] == []


def test_no_view_private_name_is_used_outside_its_view() -> None:
    assert [f for p in [Path(screens.__file__), *Path(assemble.__file__).parent.glob("*.py"), *VIEWS] for f in view_privates(p)] == []


def test_the_guards_see_what_they_look_for(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from companion.ui.views import moment as _m\n"
                   "from companion.ui.views.moment import _back\n"
                   "def v(s: Screen, x):\n"
                   "    a = s._finding\n"
                   "    scr._join_field = None\n"
                   "    getattr(scr, '_shared', None)\n"
                   "    x.scr._set('k', '')\n"
                   "    return _m._face(1, 2), scr.__class__, x._own\n")
    assert sorted(f.split(" ", 1)[1] for f in screen_privates(bad)) == \
        sorted(["._finding", "._join_field", "getattr(…, '_shared')", "._set"])
    assert sorted(f.split(" ", 1)[1] for f in view_privates(bad)) == ["_m._face", "import _back"]
    takes = tmp_path / "takes.py"
    takes.write_text("from typing import TYPE_CHECKING\n"
                     "if TYPE_CHECKING:\n"
                     "    from companion.ui.screens import Screen\n"
                     "from companion.ui import screens\n"
                     "def a(x: 'Screen'): ...\n"
                     "def b(scr, y: int): ...\n"
                     "def c(n: int, screen=None): ...\n"
                     "def d(n: int, lang: str): return screens.Screen\n")
    assert sorted(f.split(" ", 1)[1] for f in takes_screen(takes)) == sorted([
        "from companion.ui.screens import", "Screen", "import screens/session", "parameter scr",
        "parameter screen", "Screen"])
