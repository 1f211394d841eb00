"""Faster copies of three hot paths of Flet 1.0.5, with the same behaviour.

1. Building a control. A Flet control is a dataclass whose public fields are `Prop`
descriptors; its generated `__init__` assigns every field – 50–65 for a Text or a Container –
and each assignment of a value the caller did not give runs `Prop.__set__` only to find the
default and return. A Text cost ≈ 70 µs, mostly that. `fast_init(cls)` writes the same
`__init__` (same parameters, defaults, order of assignments, `__post_init__` call) that leaves
out exactly those assignments: a `Prop` field whose argument *is* the descriptor's own default
(then `Prop.__set__` returns without doing anything on a new control).

2. Configuring new controls in a diff:

When a redraw brings new controls, Flet's `DiffBuilder._configure_dataclass` walks every field
of every new control (≈ 30–70 per control, nearly all None or plain values) through a Python
generator each, asks `dataclasses.is_dataclass` of each value and rebuilds the field list per
control. That walk was ≈ 40 % of the server's CPU time for a reveal (benchmarks/results/HISTORY.md (b)).

`configure_dataclass` is the same algorithm that visits only the fields that can hold what the
walk acts on – a dataclass, a dict or a list (anything else, the original passes over too) – in
field order: set `Prop` values straight from the control's `_values` (what `Prop.__get__`
reads; an unset one is a plain default), the few other fields by getattr; field lists are kept
per class. One difference in principle: a control's fields are read before the walk goes into
the first of its children, where the original read each one just before its turn – the same
unless configuring a child changed a later field of its parent (the message comparison below,
over every game's screens, shows no such case).

3. Walking removed controls (`DiffBuilder._removed_controls`) and the configure walk above: the
original nests one generator per level of the tree (`yield from`), so every control found
is passed up through every level above it; both are consumed at once, into a list, by their
only callers. The copies walk the same way, in the same order, into a list; the removed walk,
like the configure walk, only through the fields that can hold what it acts on (a control, a
list or a dict – Flet's screens are frozen trees: it went through every field of each).

A guarded option (`install()`): it checks Flet's version *before* it touches any private name;
on another Flet, or when a private name it needs is missing, it changes nothing, logs one warning
and the app runs on stock Flet. `COMPANION_FLET_PATCHES=0` switches it off (companion/settings.py).
tests/test_flet_fast.py compares Flet's own and these on the screens of every game (the same
messages are sent) and every sped-up class's constructor (the same control is built).

What would make each patch unnecessary upstream (Flet):
1. generated `__init__`s that skip a `Prop` whose argument is its default (or `Prop.__set__`
   returning before any work on a new control) – `fast_init`;
2. `DiffBuilder._configure_dataclass` visiting only the fields that can hold a dataclass, dict or
   list, with the field list kept per class – `configure_dataclass`;
3. `DiffBuilder._removed_controls` collecting into one list instead of nested `yield from` –
   `removed_controls`.
(Dropped in this version: the per-type `is_dataclass` answers and the quiet `logger.debug`
wrappers – 20.3 → 19.3 ms a reveal, docs/BENCHMARKS.md – not worth a stand-in `dataclasses`
module and wrapped loggers.)

The other private names of Flet the app uses are read here too, and only here (tests/test_flet_fast.py
checks no other module names them), behind the same version check, whatever COMPANION_FLET_PATCHES
says (they are not speed-ups); on another Flet, or when a name is gone: the public way where there
is one, else nothing, with one warning each. What would make each unnecessary upstream:
4. a public "is a component being rendered now" (`flet.components.utils.current_renderer()`
   raises outside a render) – `rendering()` reads the context variable `_CURRENT_RENDERER`
   (fallback: that public function; kit.component memoises inside a render);
5. a public way to end a disconnected session early (`Session.expires_at` has no setter) –
   `expire(session)` writes `Session.__expires_at` (fallback: nothing, Flet's own timeout ends it);
6. a public read of the app manager's sessions – `sessions_held()` reads `FletAppManager.__sessions`
   (fallback: none seen – /health counts 0, a dropped session waits for its expiry).
"""

