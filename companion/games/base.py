"""The one small surface every game implements (see shared/guide/ARCHITECTURE.md).

A game is a module-level object (usually a module) exposing:

    ID: str                          stable id used in URLs, the registry and the log
    NAME: str                        i18n key of the game's display name
    MIN_SEATS, MAX_SEATS: int
    OPTIONS: list[Option]            table options the host may set before the start
    MESSAGES: dict[lang, dict[key, text]]   the game's own catalog ("en", "de", "fr")

    setup(options, seats, seed) -> state          deterministic for a given seed
    legal(state, seat) -> list[dict]              actions this seat may take now (seat None = host)
    apply(state, action) -> state                 validates; raises RuleError; never mutates its input
    view(state, seat) -> dict                     what that seat may see; None = public / host view
    result(state) -> dict | None                  final scores, ranks, tie-breaks once the game ended
                                                  (the game's own shape, read by its screens)
    outcome(state) -> Result | None               the same in ONE shape for every game (see Result)
    sample(state, seat, rng, legal=None)          optional: one random legal, concrete action or None
                                                  (tools: soak, property and fault tests), drawn from
                                                  `legal` (default legal(state, seat)); the default,
                                                  `sample_legal`, takes legal() entries as they are
                                                  (kinds weighted by an optional SAMPLE_WEIGHTS)
    sample_done(state) -> bool                    optional: a random game may stop (a game that
                                                  never ends by itself); default: result() not None
    over(state) -> bool                           optional: the game has ended by its own rules (its
                                                  history entry is written then); default: outcome()
                                                  not None. A game that never ends by itself (a
                                                  sealed vote) says False: it ends when the host ends it
    rounds(state) -> int                          optional: how many rounds were played (the history's
                                                  "rounds"); default: none known
    sealed_round(state) -> (key, round) | None    optional: the game's sealed round (sealed.py) in this
                                                  state, open or revealed, with a key that tells rounds
                                                  apart; None when there is none. With it:
    SEALED_CHOICES: frozenset[str]                the action types that are a seat's choice in that round
                                                  (submit, change, bribe, lock). The table's undo of an
                                                  action that revealed a round then reopens it with every
                                                  choice cleared (GameSpec.undo_reveal)
    ANYTIME: frozenset[str]                       optional: action types a seat may take at any time
                                                  (a game's gifts between seats): nobody waits for them
    answered(state, seat) -> bool                 optional: the seat has answered what this phase asks
                                                  of it and may only correct it (a score card already
                                                  sent): nobody waits for it. With ANYTIME it decides
                                                  `to_act` – a phone's turn mark, the shared device's cover

A game lives in one folder, companion/games/<id>/ (rules.py, screens.py, display.py, messages.py,
printing.py),
and its package exposes `SPEC = GameSpec(...)`; the registry (companion/games/__init__.py) finds
every sub-package with a SPEC. See docs/ADDING_A_GAME.md.

State is plain JSON-able data (dicts, lists, str, int, bool, None). Actions are dicts with a
"type" key; the table stamps "seat" (int index, or None for the host) from the authenticated
token, so a game never trusts a client-supplied seat. Randomness comes only from the seed
(see `rng`), so replaying the log gives the same state.
"""

from __future__ import annotations

import copy
import importlib
import marshal
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Protocol

State = dict[str, Any]
Action = dict[str, Any]


class RuleError(Exception):
    """An action the rules do not allow. `key` is a message-catalog key, `params` its values.

    The table turns it into a sentence in the player's language; str() gives English.
    """

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def __str__(self) -> str:  # English, for logs and tests
        from companion.i18n import t

        return t("en", self.key, **self.params)


