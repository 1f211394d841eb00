"""Lutèce (Nicolas Sato, Superlude 2015): the pure rules the companion stands in for.

The physical character and place cards stay on the table; this module never knows what they
show. Each displayed card is a *slot* (letters A.. for characters, numerals I.. for places)
with the cost the host enters when the card is put out (0–3, default 0) and the pile of coins
lying on it. The app replaces the action cards (secret choice of 2), the bribes, the
resolution of every slot, the gold ledger, end-of-game detection and the scorer (scoring.py).
Reference: shared/rules/lutece.md and the French publisher text (seed 001).

Phases: "choose" (pick 2 action cards + bribe, sealed) -> reveal + resolve (automatic when
every seat has locked, or forced by the host) -> "refill" (host enters the cost of every new
card, answers "Can the decks refill?") -> "choose" ... -> "scoring" (score cards) -> "over".

Decisions where the sources are silent (documented here and in the MESSAGES texts):
- Bribes are placed after choosing; in `open` mode the coins leave the purse at once and the
  count on each face-down card is public; once a seat has put a coin down its two cards are
  fixed. In `sealed` mode the amounts are reserved from the purse secretly, may be cleared and
  re-placed until the seat locks, and the public purse still shows the amount before bribes.
- A bribe may be put on a Revenus card (a bluff); at the reveal it goes back to its owner.
- Revenus (+3) are paid at the reveal, in seat order from the start player, before any slot
  is resolved: they cannot fund this round's bribes but can pay card costs.
- Slots are resolved one by one (A→E, then I→V); gold won or refunded on an earlier slot is
  available for a later slot's cost. The winner takes the coins lying on the card first, then
  pays the cost (so those coins count towards it); a sole claimant with `sole_bribe=refund`
  gets the stake back before paying.
- Winner cannot pay the cost: they do not take the card, get their stake back +1 (as if
  outbid), and the *next-highest* claimant is considered under the same rules (tie handling
  included). If no claimant remains, the card stays and gains +1 like an unclaimed card.
- Bribe tie with `bribe_tie=seat_order`: the first tied seat counting from the start player.
- Finite bank (46 coins): players get their 5 from it. When it runs dry the bank pays what it
  still has, in the order things happen (Revenus in seat order, then slot by slot); a bonus or
  card coin that cannot be paid is skipped and the log says so. Costs and bribes refill it.
  Unlimited bank: the same ledger, whose balance may go negative (coins minted).
- Deck sizes (`characters_deck`, `places_deck`) are the cards left in the draw pile after
  the first display (0 = unknown). Known: the app counts down and the game ends after the
  resolution of a round whose emptied slots that deck cannot refill. Unknown (either deck):
  every round the refill step asks the host "Can the decks refill?" (next round / end game).
- The host may always end the game at the refill step.
"""

from __future__ import annotations

import random
from typing import Any

from companion.games import base, sealed
from companion.games.base import Action, Option, RuleError, State, check_int, clone, require
from companion.games.lutece.messages import MESSAGES
from companion.games.lutece.scoring import (
    MAX_COUNT,
    MAX_PLACE_POINTS,
    RESOURCES,
    outcome,
    resource_points,
    result,
    rounds,
    score_table,
)

__all__ = ["MESSAGES", "ID", "NAME", "MIN_SEATS", "MAX_SEATS", "OPTIONS", "outcome", "rounds", "sample",
           "setup", "legal", "apply", "view", "result",
           # the score cards (scoring.py), read by the screens and tests
           "RESOURCES", "resource_points", "score_table"]

ID = "lutece"
NAME = "lutece.name"
MIN_SEATS = 2
MAX_SEATS = 5

LETTERS = ["A", "B", "C", "D", "E"]
NUMERALS = ["I", "II", "III", "IV", "V"]
REVENUS = "R"
CARD_KEY = "lutece.card.R"  # catalog key of the Revenus card's name (log params)
REVENUS_GOLD = 3
START_GOLD = 5
FINITE_BANK = 46
MAX_COST = 3

