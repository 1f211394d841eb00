"""companion/ui/flet_fast.py replaces one function of Flet's diff with a faster copy. Proved
here: real Flet sessions (benchmarks/harness.py) playing the same random game of every game,
once with Flet's own function and once with ours, send the very same messages (control ids
renumbered in order of appearance, the table's random code and tokens blanked)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import msgpack
import pytest

from benchmarks import harness as H
from benchmarks import soak
from companion.games import games
from companion.table.hub import Hub
from companion.table.store import MemoryStore
from companion.ui import flet_fast
from companion.ui.screens import Server
from companion.ui.views import moment


@pytest.fixture(autouse=True)
def _moments_at_their_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reveal moments' timers (views/moment.py) would interleave their updates with the next
    steps at the machine's pace: both runs draw every moment at its end instead."""
    monkeypatch.setattr(moment, "PLAY", False)


class _Recorder(H.FakeConnection):
    log: list[Any] = []

    def send_message(self, message: Any) -> None:
        _Recorder.log.append(msgpack.unpackb(msgpack.packb([message.action, message.body], default=H._ENCODE),
                                             strict_map_key=False))
        super().send_message(message)


class _InOrder(dict):  # type: ignore[type-arg]
    """Flet keeps a session's pending updates in a set (order by memory address, so it differs
    between runs); in order of arrival here, the two runs send their messages in the same order."""

    def add(self, item: Any) -> None:
        self[item] = None


async def _settle(clients: list[H.Client]) -> None:
    """Until every screen has drawn what the last change brought (not a guess by idle time)."""
    calm = 0
    while calm < 3:
        await asyncio.sleep(0.005)
        busy = any(c.screen._pending or c.session._Session__pending_updates  # type: ignore[union-attr]
                   or c.session._Session__updates_ready.is_set()  # type: ignore[union-attr]
                   for c in clients if c.session is not None)
        calm = 0 if busy else calm + 1


def _normalise(messages: list[Any], secrets: list[str]) -> list[Any]:
    ids: dict[int, int] = {}

    def norm(x: Any, key: Any = None) -> Any:
        if isinstance(x, dict):
            return {k: norm(v, k) for k, v in x.items()}
        if isinstance(x, list):
            return [norm(v) for v in x]
        if key == "call_id":
            return "<call>"  # random per call
        if key in ("_i", "id", "control_id") and isinstance(x, int):
            return ids.setdefault(x, len(ids))
        if isinstance(x, bytes) or (isinstance(x, str) and x.startswith("iVBORw0KGgo")):
            return "<png>"  # the QR code image (base64) of the random join address
        if isinstance(x, str):
            for s in secrets:
                x = x.replace(s, "<secret>")
        return x
    return [norm(m) for m in messages]


async def _play(game: str, steps: int, seed: int) -> list[Any]:
    _Recorder.log = []
    hub = Hub(MemoryStore())
    server = Server(hub, "http://test")
    g = games()[game]
    n = max(g.MIN_SEATS, min(3, g.MAX_SEATS))  # three phones where the game seats three
    t = hub.create(game, None, [{"name": f"P{i + 1}"} for i in range(n)], seed=seed)
    tokens = [t.request_sync(None, {"op": "join", "seat": i})["token"] for i in range(n)]
    t.request_sync(t.host_token, {"op": "start"})
    clients = [H.Client(server, f"/t/{t.code}", {f"seat:{t.code}": tok, "lang": "en"}) for tok in tokens]
    clients.append(H.Client(server, f"/host/{t.code}", {f"host:{t.code}": t.host_token, "lang": "de"}))
    real = H.FakeConnection
    H.FakeConnection = _Recorder  # type: ignore[misc]
    try:
        for c in clients:
            await c.open(H.new_pubsub())
            assert c.session is not None
            c.session._Session__pending_updates = _InOrder()  # type: ignore[attr-defined]
            await _settle(clients)
    finally:
        H.FakeConnection = real  # type: ignore[misc]
    r = random.Random(seed)
    phones = soak.Phones(t, tokens)
    for _ in range(steps):
        req = soak.random_request(phones, r)
        if req is None:
            break
        try:
            await t.request(*req)
        except Exception:
            pass  # a refused action is part of the game too
        await _settle(clients)
    for c in clients:
        c.close()
    return _normalise(_Recorder.log, [t.code, t.host_token, *tokens])


