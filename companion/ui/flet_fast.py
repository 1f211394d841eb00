"""A faster copy of one hot function of Flet 1.0.5's diff, with the same behaviour.

When a redraw brings new controls, Flet's `DiffBuilder._configure_dataclass` walks every field
of every new control (≈ 30–70 per control, nearly all None or plain values) through a Python
generator each, asks `dataclasses.is_dataclass` of each value and rebuilds the field list per
control. That walk was ≈ 40 % of the server's CPU time for a reveal (docs/BENCHMARKS.md (b)).

`install()` replaces it with the same algorithm that (1) passes over plain values (None, str,
int, float, bool) without a generator – the original does nothing with them either – and (2)
keeps the list of a class's fields once per class (the original builds it per control; fields
are fixed per class). Everything the original does to a dataclass, a dict or a list is done in
the same order. flet is pinned (flet==1.0.5); `install()` refuses another version, and
tests/test_flet_fast.py compares the original and this one on the screens of every game.
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Iterator
from typing import Any

from flet.controls import object_patch as _op
from flet.version import flet_version

PINNED = "1.0.5"
_PLAIN = frozenset((str, int, float, bool, type(None)))
_FIELDS: dict[type, tuple[str, ...]] = {}
ORIGINAL = _op.DiffBuilder._configure_dataclass


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = tuple(f.name for f in dataclasses.fields(cls) if not f.metadata.get("skip", False))
        _FIELDS[cls] = names
    return names


def configure_dataclass(self: Any, item: Any, parent: Any, frozen: bool,
                        configure_setattr_only: bool = False) -> Iterator[Any]:
    """DiffBuilder._configure_dataclass of flet 1.0.5 (see its docstring), minus the wasted work."""
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
            yield item
        if not configure_setattr_only:
            child_parent = item if is_control else parent
            for name in _field_names(item if isinstance(item, type) else item_cls):
                value = getattr(item, name)
                if type(value) not in _PLAIN:
                    yield from configure_dataclass(self, value, child_parent, frozen)
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
            yield from configure_dataclass(self, v, parent, frozen)
    elif isinstance(item, list):
        for v in item:
            yield from configure_dataclass(self, v, parent, frozen)


def install() -> bool:
    """Use the faster walk; False (and nothing changed) on a flet other than the pinned one."""
    if flet_version != PINNED:
        return False
    _op.DiffBuilder._configure_dataclass = configure_dataclass  # type: ignore[method-assign]
    return True


def uninstall() -> None:
    _op.DiffBuilder._configure_dataclass = ORIGINAL  # type: ignore[method-assign]