OPTIONS: list[Option] = [
    Option("bribes", "lutece.opt.bribes", "choice", "open", choices=("open", "sealed"),
           choice_labels=("lutece.opt.bribes.open", "lutece.opt.bribes.sealed"),
           help="lutece.opt.bribes.help"),
    Option("bank", "lutece.opt.bank", "choice", "unlimited", choices=("unlimited", "46"),
           choice_labels=("lutece.opt.bank.unlimited", "lutece.opt.bank.46"),
           help="lutece.opt.bank.help"),
    Option("sole_bribe", "lutece.opt.sole_bribe", "choice", "bank", choices=("bank", "refund"),
           choice_labels=("lutece.opt.sole_bribe.bank", "lutece.opt.sole_bribe.refund"),
           help="lutece.opt.sole_bribe.help"),
    Option("bribe_tie", "lutece.opt.bribe_tie", "choice", "nobody", choices=("nobody", "seat_order"),
           choice_labels=("lutece.opt.bribe_tie.nobody", "lutece.opt.bribe_tie.seat_order"),
           help="lutece.opt.bribe_tie.help"),
    Option("all_equal", "lutece.opt.all_equal", "choice", 4, choices=(4, 10, 0),
           choice_labels=("lutece.opt.all_equal.4", "lutece.opt.all_equal.10", "lutece.opt.all_equal.0"),
           help="lutece.opt.all_equal.help"),
    Option("characters_deck", "lutece.opt.characters_deck", "int", 0, min=0, max=40,
           help="lutece.opt.deck.help"),
    Option("places_deck", "lutece.opt.places_deck", "int", 0, min=0, max=34,
           help="lutece.opt.deck.help"),
    sealed.UNLOCKED_OPTION,  # an early reveal: picks never locked not counted (default) or marked
]


# --------------------------------------------------------------------------- setup

def slot_ids(n: int) -> tuple[list[str], list[str]]:
    k = 3 if n <= 3 else n
    return LETTERS[:k], NUMERALS[:k]


def setup(options: dict[str, Any], seats: list[dict[str, Any]], seed: int) -> State:
    from companion.games.base import resolve_options

    # (a table created before the "unlocked" option has none in its log: it counted them)
    opts = resolve_options(OPTIONS, {"unlocked": sealed.UNLOCKED_BEFORE, **(options or {})})
    n = len(seats)
    require(MIN_SEATS <= n <= MAX_SEATS, "lutece.err.seats", lo=MIN_SEATS, hi=MAX_SEATS)
    letters, numerals = slot_ids(n)
    bank = FINITE_BANK if opts["bank"] == "46" else 0
    bank -= START_GOLD * n
    state: State = {
        "game": ID,
        "seed": seed,
        "rng_n": 0,
        "options": opts,
        "names": [str(s.get("name", f"#{i + 1}")) for i, s in enumerate(seats)],
        "colours": [str(s.get("colour", "")) for s in seats],
        "letters": letters,
        "numerals": numerals,
        "slots": {sid: {"cost": 0, "coins": 0, "pending": False} for sid in letters + numerals},
        "gold": [START_GOLD] * n,
        "bank": bank,
        "decks": {
            "characters": opts["characters_deck"] or None,
            "places": opts["places_deck"] or None,
        },
        "phase": "choose",
        "round": 1,
        "start": 0,
        "sealed": sealed.new_round(list(range(n))),
        "stakes": {},
        "revealed": None,
        "resolution": [],
        "emptied": [],
        "takers": {},
        "taken": [[] for _ in range(n)],
        "ask_decks": False,
        "scores": {},
        "end_reason": None,
        "log": [],
    }
    _log(state, "lutece.ev.round", round=1, start=state["names"][0])
    return state


# --------------------------------------------------------------------------- helpers

def _n(state: State) -> int:
    return len(state["names"])


def _order(state: State) -> list[str]:
    return state["letters"] + state["numerals"]


def _hand(state: State) -> list[str]:
    return state["letters"] + state["numerals"] + [REVENUS, REVENUS]


def _log(state: State, key: str, **params: Any) -> dict[str, Any]:
    ev = {"key": key, "params": params}
    state["log"].append(ev)
    return ev


def _event(state: State, key: str, **params: Any) -> None:
    state["resolution"].append(_log(state, key, **params))


def _seat_order_from_start(state: State) -> list[int]:
    n = _n(state)
    return [(state["start"] + i) % n for i in range(n)]