@pytest.mark.parametrize("game", list(games()))
def test_same_messages_with_and_without(game: str) -> None:
    try:
        flet_fast.uninstall()
        flet_own = asyncio.run(_play(game, 25, seed=7))
        assert flet_fast.install()
        ours = asyncio.run(_play(game, 25, seed=7))
    finally:
        flet_fast.install()
    assert len(flet_own) > 20
    assert ours == flet_own


@pytest.mark.parametrize("game", list(games()))
def test_same_removed_controls(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The removed controls (taken out of the session's index, told they are unmounted) are not
    in the messages: every diff of a random game walks them both ways and gets the same list."""
    from flet.controls import object_patch as op

    compared = []

    def both(self: Any) -> Any:
        for key, dc in self._removed_dataclasses.items():
            recurse = key not in self._added_dataclasses
            op.DiffBuilder._removed_controls = flet_fast.ORIGINAL_REMOVED  # it calls itself for the children
            try:
                theirs = list(flet_fast.ORIGINAL_REMOVED(self, dc, recurse))
            finally:
                op.DiffBuilder._removed_controls = flet_fast.removed_controls
            ours = list(flet_fast.removed_controls(self, dc, recurse))
            compared.append(([id(c) for c in ours] == [id(c) for c in theirs], len(theirs)))
            yield from theirs
    monkeypatch.setattr(op.DiffBuilder, "get_removed_controls", both)
    asyncio.run(_play(game, 25, seed=5))
    assert len(compared) > 20 and sum(n for _, n in compared) > 100
    assert all(same for same, _ in compared)


def _dataclass_init(init: Any) -> Any:
    """The dataclass __init__ inside @value's wrapper (a control's __init__ is its own)."""
    for cell in init.__closure__ or ():
        if callable(cell.cell_contents) and getattr(cell.cell_contents, "__name__", "") == "__init__":
            return cell.cell_contents
    return init


def _built(cls: type, kwargs: dict[str, Any]) -> dict[str, Any]:
    c = cls(**kwargs)
    return {k: v for k, v in vars(c).items() if k != "_i"}


def test_same_constructors() -> None:
    """Every control class sped up takes the same parameters and builds the same control."""
    import inspect

    import flet as ft
    assert flet_fast.install()
    fast = dict(flet_fast._ORIGINAL_INITS)
    assert ft.Text in fast and ft.Container in fast and ft.ButtonStyle in fast and len(fast) > 40
    samples = [{}, {"expand": True, "key": "k", "data": 3}, {"width": 10.0, "visible": False, "opacity": 1.0},
               {"tooltip": "t", "col": 2, "disabled": True},
               {"size": 12, "weight": ft.FontWeight.BOLD, "color": "red", "radius": 3, "left": 1, "x": 0.5},
               {"shape": ft.RoundedRectangleBorder(radius=2), "text_style": ft.TextStyle(size=3), "top": 2.0}]
    compared = 0
    for cls, own in fast.items():
        ours = cls.__init__
        a, b = inspect.signature(inspect.unwrap(_dataclass_init(own))), inspect.signature(ours)
        assert [(p.name, p.kind) for p in a.parameters.values()] == \
            [(p.name, p.kind) for p in b.parameters.values()], cls
        assert all(p.default is b.parameters[p.name].default or p.default is inspect.Parameter.empty
                   or repr(p.default).startswith("<factory>") or "_HAS_DEFAULT_FACTORY" in repr(p.default)
                   for p in a.parameters.values()), cls
        for kwargs in samples:
            kwargs = {k: v for k, v in kwargs.items() if k in a.parameters}
            try:
                cls.__init__ = own
                want = _built(cls, kwargs)
            except Exception as e:  # noqa: BLE001 - then ours must refuse it the same way
                cls.__init__ = ours
                with pytest.raises(type(e)):
                    _built(cls, kwargs)
                continue
            finally:
                cls.__init__ = ours
            assert _built(cls, kwargs) == want, (cls, kwargs)
            compared += 1
    assert compared > 150


def test_another_flet_or_a_missing_private_name_falls_back_with_one_warning(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The patches check Flet's version before they touch a private name; another Flet, or one
    whose private names moved, runs stock – one warning, nothing half-installed, no error."""
    from flet.controls import object_patch

    flet_fast.uninstall()
    try:
        stock = object_patch.DiffBuilder._configure_dataclass
        monkeypatch.setattr(flet_fast, "_warned", False)
        monkeypatch.setattr(flet_fast, "flet_version", "1.1.0")
        with caplog.at_level("WARNING", logger="companion.flet_fast"):
            assert flet_fast.install() is False
            assert flet_fast.install() is False
        assert object_patch.DiffBuilder._configure_dataclass is stock
        assert [r.levelname for r in caplog.records] == ["WARNING"] and "1.1.0" in caplog.records[0].getMessage()
        monkeypatch.setattr(flet_fast, "flet_version", flet_fast.PINNED)
        monkeypatch.setattr(flet_fast, "_warned", False)
        monkeypatch.delattr(object_patch.DiffBuilder, "_removed_controls")  # a Flet that renamed it
        caplog.clear()
        with caplog.at_level("WARNING", logger="companion.flet_fast"):
            assert flet_fast.install() is False
        assert object_patch.DiffBuilder._configure_dataclass is stock
        assert "_removed_controls" in caplog.records[0].getMessage()
    finally:
        monkeypatch.undo()
        assert flet_fast.install()


def test_the_patches_can_be_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion import settings

    monkeypatch.setenv("COMPANION_FLET_PATCHES", "0")
    assert settings.current().flet_patches is False
    flet_fast.uninstall()
    try:
        assert flet_fast.install(settings.current().flet_patches) is False
        monkeypatch.setenv("COMPANION_FLET_PATCHES", "1")
        assert settings.current().flet_patches is True
    finally:
        assert flet_fast.install()


def test_flets_private_names_are_read_in_flet_fast_only() -> None:
    """Every private name of Flet the app uses sits behind flet_fast's version check: no other module
    imports or reads one (another Flet must not fail at import, nor half-work unnoticed)."""
    import re
    from pathlib import Path

    root = Path(flet_fast.__file__).resolve().parents[1]
    private = re.compile(r"_CURRENT_RENDERER|_Session__|_FletAppManager__|from flet[\w.]* import .*\b_[A-Za-z]")
    found = [f"{p.relative_to(root)}:{i}" for p in sorted(root.rglob("*.py")) if p.name != "flet_fast.py"
             for i, line in enumerate(p.read_text("utf-8").splitlines(), 1) if private.search(line)]
    assert found == []


def test_on_another_flet_the_private_names_fall_back_with_one_warning(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from types import SimpleNamespace

    from flet.components.utils import _CURRENT_RENDERER

    monkeypatch.setattr(flet_fast, "flet_version", "1.1.0")
    monkeypatch.setattr(flet_fast, "_private_warned", set())
    monkeypatch.setattr(flet_fast, "_RENDERER", flet_fast._renderer_var())
    session = SimpleNamespace(_Session__expires_at="later")
    manager = SimpleNamespace(_FletAppManager__sessions={"k": session})
    with caplog.at_level("WARNING", logger="companion.flet_fast"):
        for _ in range(2):
            assert flet_fast.expire(session) is False and session._Session__expires_at == "later"
            assert flet_fast.sessions_held(manager) == {}
            assert flet_fast.rendering() is False  # Flet's public current_renderer() answers instead
    token = _CURRENT_RENDERER.set(object())  # type: ignore[arg-type]
    try:
        assert flet_fast.rendering() is True
    finally:
        _CURRENT_RENDERER.reset(token)
    warned = sorted(r.getMessage().split()[2] for r in caplog.records)
    assert warned == ["FletAppManager.__sessions", "Session.__expires_at", "_CURRENT_RENDERER"]


def test_on_the_pinned_flet_the_private_names_are_used(monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    monkeypatch.setattr(flet_fast, "_private_warned", set())
    assert flet_fast.flet_version == flet_fast.PINNED and flet_fast._RENDERER is not None
    session = SimpleNamespace(_Session__expires_at=None)
    assert flet_fast.expire(session) is True and session._Session__expires_at is not None
    held = {"k": session}
    assert flet_fast.sessions_held(SimpleNamespace(_FletAppManager__sessions=held)) is held
    assert flet_fast.sessions_held(SimpleNamespace()) == {}  # a Flet that renamed it: none seen, no error