from __future__ import annotations

import dataclasses
import logging
import weakref
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import flet as ft
from flet.version import flet_version

PINNED = "1.0.5"
log = logging.getLogger("companion.flet_fast")
_PLAIN = frozenset((str, int, float, bool, type(None)))
_FIELDS: dict[type, _Walk] = {}
_op: Any = None  # flet.controls.object_patch, once install() has checked the version
BaseControl: Any = None
Prop: Any = None
ORIGINAL: Any = None
ORIGINAL_REMOVED: Any = None
_warned = False


_WALKS: dict[type, bool] = dict.fromkeys(_PLAIN, False)


def _walks(value: Any) -> bool:
    """Whether the walk does anything with `value`: only dataclasses, dicts and lists (anything
    else – an enum member, a colour, a callback – it passes over)."""
    t = type(value)
    if isinstance(value, type):  # a class object: a dataclass class is walked too; not cached
        return dataclasses.is_dataclass(value)
    walks = _WALKS[t] = dataclasses.is_dataclass(t) or issubclass(t, (dict, list))
    return walks


class _Walk:
    """How the walk reads a class's fields: a Prop field whose default is a plain value is in
    the control's `_values` when it is set at all (what Prop.__get__ reads; when it is not, the
    plain default is passed over); every other field is read with getattr."""

    __slots__ = ("sparse", "others", "all")

    def __init__(self, cls: type) -> None:
        self.sparse: dict[str, int] = {}
        others: list[tuple[int, str]] = []
        self.all: list[tuple[int, str]] = []
        for i, f in enumerate(dataclasses.fields(cls)):
            if f.metadata.get("skip", False):
                continue
            self.all.append((i, f.name))
            desc = _raw_descriptor(cls, f.name)
            if isinstance(desc, Prop) and type(desc.default) in _PLAIN:
                self.sparse[f.name] = i
            else:
                others.append((i, f.name))
        self.others = tuple(others)


def _walk_of(cls: type) -> _Walk:
    w = _FIELDS.get(cls)
    if w is None:
        w = _FIELDS[cls] = _Walk(cls)
    return w


def _children(item: Any, item_cls: type) -> list[Any]:
    """The values of `item`'s fields that the walk goes into, in the order of the fields."""
    found: list[tuple[int, Any]] = []
    if isinstance(item, type):  # a dataclass class itself: every field, read from the class
        for i, name in _walk_of(item).all:
            value = getattr(item, name)
            if _WALKS.get(type(value)) is not False and _walks(value):
                found.append((i, value))
        return [v for _, v in found]
    w = _walk_of(item_cls)
    values = getattr(item, "_values", None)
    if values is not None:
        sparse = w.sparse
        for name, value in values.items():
            i = sparse.get(name)
            if i is not None:
                walks = _WALKS.get(type(value))
                if walks or (walks is None and _walks(value)):
                    found.append((i, value))
        others = w.others
    else:
        others = tuple(sorted((i, n) for n, i in w.sparse.items())) + w.others
    for i, name in others:
        value = getattr(item, name)
        walks = _WALKS.get(type(value))
        if walks or (walks is None and _walks(value)):
            found.append((i, value))
    if len(found) > 1:
        found.sort(key=_first)
    return [v for _, v in found]


def _first(pair: tuple[int, Any]) -> int:
    return pair[0]


def configure_dataclass(self: Any, item: Any, parent: Any, frozen: bool,
                        configure_setattr_only: bool = False) -> Iterator[Any]:
    """DiffBuilder._configure_dataclass of flet 1.0.5 (see its docstring), minus the wasted work.

    The walk runs at once and the controls come from a list: the original's generators, one
    per level (`yield from`), passed every control up through every level above it. Its only
    caller consumes all of it at once (DiffBuilder.get_added_controls, into a list)."""
    out: list[Any] = []
    _configure(self, item, parent, frozen, configure_setattr_only, out)
    return iter(out)