def _finite(state: State) -> bool:
    return state["options"]["bank"] == "46"


def _bank_pay(state: State, amount: int) -> int:
    """Take up to `amount` coins out of the bank; returns what it actually paid."""
    if _finite(state):
        amount = max(0, min(amount, state["bank"]))
    state["bank"] -= amount
    return amount


def _stakes(state: State, seat: int) -> list[int]:
    return state["stakes"].get(str(seat), [0, 0])


def _pick(state: State, seat: int) -> list[str] | None:
    return sealed.choice(state["sealed"], seat)


def gold_total(state: State) -> int:
    """Every coin in the game: purses + stakes + coins on cards + bank (for conservation checks)."""
    return (
        sum(state["gold"])
        + sum(sum(v) for v in state["stakes"].values())
        + sum(s["coins"] for s in state["slots"].values())
        + state["bank"]
    )


def _check_seat(state: State, seat: Any) -> int | None:
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < _n(state):
        raise RuleError("err.seat_only")
    return seat


def _player(state: State, seat: int | None) -> int:
    if seat is None:
        raise RuleError("err.seat_only")
    return seat


def _host(seat: int | None) -> None:
    if seat is not None:
        raise RuleError("err.host_only")


# --------------------------------------------------------------------------- apply

def apply(state: State, action: Action) -> State:
    if not isinstance(action, dict):
        raise RuleError("err.unknown_action")
    kind = action.get("type")
    handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise RuleError("err.unknown_action")
    if state["phase"] == "over":
        raise RuleError("err.game_over")
    seat = _check_seat(state, action.get("seat"))
    new = _clone(state)
    handler(new, seat, action)
    return new


def _clone(state: State) -> State:
    """base.clone with the append-only parts shared: the log, and the cards each seat has taken
    (one list per seat; entries are only ever appended, never changed). Copying them whole on
    every apply() made a long game's replay grow faster than linearly (benchmarks/restart.py)."""
    taken = state["taken"]
    new = clone({k: v for k, v in state.items() if k != "taken"}, append_only=("log",))
    new["taken"] = [list(x) for x in taken]
    return {k: new[k] for k in state}


def _in_phase(state: State, *phases: str) -> None:
    if state["phase"] not in phases:
        raise RuleError("err.not_now")


def _slot_arg(state: State, value: Any) -> str:
    if not isinstance(value, str) or value not in state["slots"]:
        raise RuleError("lutece.err.no_slot", slot=str(value)[:8])
    return value


def _do_set_cost(state: State, seat: int | None, action: Action) -> None:
    _in_phase(state, "choose", "refill")
    slot = _slot_arg(state, action.get("slot"))
    if seat is not None:
        # whoever took the card from this slot may enter the new card's cost
        if not (state["phase"] == "refill" and state["takers"].get(slot) == seat):
            raise RuleError("err.host_only")
    cost = check_int(action.get("cost"), 0, MAX_COST)
    if state["phase"] == "choose" and state["sealed"]["revealed"]:
        raise RuleError("err.not_now")
    sd = state["slots"][slot]
    sd["cost"] = cost
    was_pending = sd["pending"]
    sd["pending"] = False
    _log(state, "lutece.ev.new_card" if was_pending else "lutece.ev.set_cost", slot=slot, cost=cost)


def _check_cards(state: State, cards: Any) -> list[str]:
    if not isinstance(cards, list) or len(cards) != 2:
        raise RuleError("lutece.err.two_cards")
    hand = _hand(state)
    for c in cards:
        if not isinstance(c, str) or c not in hand:
            raise RuleError("lutece.err.no_card", card=str(c)[:8])
        if cards.count(c) > hand.count(c):
            raise RuleError("lutece.err.two_cards")
    return [str(c) for c in cards]


def _do_pick(state: State, seat: int | None, action: Action) -> None:
    _in_phase(state, "choose")
    s = _player(state, seat)
    cards = _check_cards(state, action.get("cards"))
    rnd = state["sealed"]
    if rnd["revealed"]:
        raise RuleError("err.already_revealed")
    if s in rnd["locked"]:
        raise RuleError("err.already_locked")
    stakes = _stakes(state, s)
    if sum(stakes):
        if state["options"]["bribes"] == "open":
            raise RuleError("lutece.err.pick_fixed")
        # sealed: a new choice takes the reserved coins back
        state["gold"][s] += sum(stakes)
        state["stakes"].pop(str(s), None)
    sealed.submit(rnd, s, cards)