@dataclass(frozen=True)
class Option:
    """A table option. kind: "choice" (choices), "int" (min/max), "bool", "text"."""

    name: str
    label: str  # i18n key
    kind: str
    default: Any
    choices: tuple[Any, ...] = ()
    min: int | None = None
    max: int | None = None
    help: str = ""  # i18n key, optional
    choice_labels: tuple[str, ...] = field(default=())  # i18n keys, parallel to choices

    def coerce(self, value: Any) -> Any:
        """Return the checked value or raise RuleError("err.option", ...)."""
        if value is None:
            return self.default
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no"):
                return value.lower() in ("true", "1", "yes")
            raise RuleError("err.option", option=self.name)
        if self.kind == "int":
            try:
                v = int(value)
            except (TypeError, ValueError):
                raise RuleError("err.option", option=self.name) from None
            if isinstance(value, bool) or (self.min is not None and v < self.min) or (
                self.max is not None and v > self.max
            ):
                raise RuleError("err.option", option=self.name)
            return v
        if self.kind == "choice":
            if value not in self.choices:
                raise RuleError("err.option", option=self.name)
            return value
        if self.kind == "text":
            if not isinstance(value, str) or len(value) > 200:
                raise RuleError("err.option", option=self.name)
            return value
        raise RuleError("err.option", option=self.name)


def resolve_options(specs: list[Option], given: dict[str, Any] | None) -> dict[str, Any]:
    """Defaults for every option, overridden by `given`; unknown names are refused."""
    given = dict(given or {})
    out: dict[str, Any] = {}
    names = {o.name for o in specs}
    for name in given:
        if name not in names:
            raise RuleError("err.option", option=str(name)[:40])
    for o in specs:
        out[o.name] = o.coerce(given.get(o.name))
    return out


class Game(Protocol):
    ID: str
    NAME: str
    MIN_SEATS: int
    MAX_SEATS: int
    OPTIONS: list[Option]
    MESSAGES: dict[str, dict[str, str]]

    def setup(self, options: dict[str, Any], seats: list[dict[str, Any]], seed: int) -> State: ...
    def legal(self, state: State, seat: int | None) -> list[Action]: ...
    def apply(self, state: State, action: Action) -> State: ...
    def view(self, state: State, seat: int | None) -> dict[str, Any]: ...
    def result(self, state: State) -> dict[str, Any] | None: ...
    def outcome(self, state: State) -> Result | None: ...