def _configure(self: Any, item: Any, parent: Any, frozen: bool, configure_setattr_only: bool,
               out: list[Any]) -> None:
    if type(item) in _PLAIN:
        return
    if dataclasses.is_dataclass(item):
        if parent is None:
            parent_ref = getattr(item, "_parent", None)
            parent = parent_ref() if parent_ref else None
        if parent:
            if parent is item:
                raise _op.ObjectPatchException(f"Parent is the same as item: {item}")
            item._parent = weakref.ref(parent)
        if hasattr(item, "_frozen"):
            frozen = item._frozen
        elif frozen:
            item._frozen = frozen
        item_cls = item.__class__
        if getattr(item_cls, "__flet_control_cls__", None) is None:
            item_cls.__flet_control_cls__ = self.control_cls
        is_control = bool(self.control_cls) and isinstance(item, self.control_cls)
        if is_control:
            if not configure_setattr_only:
                item.build()
                item._before_update_safe()
                object.__setattr__(item, "_initialized", True)
            out.append(item)
        if not configure_setattr_only:
            child_parent = item if is_control else parent
            for value in _children(item, item_cls):
                _configure(self, value, child_parent, frozen, False, out)
        if not frozen:
            dst_dirty = getattr(item, "_dirty", None)
            if dst_dirty is not None:
                dst_dirty.clear()
            else:
                cls = type(item)
                if cls.__setattr__ is not _op._control_setattr:
                    cls.__setattr__ = _op._control_setattr  # type: ignore[assignment]
                object.__setattr__(item, "__changes", {})
    elif isinstance(item, dict):
        for v in item.values():
            _configure(self, v, parent, frozen, False, out)
    elif isinstance(item, list):
        for v in item:
            _configure(self, v, parent, frozen, False, out)


def removed_controls(self: Any, item: Any, recurse: bool) -> Iterator[Any]:
    """DiffBuilder._removed_controls of flet 1.0.5, the same walk run at once into a list (its
    only caller, DiffBuilder.get_removed_controls, is consumed at once, into a list)."""
    out: list[Any] = []
    _removed(self.control_cls, item, recurse, out)
    return iter(out)


def _removed(control_cls: Any, item: Any, recurse: bool, out: list[Any]) -> None:
    if control_cls and isinstance(item, control_cls):
        if hasattr(item, "__prev_lists"):
            for item_list in getattr(item, "__prev_lists", {}).values():
                _removed(control_cls, item_list, recurse, out)
            for item_dict in getattr(item, "__prev_dicts", {}).values():
                _removed(control_cls, item_dict, recurse, out)
            for item_class in getattr(item, "__prev_classes", {}).values():
                _removed(control_cls, item_class, recurse, out)
        elif recurse:  # the fields that can hold a control, a list or a dict (nothing else counts)
            for value in _children(item, item.__class__):
                _removed(control_cls, value, recurse, out)
        out.append(item)
    elif isinstance(item, dict):
        for v in item.values():
            _removed(control_cls, v, recurse, out)
    elif isinstance(item, list):
        for v in item:
            _removed(control_cls, v, recurse, out)


_NO_FACTORY = object()
_ORIGINAL_INITS: dict[type, Any] = {}
# The controls the screens use (Flet imports control modules lazily; these are loaded now).
USED = ("Text", "Container", "Row", "Column", "SafeArea", "FilledButton", "OutlinedButton", "TextButton",
        "IconButton", "Icon", "Image", "TextField", "Dropdown", "DropdownOption", "ProgressRing", "Divider",
        "Checkbox", "Switch", "Stack", "ListView", "GridView", "Card", "Chip", "TextSpan", "SnackBar",
        "AlertDialog", "Markdown", "ResponsiveRow", "Tabs", "Tab", "Slider", "Radio", "RadioGroup",
        "FloatingActionButton", "ElevatedButton", "ProgressBar", "DataTable", "DataRow", "DataCell",
        "DataColumn")
# The value types they are styled with (`@value` dataclasses: Prop fields as well).
VALUES = ("TextStyle", "ButtonStyle", "RoundedRectangleBorder", "Padding", "Margin", "Border", "BorderSide",
          "BorderRadius", "Alignment", "Offset", "StrutStyle")