def _do_bribe(state: State, seat: int | None, action: Action) -> None:
    _in_phase(state, "choose")
    s = _player(state, seat)
    rnd = state["sealed"]
    if rnd["revealed"]:
        raise RuleError("err.already_revealed")
    if s in rnd["locked"]:
        raise RuleError("err.already_locked")
    if _pick(state, s) is None:
        raise RuleError("lutece.err.pick_first")
    card = action.get("card")
    if isinstance(card, bool) or not isinstance(card, int) or card not in (0, 1):
        raise RuleError("lutece.err.no_card", card=str(card)[:8])
    amount = action.get("amount")
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise RuleError("err.not_a_number")
    if amount < 1:
        raise RuleError("lutece.err.bribe_positive")
    purse = state["gold"][s]
    if amount > purse:
        raise RuleError("lutece.err.bribe_purse", gold=purse, amount=amount)
    stakes = list(_stakes(state, s))
    stakes[card] += amount
    state["stakes"][str(s)] = stakes
    state["gold"][s] -= amount


def _do_clear_bribes(state: State, seat: int | None, action: Action) -> None:
    _in_phase(state, "choose")
    s = _player(state, seat)
    if state["options"]["bribes"] == "open":
        raise RuleError("lutece.err.only_add")
    rnd = state["sealed"]
    if rnd["revealed"]:
        raise RuleError("err.already_revealed")
    if s in rnd["locked"]:
        raise RuleError("err.already_locked")
    stakes = _stakes(state, s)
    if not sum(stakes):
        raise RuleError("err.not_now")
    state["gold"][s] += sum(stakes)
    state["stakes"].pop(str(s), None)


def _do_lock(state: State, seat: int | None, action: Action) -> None:
    _in_phase(state, "choose")
    s = _player(state, seat)
    rnd = state["sealed"]
    sealed.lock(rnd, s)
    _log(state, "lutece.ev.locked", name=state["names"][s], seat=s)
    if sealed.all_locked(rnd):
        _reveal_and_resolve(state)


def _do_reveal(state: State, seat: int | None, action: Action) -> None:
    _in_phase(state, "choose")
    _host(seat)
    rnd = state["sealed"]
    if rnd["revealed"]:
        raise RuleError("err.already_revealed")
    _log(state, "lutece.ev.forced")
    _reveal_and_resolve(state)


def _do_next_round(state: State, seat: int | None, action: Action) -> None:
    _in_phase(state, "refill")
    _host(seat)
    pending = [sid for sid in _order(state) if state["slots"][sid]["pending"]]
    if pending:
        raise RuleError("lutece.err.costs_missing", slots=", ".join(pending))
    n = _n(state)
    state["start"] = (state["start"] + 1) % n
    state["round"] += 1
    state["phase"] = "choose"
    state["sealed"] = sealed.new_round(list(range(n)))
    state["stakes"] = {}
    state["revealed"] = None
    state["resolution"] = []
    state["emptied"] = []
    state["takers"] = {}
    state["ask_decks"] = False
    _log(state, "lutece.ev.round", round=state["round"], start=state["names"][state["start"]])


def _do_end_game(state: State, seat: int | None, action: Action) -> None:
    _in_phase(state, "refill")
    _host(seat)
    _enter_scoring(state, "host")


def _enter_scoring(state: State, reason: str, **params: Any) -> None:
    state["phase"] = "scoring"
    state["end_reason"] = {"reason": reason, **params}
    for sid in _order(state):
        state["slots"][sid]["pending"] = False
    if reason == "host":
        _log(state, "lutece.ev.end_host")
    else:
        _log(state, f"lutece.ev.end_deck_{params['deck']}", needed=params["needed"], left=params["left"])