@dataclass(frozen=True)
class Result:
    """One result shape for every game: per seat (index 0..n-1) its rank, score and breakdown.

    ranks: 1 = first, tied seats share a rank (1, 1, 3). scores: the number the ranking is
    mostly built on (None where a game has none, e.g. a sealed vote). winners: seats ranked 1.
    breakdown: per seat {what: points} (catalog keys or plain labels the game's screens know).
    tie_break: catalog key of the sentence that explains how a tie was broken, or None.
    """

    ranks: tuple[int, ...]
    scores: tuple[int | float | None, ...]
    winners: tuple[int, ...]
    breakdown: tuple[Mapping[str, Any], ...] = ()
    tie_break: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-able data (exports)."""
        return {"ranks": list(self.ranks), "scores": list(self.scores), "winners": list(self.winners),
                "breakdown": [dict(b) for b in self.breakdown], "tie_break": self.tie_break}


def ranks_from(keys: list[Any]) -> tuple[int, ...]:
    """Competition ranks (1, 1, 3) from one sort key per seat, bigger = better."""
    return tuple(1 + sum(1 for other in keys if other > k) for k in keys)


def to_act(game: Any, state: State, seat: int, legal: list[Action]) -> bool:
    """Has `seat` something to do now – does the table wait for it? A legal action other than the
    game's "any time" ones (ANYTIME), unless the game says the seat has answered this phase already
    (`answered`: what it may still do is a correction). Public: whom the table waits for is shown."""
    answered = getattr(game, "answered", None)
    if answered is not None and answered(state, seat):
        return False
    anytime = getattr(game, "ANYTIME", frozenset())
    return any(a.get("type") not in anytime for a in legal)


Filler = Callable[[State, Any, Action, random.Random], Any]  # (state, seat, entry, rng) -> action | None


def sample_legal(legal: list[Action], rng: random.Random, *, state: State | None = None,
                 seat: int | None = None, weights: Mapping[str, float] | None = None,
                 fill: Filler | None = None, tries: int = 4) -> Action | None:
    """A random concrete action from legal() entries, or None (nothing to do / nothing drawn).

    A kind ("type") is drawn first (by `weights`, default 1 each), then one entry of that kind;
    "seat" is dropped (the table stamps it). `fill(state, seat, entry, rng)` turns a template
    into a concrete action (or None: try again, up to `tries` times). Without a filler the entry
    is taken as it is – enough for a game whose legal() lists concrete actions.
    """
    if not legal:
        return None
    kinds = sorted({a["type"] for a in legal})
    w = weights or {}
    for _ in range(tries):
        kind = rng.choices(kinds, weights=[w.get(k, 1.0) for k in kinds])[0]
        entry = rng.choice([a for a in legal if a["type"] == kind])
        entry = {k: v for k, v in entry.items() if k != "seat"}
        out = fill(state if state is not None else {}, seat, entry, rng) if fill is not None else entry
        if out is not None:
            return out
    return None


@dataclass(frozen=True)
class GameSpec:
    """Everything the platform and the tools know about one game (its folder's `SPEC`).

    id: stable id (URLs, registry, log). rules: the module with the Game protocol below.
    screens: module path of phone(ctx), host(ctx), result(ctx) (imported on first use: it
    imports Flet). display: module path of the game's part of the table display (`board(ctx, width)`,
    `status(ctx)`, `moment(ctx)`, `yours(ctx, moment)`: companion/ui/views/display.py), or None (the
    display shows the seat chips and the last log lines). catalog: {lang: {key: text}} for rules,
    screens and printed texts. printing: module path of the printed material (`TITLE`,
    `items(lang=..., **options) -> [Deck | Board]`, renderers, optional `OPTIONS` and `PREVIEWS`:
    companion/printing/decks.py), or None.
    testing: module path of what the generic tests need to know about the game's secrets
    (`secret_twin(state, k)`, `twin_deal(...)`: see tests/reliability/test_security.py and
    tests/test_secrecy_twins.py), or None (every secret is a sealed submission).
    order: place in the host's game list (smaller first; ties by id).
    test_only: registered only by tests (never in the product's game list).
    """

    id: str
    rules: Any
    screens: str
    catalog: Mapping[str, Mapping[str, str]]
    printing: str | None = None
    testing: str | None = None
    display: str | None = None
    order: int = 100
    test_only: bool = False

    def screen_module(self) -> ModuleType:
        return importlib.import_module(self.screens)

    def display_module(self) -> ModuleType | None:
        """The game's display module (imported on first use: it imports Flet), or None."""
        return importlib.import_module(self.display) if self.display else None

    def printing_module(self) -> ModuleType | None:
        return importlib.import_module(self.printing) if self.printing else None

    def testing_hook(self, name: str) -> Any:
        """A function of the game's `testing` module, or None."""
        return getattr(importlib.import_module(self.testing), name, None) if self.testing else None

    def sample(self, state: State, seat: int | None, rng: random.Random,
               legal: list[Action] | None = None) -> Action | None:
        """A random legal concrete action for `seat` (None = host) in `state`, or None.

        `legal`: draw from these legal() entries only (default: all of legal(state, seat))."""
        own = getattr(self.rules, "sample", None)
        if own is not None:
            return own(state, seat, rng, legal)
        return sample_legal(self.rules.legal(state, seat) if legal is None else legal, rng, state=state, seat=seat,
                            weights=getattr(self.rules, "SAMPLE_WEIGHTS", None))

    def outcome(self, state: State) -> Result | None:
        return self.rules.outcome(state)

    def over(self, state: State) -> bool:
        """The game has ended by its own rules: its rules' `over(state)`, default outcome() not None."""
        own = getattr(self.rules, "over", None)
        if own is not None:
            return bool(own(state))
        return self.rules.outcome(state) is not None

    def rounds(self, state: State) -> int | None:
        """Rounds played so far, from the rules' `rounds(state)`; None for a game without one."""
        own = getattr(self.rules, "rounds", None)
        return None if own is None else int(own(state))

    def sealed_round(self, state: State) -> tuple[Any, dict[str, Any]] | None:
        """The game's sealed round in `state` as (key telling rounds apart, round dict), open or
        revealed, from the rules' `sealed_round(state)`; None: none now (or a game without one)."""
        own = getattr(self.rules, "sealed_round", None)
        return None if own is None else own(state)

    def undo_reveal(self, replay: Callable[[list[Action]], State], actions: list[Action], before: State,
                    after: State) -> tuple[list[Action], State] | None:
        """Undo of the last of `actions` when it revealed a sealed round: (the actions left, their
        state) – without the reveal and without every choice of that round (the rules'
        `SEALED_CHOICES`), so the round is open again with no choice made and everyone chooses
        again. None: the last action revealed nothing (an undo just drops it). `before`/`after`:
        the states before and after the last action; `replay(actions)`: setup + those actions.
        Raises RuleError("tbl.err.undo_reveal") where the round cannot be reopened cleanly (the
        actions left do not replay, or the round would not be open and empty)."""
        from companion.games import sealed

        find = getattr(self.rules, "sealed_round", None)
        if find is None or not actions or not sealed.revealed_by(find(before), find(after)):
            return None
        states = [replay([])]
        for a in actions[:-1]:
            states.append(self.rules.apply(states[-1], a))
        drop = set(sealed.round_choices(states, actions, find, getattr(self.rules, "SEALED_CHOICES", ())))
        drop.add(len(actions) - 1)
        kept = [a for i, a in enumerate(actions) if i not in drop]
        try:
            state = replay(kept)
        except Exception:  # an action left that needed a choice taken back
            raise RuleError("tbl.err.undo_reveal") from None
        again = find(state)
        if not sealed.is_open(again) or again is None or again[1]["choices"] or again[1]["locked"]:
            raise RuleError("tbl.err.undo_reveal")
        return kept, state

    def done(self, state: State) -> bool:
        """A random game has played enough: the game ended, or (a game that never ends by
        itself, such as a sealed vote) its rules' `sample_done(state)` says so."""
        own = getattr(self.rules, "sample_done", None)
        if own is not None:
            return bool(own(state))
        return self.rules.result(state) is not None


def rng(state: State, purpose: str = "") -> random.Random:
    """A deterministic RNG for the next random draw; bumps state["rng_n"].

    Call on the *new* state inside apply (after copying). Same seed + same actions = same draws.
    """
    n = state.get("rng_n", 0)
    state["rng_n"] = n + 1
    return random.Random(f"{state['seed']}:{n}:{purpose}")


def clone(state: State, append_only: tuple[str, ...] = ()) -> State:
    """Deep copy for apply(): rules never mutate the state they were given.

    marshal round-trips plain data (dict/list/str/int/bool/None, also tuples and sets) about
    3x faster than copy.deepcopy; a restart replays every action of a table through apply(),
    so this is most of the replay time (benchmarks/restart.py). Anything marshal refuses
    falls back to deepcopy.

    `append_only` names top-level lists (a game's log, a history of rounds) – or dicts of such
    lists (one private log per seat) – whose entries are never changed once written: the copy gets a new list holding the same entries, so an
    apply() late in a long game does not copy everything that happened before (a 1,000-action
    replay would otherwise be quadratic). The rule that uses this must only append to them.
    """
    if append_only:
        rest = {k: v for k, v in state.items() if k not in append_only}
        new = clone(rest)
        for k in append_only:
            v = state.get(k)
            if isinstance(v, dict):
                new[k] = {key: list(items) for key, items in v.items()}
            elif v is not None:
                new[k] = list(v)
        return new
    try:
        return marshal.loads(marshal.dumps(state))
    except ValueError:
        return copy.deepcopy(state)


def require(cond: bool, key: str, **params: Any) -> None:
    if not cond:
        raise RuleError(key, **params)


def check_int(value: Any, lo: int, hi: int, key: str = "err.range") -> int:
    """An int from a client payload within [lo, hi], or RuleError (bools and floats refused)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError("err.not_a_number")
    if value < lo or value > hi:
        raise RuleError(key, lo=lo, hi=hi)
    return value