def fast_init(cls: type) -> Any:
    """The dataclass `__init__` of control class `cls`, minus the assignments that do nothing."""
    fields = list(cls.__dataclass_fields__.values())  # type: ignore[attr-defined]
    kind = {f.name: f._field_type for f in fields}  # type: ignore[attr-defined]
    ns: dict[str, Any] = {"_NO_FACTORY": _NO_FACTORY, "MISSING": dataclasses.MISSING}
    std: list[str] = []
    kw: list[str] = []
    body: list[str] = []
    initvars: list[str] = []
    for f in fields:
        if kind[f.name] is dataclasses._FIELD_CLASSVAR:  # type: ignore[attr-defined]
            continue
        n = f.name
        if f.init:
            if f.default is not dataclasses.MISSING:
                ns[f"_d_{n}"] = f.default
                param = f"{n}=_d_{n}"
            elif f.default_factory is not dataclasses.MISSING:
                param = f"{n}=_NO_FACTORY"
            else:
                param = n
            (kw if f.kw_only else std).append(param)
        if kind[f.name] is dataclasses._FIELD_INITVAR:  # type: ignore[attr-defined]
            initvars.append(n)
            continue
        if f.default_factory is not dataclasses.MISSING:
            ns[f"_f_{n}"] = f.default_factory
        if f.default is not dataclasses.MISSING:
            ns[f"_d_{n}"] = f.default
        if not f.init:
            if f.default_factory is not dataclasses.MISSING:
                body.append(f"self.{n} = _f_{n}()")
            elif f.default is not dataclasses.MISSING:
                body.append(f"self.{n} = _d_{n}")
            continue
        if f.default_factory is not dataclasses.MISSING:
            body.append(f"self.{n} = _f_{n}() if {n} is _NO_FACTORY else {n}")
            continue
        desc = _raw_descriptor(cls, n)
        if isinstance(desc, Prop) and desc.default is not dataclasses.MISSING:
            ns[f"_p_{n}"] = desc.default
            body.append(f"if {n} is not _p_{n}: self.{n} = {n}")
        else:
            body.append(f"self.{n} = {n}")
    if hasattr(cls, "__post_init__"):
        body.append(f"self.__post_init__({', '.join(initvars)})")
    if getattr(cls, "_is_flet_value", False):  # as @value's own wrapper of the dataclass __init__
        ns["_setattr"] = object.__setattr__
        body = ['_setattr(self, "_values", {})', '_setattr(self, "_dirty", {})', *body, "self._dirty.clear()"]
    params = ", ".join(["self", *std, *(["*", *kw] if kw else [])])
    src = f"def __init__({params}):\n" + "\n".join("    " + line for line in body or ["pass"]) + "\n"
    exec(src, ns)  # noqa: S102 - code written above from the class's own dataclass fields
    init = ns["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    return init


def _raw_descriptor(cls: type, name: str) -> Any:
    for klass in cls.__mro__:
        if name in vars(klass):
            return vars(klass)[name]
    return None


def _control_classes() -> list[type]:
    """The visual controls the screens build (not pages, sessions or services) and their styles."""
    classes = [getattr(ft, name, None) for name in USED]
    values = [getattr(ft, name, None) for name in VALUES]
    return [c for c in classes if isinstance(c, type) and issubclass(c, BaseControl)] + \
        [c for c in values if isinstance(c, type) and getattr(c, "_is_flet_value", False)]


def _speed_up(cls: type) -> None:
    params = getattr(cls, "__dataclass_params__", None)
    if cls in _ORIGINAL_INITS or "__init__" not in vars(cls) or params is None or params.frozen \
            or "__slots__" in vars(cls):
        return
    _ORIGINAL_INITS[cls] = cls.__init__
    cls.__init__ = fast_init(cls)  # type: ignore[misc]


def _load_private() -> None:
    """Flet's private names the patches use, read only after the version check (install)."""
    global _op, BaseControl, Prop, ORIGINAL, ORIGINAL_REMOVED
    from flet.controls import object_patch
    from flet.controls.base_control import BaseControl as base
    from flet.controls.value_types import Prop as prop

    for name in ("_configure_dataclass", "_removed_controls"):
        if not callable(getattr(object_patch.DiffBuilder, name, None)):
            raise AttributeError(f"flet.controls.object_patch.DiffBuilder.{name}")
    for name in ("_control_setattr", "ObjectPatchException"):
        if not hasattr(object_patch, name):
            raise AttributeError(f"flet.controls.object_patch.{name}")
    _op, BaseControl, Prop = object_patch, base, prop
    if ORIGINAL is None:
        ORIGINAL = object_patch.DiffBuilder._configure_dataclass
        ORIGINAL_REMOVED = object_patch.DiffBuilder._removed_controls


def _warn_once(why: str) -> None:
    global _warned
    if not _warned:
        _warned = True
        log.warning("Flet speed-ups off (%s): running on stock Flet – same screens, more CPU per redraw.", why)


def install(enabled: bool = True) -> bool:
    """Use the faster paths. False, with nothing changed, when switched off, on a Flet other than
    the pinned one (one warning), or when a private name they need is missing (one warning)."""
    if not enabled:
        return False
    if flet_version != PINNED:
        _warn_once(f"flet {flet_version} installed, the patches are checked against {PINNED}")
        return False
    try:
        _load_private()
    except (ImportError, AttributeError) as e:
        _warn_once(f"flet {flet_version} lacks {e}")
        return False
    _op.DiffBuilder._configure_dataclass = configure_dataclass
    _op.DiffBuilder._removed_controls = removed_controls
    for cls in _control_classes():
        _speed_up(cls)
    return True


def uninstall() -> None:
    if _op is None:
        return
    _op.DiffBuilder._configure_dataclass = ORIGINAL
    _op.DiffBuilder._removed_controls = ORIGINAL_REMOVED
    for cls, init in _ORIGINAL_INITS.items():
        cls.__init__ = init  # type: ignore[misc]
    _ORIGINAL_INITS.clear()


# ---------- Flet's private names used elsewhere in the app (4–6 above) ----------
_private_warned: set[str] = set()


def _private(name: str, present: bool = True) -> bool:
    """Whether Flet's private `name` may be used: on the pinned Flet, where it is there; otherwise
    one warning (per name) and the caller's fallback."""
    if flet_version == PINNED and present:
        return True
    if name not in _private_warned:
        _private_warned.add(name)
        why = (f"flet {flet_version} installed, checked against {PINNED}" if flet_version != PINNED
               else f"flet {flet_version} lacks it")
        log.warning("Flet's private %s not used (%s): the fallback instead.", name, why)
    return False


def _renderer_var() -> Any:
    if flet_version != PINNED:  # the version first: no private name is imported on another Flet
        _private("_CURRENT_RENDERER")
        return None
    try:
        from flet.components.utils import _CURRENT_RENDERER
    except ImportError:
        _private("_CURRENT_RENDERER", present=False)
        return None
    return _CURRENT_RENDERER


_RENDERER = _renderer_var()


def rendering() -> bool:
    """Whether a Flet component is being rendered in this context (a memoised component can be
    made only then; outside, e.g. a test calling a view, a view is built at once)."""
    if _RENDERER is not None:
        return _RENDERER.get() is not None
    try:
        from flet.components.utils import current_renderer
        current_renderer()
    except (ImportError, RuntimeError):
        return False
    return True


def expire(session: Any) -> bool:
    """Move a disconnected Flet session's expiry to now: Flet's sweep (every 10 s) closes it. False,
    with nothing changed, on a Flet where that cannot be done (then Flet's own timeout ends it)."""
    if not _private("Session.__expires_at", hasattr(session, "_Session__expires_at")):
        return False
    session._Session__expires_at = datetime.now(UTC)
    return True


def sessions_held(app_manager: Any) -> dict[str, Any]:
    """Flet's app manager's sessions by key (read only: Flet's own methods change it); empty on a
    Flet where they cannot be read."""
    held = getattr(app_manager, "_FletAppManager__sessions", None)
    if not _private("FletAppManager.__sessions", isinstance(held, dict)):
        return {}
    return held  # type: ignore[return-value]