def _do_score(state: State, seat: int | None, action: Action) -> None:
    _in_phase(state, "scoring")
    target = seat
    if seat is None:
        target = action.get("for")
        if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < _n(state):
            raise RuleError("lutece.err.for_seat")
    entry: dict[str, int] = {}
    for r in RESOURCES:
        entry[r] = check_int(action.get(r), 0, MAX_COUNT)
    entry["places"] = check_int(action.get("places"), 0, MAX_PLACE_POINTS)
    state["scores"][str(target)] = entry
    _log(state, "lutece.ev.score_entered", name=state["names"][target], seat=target)


def _do_confirm(state: State, seat: int | None, action: Action) -> None:
    _in_phase(state, "scoring")
    _host(seat)
    missing = [state["names"][i] for i in range(_n(state)) if str(i) not in state["scores"]]
    if missing:
        raise RuleError("lutece.err.scores_missing", names=", ".join(missing))
    state["phase"] = "over"
    res = result(state)
    assert res is not None
    _log(state, "lutece.ev.over", names=", ".join(state["names"][w] for w in res["winners"]))


_HANDLERS = {
    "set_cost": _do_set_cost,
    "pick": _do_pick,
    "bribe": _do_bribe,
    "clear_bribes": _do_clear_bribes,
    "lock": _do_lock,
    "reveal": _do_reveal,
    "next_round": _do_next_round,
    "end_game": _do_end_game,
    "score": _do_score,
    "confirm_scores": _do_confirm,
}


# --------------------------------------------------------------------------- reveal & resolve

def _reveal_and_resolve(state: State) -> None:
    rnd = state["sealed"]
    rule = state["options"].get("unlocked", sealed.UNLOCKED_BEFORE)
    dropped = [s for s in range(_n(state)) if _pick(state, s) is not None and s not in rnd["locked"]] \
        if rule == "drop" else []
    for s in dropped:  # an early reveal: a choice never locked does not count – its coins go back
        state["gold"][s] += sum(_stakes(state, s))
        state["stakes"].pop(str(s), None)
    sealed.reveal(rnd, rule)
    unlocked = set(sealed.unlocked(rnd))  # counted, never locked: marked wherever shown
    names = state["names"]
    state["resolution"] = []
    plays: dict[str, dict[str, Any]] = {}
    for s in range(_n(state)):
        cards = _pick(state, s)
        stakes = _stakes(state, s)
        plays[str(s)] = {"cards": list(cards) if cards else [], "stakes": list(stakes) if cards else [0, 0]}
        if s in unlocked:
            plays[str(s)]["unlocked"] = True
        if cards:
            shown = [CARD_KEY if c == REVENUS else c for c in cards]  # the UI translates the key
            _event(state, "lutece.ev.played_unlocked" if s in unlocked else "lutece.ev.played", name=names[s],
                   seat=s, card1=shown[0], bribe1=stakes[0], card2=shown[1], bribe2=stakes[1])
        elif s in dropped:
            _event(state, "lutece.ev.not_counted", name=names[s], seat=s)
        else:
            _event(state, "lutece.ev.played_nothing", name=names[s], seat=s)
    state["revealed"] = plays
    # Revenus first (bluff stakes on them go back)
    for s in _seat_order_from_start(state):
        cards = _pick(state, s) or []
        stakes = _stakes(state, s)
        for i, c in enumerate(cards):
            if c != REVENUS:
                continue
            if stakes[i]:
                state["gold"][s] += stakes[i]
                _event(state, "lutece.ev.bluff_back", name=names[s], seat=s, amount=stakes[i])
                stakes[i] = 0
            paid = _bank_pay(state, REVENUS_GOLD)
            state["gold"][s] += paid
            if paid == REVENUS_GOLD:
                _event(state, "lutece.ev.revenus", name=names[s], seat=s, amount=paid)
            else:
                _event(state, "lutece.ev.revenus_short", name=names[s], seat=s, amount=paid,
                       full=REVENUS_GOLD)
        if str(s) in state["stakes"]:
            state["stakes"][str(s)] = stakes
    # slots in order
    for sid in _order(state):
        claims = []
        for s in _seat_order_from_start(state):
            cards = _pick(state, s) or []
            if sid in cards:
                i = cards.index(sid)
                claims.append((s, _stakes(state, s)[i]))
                if str(s) in state["stakes"]:
                    state["stakes"][str(s)][i] = 0
        _resolve_slot(state, sid, claims)
    state["stakes"] = {}
    # end check / refill
    emptied = state["emptied"]
    need = {
        "characters": sum(1 for sid in emptied if sid in state["letters"]),
        "places": sum(1 for sid in emptied if sid in state["numerals"]),
    }
    for deck in ("characters", "places"):
        left = state["decks"][deck]
        if left is not None and need[deck] > left:
            _enter_scoring(state, "deck", deck=deck, needed=need[deck], left=left)
            return
    for deck in ("characters", "places"):
        if state["decks"][deck] is not None:
            state["decks"][deck] -= need[deck]
    state["ask_decks"] = any(state["decks"][d] is None for d in need)
    for sid in emptied:
        state["slots"][sid]["pending"] = True
    state["phase"] = "refill"


def _resolve_slot(state: State, sid: str, claims: list[tuple[int, int]]) -> None:
    names = state["names"]
    opts = state["options"]
    sd = state["slots"][sid]
    cost = sd["cost"]
    if not claims:
        _card_coin(state, sid, "lutece.ev.unclaimed")
        return
    for s, stake in claims:
        _event(state, "lutece.ev.claim", slot=sid, name=names[s], seat=s, bribe=stake)
    sole = len(claims) == 1
    remaining = list(claims)  # seat order from the start player
    winner: int | None = None
    while remaining:
        top = max(st for _, st in remaining)
        tied = [c for c in remaining if c[1] == top]
        if len(tied) > 1:
            tied_names = ", ".join(names[s] for s, _ in tied)
            if opts["bribe_tie"] == "nobody":
                _event(state, "lutece.ev.tie_nobody", slot=sid, names=tied_names, bribe=top)
                break
            cand = tied[0]  # remaining keeps seat order from the start player
            _event(state, "lutece.ev.tie_seat_order", slot=sid, names=tied_names, bribe=top,
                   name=names[cand[0]], seat=cand[0])
        else:
            cand = tied[0]
        s, stake = cand
        remaining.remove(cand)
        to_bank = stake
        if sole and opts["sole_bribe"] == "refund" and stake:
            state["gold"][s] += stake
            _event(state, "lutece.ev.sole_refund", slot=sid, name=names[s], seat=s, bribe=stake)
            to_bank = 0
            stake = 0
        available = state["gold"][s] + sd["coins"]
        if available < cost:
            state["gold"][s] += stake
            bonus = _bank_pay(state, 1)
            state["gold"][s] += bonus
            _event(state, "lutece.ev.cannot_pay", slot=sid, name=names[s], seat=s, cost=cost,
                   gold=available, bribe=stake, bonus=bonus)
            continue
        coins = sd["coins"]
        sd["coins"] = 0
        state["bank"] += to_bank + cost
        state["gold"][s] += coins - cost
        winner = s
        key = "lutece.ev.take_sole" if sole else "lutece.ev.take"
        _event(state, key, slot=sid, name=names[s], seat=s, bribe=to_bank, cost=cost, coins=coins)
        break
    for s, stake in remaining:
        bonus = _bank_pay(state, 1)
        state["gold"][s] += stake + bonus
        key = "lutece.ev.refund" if winner is not None else "lutece.ev.refund_tie"
        _event(state, key if bonus else key + "_no_bonus", slot=sid, name=names[s], seat=s, bribe=stake,
               bonus=bonus)
    if winner is None:
        _card_coin(state, sid, "lutece.ev.card_coin")
    else:
        state["emptied"].append(sid)
        state["takers"][sid] = winner
        state["taken"][winner].append({"slot": sid, "round": state["round"], "cost": cost})


def _card_coin(state: State, sid: str, key: str) -> None:
    sd = state["slots"][sid]
    paid = _bank_pay(state, 1)
    sd["coins"] += paid
    if paid:
        _event(state, key, slot=sid, coins=sd["coins"])
    else:
        _event(state, "lutece.ev.bank_empty_card", slot=sid, coins=sd["coins"])


# --------------------------------------------------------------------------- legal

def _pick_options(state: State) -> list[list[str]]:
    hand = _hand(state)
    out: list[list[str]] = []
    seen: set[tuple[str, str]] = set()
    for i in range(len(hand)):
        for j in range(len(hand)):
            if i == j:
                continue
            key = (hand[i], hand[j])
            if key in seen:
                continue
            seen.add(key)
            out.append([hand[i], hand[j]])
    return out


def _can_change_pick(state: State, seat: int) -> bool:
    rnd = state["sealed"]
    if rnd["revealed"] or seat in rnd["locked"]:
        return False
    return not (state["options"]["bribes"] == "open" and sum(_stakes(state, seat)))


def legal(state: State, seat: int | None) -> list[Action]:
    phase = state["phase"]
    out: list[Action] = []
    if phase == "over":
        return out
    if seat is None:
        if phase in ("choose", "refill") and not (phase == "choose" and state["sealed"]["revealed"]):
            slots = _order(state)
            if phase == "refill":
                pending = [s for s in slots if state["slots"][s]["pending"]]
                slots = pending + [s for s in slots if s not in pending]
            for sid in slots:
                for c in range(MAX_COST + 1):
                    out.append({"type": "set_cost", "slot": sid, "cost": c})
        if phase == "choose":
            out.append({"type": "reveal"})
        elif phase == "refill":
            if not any(state["slots"][s]["pending"] for s in _order(state)):
                out.append({"type": "next_round"})
            out.append({"type": "end_game"})
        elif phase == "scoring":
            if all(str(i) in state["scores"] for i in range(_n(state))):
                out.append({"type": "confirm_scores"})
            out.append({"type": "score", "for": list(range(_n(state))), **_score_template()})
        return out
    if phase == "choose":
        rnd = state["sealed"]
        if rnd["revealed"] or seat in rnd["locked"]:
            return out
        if _can_change_pick(state, seat):
            out.extend({"type": "pick", "cards": p} for p in _pick_options(state))
        if _pick(state, seat) is not None:
            for card in (0, 1):
                for a in range(1, state["gold"][seat] + 1):
                    out.append({"type": "bribe", "card": card, "amount": a})
            if state["options"]["bribes"] == "sealed" and sum(_stakes(state, seat)):
                out.append({"type": "clear_bribes"})
            out.append({"type": "lock"})
    elif phase == "refill":
        for sid, taker in state["takers"].items():
            if taker == seat and state["slots"][sid]["pending"]:
                for c in range(MAX_COST + 1):
                    out.append({"type": "set_cost", "slot": sid, "cost": c})
    elif phase == "scoring":
        out.append({"type": "score", **_score_template()})
    return out


def answered(state: State, seat: int) -> bool:
    """A seat whose score card is in has answered the scoring (it may still correct it until the
    host confirms): nobody waits for it (the host lists whose cards are still missing)."""
    return state["phase"] == "scoring" and str(seat) in state["scores"]


SEALED_CHOICES = frozenset({"pick", "bribe", "clear_bribes", "lock"})  # a seat's choices in a round


def sealed_round(state: State) -> tuple[Any, dict[str, Any]]:
    """The round's sealed picks and bribes (open or revealed), keyed by the round number."""
    return state["round"], state["sealed"]


def _score_template() -> dict[str, Any]:
    """Score entry is free input: the legal entry carries the accepted range of each field."""
    ranges: dict[str, Any] = {r: [0, MAX_COUNT] for r in RESOURCES}
    ranges["places"] = [0, MAX_PLACE_POINTS]
    return {"ranges": ranges}


# --------------------------------------------------------------------------- view

def view(state: State, seat: int | None) -> dict[str, Any]:
    opts = state["options"]
    rnd = state["sealed"]
    open_mode = opts["bribes"] == "open"
    choosing = state["phase"] == "choose"
    players = []
    for s in range(_n(state)):
        picked = sealed.has_submitted(rnd, s) and choosing
        stakes = _stakes(state, s)
        gold = state["gold"][s]
        if choosing and not open_mode:
            gold += sum(stakes)  # sealed: the public purse is the one before bribes
        p: dict[str, Any] = {
            "seat": s,
            "name": state["names"][s],
            "colour": state["colours"][s],
            "gold": gold,
            "locked": choosing and s in rnd["locked"],
            "picked": picked,
            "cards_down": 2 if picked else 0,
            "stakes": list(stakes) if (picked and open_mode) else None,
            "taken": [dict(t) for t in state["taken"][s]],
            "start": s == state["start"],
        }
        if state["phase"] in ("scoring", "over"):
            p["score"] = dict(state["scores"][str(s)]) if str(s) in state["scores"] else None
        players.append(p)
    slots = []
    for sid in _order(state):
        sd = state["slots"][sid]
        slots.append({
            "id": sid,
            "kind": "character" if sid in state["letters"] else "place",
            "cost": None if sd["pending"] else sd["cost"],
            "coins": sd["coins"],
            "pending": sd["pending"],
            "taken_by": state["takers"].get(sid) if state["phase"] != "choose" else None,
        })
    decks = state["decks"]
    pending = [s["id"] for s in slots if s["pending"]]
    out: dict[str, Any] = {
        "game": ID,
        "phase": state["phase"],
        "turn": None,
        "round": state["round"],
        "start_player": state["start"],
        "options": dict(opts),
        "slots": slots,
        "players": players,
        "bank": state["bank"] if _finite(state) else None,
        "bank_unlimited": not _finite(state),
        "decks": dict(decks),
        "all_locked": choosing and sealed.all_locked(rnd),
        # the platform's seat list shows who has chosen / locked (never what)
        "submitted": [s for s in range(_n(state)) if choosing and sealed.has_submitted(rnd, s)],
        "locked": [s for s in range(_n(state)) if choosing and s in rnd["locked"]],
        "over": state["phase"] == "over",
        "revealed": state["revealed"] if state["phase"] != "choose" else None,
        "resolution": [dict(e) for e in state["resolution"]],
        "refill": {
            "pending": pending,
            "ask_decks": state["phase"] == "refill" and state["ask_decks"],
            "question": "lutece.q.decks_refill" if state["phase"] == "refill" and state["ask_decks"] else None,
            "can_next": state["phase"] == "refill" and not pending,
        } if state["phase"] == "refill" else None,
        "end_reason": state["end_reason"],
        "scoring": _scoring_view(state) if state["phase"] in ("scoring", "over") else None,
        "result": result(state),
        "log": [dict(e) for e in state["log"]],
        "host_actions": legal(state, None),
    }
    if seat is not None and 0 <= seat < _n(state):
        pick = sealed.choice(rnd, seat) if choosing else None
        out["me"] = {
            "seat": seat,
            "hand": _hand(state),
            "pick": list(pick) if pick else None,
            "stakes": list(_stakes(state, seat)) if pick else None,
            "purse": state["gold"][seat],
            "locked": choosing and seat in rnd["locked"],
            "can_change_pick": choosing and _can_change_pick(state, seat),
            "taken": [dict(t) for t in state["taken"][seat]],
            "legal": legal(state, seat),
            "score": dict(state["scores"][str(seat)]) if str(seat) in state["scores"] else None,
        }
    return out


def _scoring_view(state: State) -> dict[str, Any]:
    n = _n(state)
    entered = [i for i in range(n) if str(i) in state["scores"]]
    return {
        "entered": entered,
        "missing": [i for i in range(n) if i not in entered],
        "gold": list(state["gold"]),
        "can_confirm": state["phase"] == "scoring" and len(entered) == n,
        "confirmed": state["phase"] == "over",
    }


# --------------------------------------------------------------------------- random play

SAMPLE_WEIGHTS = {"end_game": 0.15, "set_cost": 0.5}


def _fill(state: State, seat: int | None, a: Action, r: random.Random) -> Action:
    if a["type"] == "score":
        ranges = a.pop("ranges")
        if seat is None:
            a["for"] = r.choice(a["for"])
        for k, (lo, hi) in ranges.items():
            a[k] = r.randint(lo, min(hi, 8))
    return a


def sample(state: State, seat: int | None, r: random.Random,
           legal_: list[Any] | None = None) -> Action | None:
    """A random legal concrete action (tools and tests): legal() with the score card filled in."""
    entries = legal(state, seat) if legal_ is None else legal_
    return base.sample_legal(entries, r, state=state, seat=seat, weights=SAMPLE_WEIGHTS, fill=_fill)
