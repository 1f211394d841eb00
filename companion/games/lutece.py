"""Lutèce (Nicolas Sato, Superlude 2015): the pure rules the companion stands in for.

The physical character and place cards stay on the table; this module never knows what they
show. Each displayed card is a *slot* (letters A.. for characters, numerals I.. for places)
with the cost the host enters when the card is put out (0–3, default 0) and the pile of coins
lying on it. The app replaces the action cards (secret choice of 2), the bribes, the
resolution of every slot, the gold ledger, end-of-game detection and the scorer.
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

from typing import Any

from companion.games import sealed
from companion.games.base import Action, Option, RuleError, State, check_int, clone, require

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
RESOURCES = ["glaive", "pain", "potion", "cervoise"]
MAX_COUNT = 99
MAX_PLACE_POINTS = 300

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
]


# --------------------------------------------------------------------------- setup

def slot_ids(n: int) -> tuple[list[str], list[str]]:
    k = 3 if n <= 3 else n
    return LETTERS[:k], NUMERALS[:k]


def setup(options: dict[str, Any], seats: list[dict[str, Any]], seed: int) -> State:
    from companion.games.base import resolve_options

    opts = resolve_options(OPTIONS, options)
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
    sealed.reveal(rnd)
    names = state["names"]
    state["resolution"] = []
    plays: dict[str, dict[str, Any]] = {}
    for s in range(_n(state)):
        cards = _pick(state, s)
        stakes = _stakes(state, s)
        plays[str(s)] = {"cards": list(cards) if cards else [], "stakes": list(stakes) if cards else [0, 0]}
        if cards:
            shown = [CARD_KEY if c == REVENUS else c for c in cards]  # the UI translates the key
            _event(state, "lutece.ev.played", name=names[s], seat=s, card1=shown[0], bribe1=stakes[0],
                   card2=shown[1], bribe2=stakes[1])
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


# --------------------------------------------------------------------------- scoring

def resource_points(counts: list[int], all_equal: int = 4) -> list[int]:
    """Majority points for one resource: most -> 10, fewest -> 0, others 4; ties share tiers."""
    hi, lo = max(counts), min(counts)
    if hi == lo:
        return [all_equal] * len(counts)
    return [10 if c == hi else 0 if c == lo else 4 for c in counts]


def score_table(entries: list[dict[str, int]], gold: list[int], all_equal: int = 4) -> dict[str, Any]:
    """Full breakdown from score cards + final gold (pure, also used by the result)."""
    n = len(entries)
    per_res: dict[str, Any] = {}
    for r in RESOURCES:
        counts = [e[r] for e in entries]
        pts = resource_points(counts, all_equal)
        hi, lo = max(counts), min(counts)
        per_res[r] = {
            "counts": counts,
            "points": pts,
            "all_equal": hi == lo,
            "most": [i for i in range(n) if counts[i] == hi] if hi != lo else [],
            "fewest": [i for i in range(n) if counts[i] == lo] if hi != lo else [],
        }
    players = []
    for i in range(n):
        res_pts = {r: per_res[r]["points"][i] for r in RESOURCES}
        gp = gold[i] // 3
        total = sum(res_pts.values()) + entries[i]["places"] + gp
        players.append({
            "seat": i,
            "resources": {r: {"count": entries[i][r], "points": res_pts[r]} for r in RESOURCES},
            "resource_points": sum(res_pts.values()),
            "places": entries[i]["places"],
            "gold": gold[i],
            "gold_points": gp,
            "total": total,
        })
    order = sorted(range(n), key=lambda i: (-players[i]["total"], -players[i]["gold"], i))
    ranks: list[int] = [0] * n
    for pos, i in enumerate(order):
        if pos and (players[i]["total"], players[i]["gold"]) == (
            players[order[pos - 1]]["total"], players[order[pos - 1]]["gold"]
        ):
            ranks[i] = ranks[order[pos - 1]]
        else:
            ranks[i] = pos + 1
    for i in range(n):
        players[i]["rank"] = ranks[i]
    best = max(p["total"] for p in players)
    top = [i for i in range(n) if players[i]["total"] == best]
    winners = [i for i in order if ranks[i] == 1]
    if len(top) == 1:
        tie_break = None
    elif len(winners) == 1:
        tie_break = "gold"
    else:
        tie_break = "shared"
    return {
        "players": players,
        "resources": per_res,
        "ranking": order,
        "ranks": ranks,
        "winners": winners,
        "tie_break": tie_break,
        "tied_on_total": top if len(top) > 1 else [],
    }


def result(state: State) -> dict[str, Any] | None:
    if state["phase"] != "over":
        return None
    n = _n(state)
    entries = [state["scores"][str(i)] for i in range(n)]
    table = score_table(entries, list(state["gold"]), state["options"]["all_equal"])
    for p in table["players"]:
        p["name"] = state["names"][p["seat"]]
        p["colour"] = state["colours"][p["seat"]]
    table["chart"] = {
        "labels": [state["names"][i] for i in range(n)],
        "series": [
            {"key": f"lutece.res.{r}", "values": [p["resources"][r]["points"] for p in table["players"]]}
            for r in RESOURCES
        ] + [
            {"key": "lutece.score.places", "values": [p["places"] for p in table["players"]]},
            {"key": "lutece.score.gold_points", "values": [p["gold_points"] for p in table["players"]]},
        ],
    }
    table["tie_break_key"] = {
        None: None, "gold": "lutece.tie.gold", "shared": "lutece.tie.shared",
    }[table["tie_break"]]
    return table


# --------------------------------------------------------------------------- catalog

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "lutece.name": "Lutèce",
        "lutece.opt.bribes": "Bribes",
        "lutece.opt.bribes.open": "Open (coins on each face-down card visible live, add only)",
        "lutece.opt.bribes.sealed": "Sealed (amounts secret until the reveal)",
        "lutece.opt.bribes.help": "Open is like the published game: everyone sees the coins on each "
                                  "face-down card as they are placed; coins can only be added.",
        "lutece.opt.bank": "Bank",
        "lutece.opt.bank.unlimited": "Unlimited",
        "lutece.opt.bank.46": "46 coins",
        "lutece.opt.bank.help": "With 46 coins the bank can run dry: it then pays what it still has, "
                                "in the order things happen; bonuses it cannot pay are skipped.",
        "lutece.opt.sole_bribe": "Bribe of a sole claimant",
        "lutece.opt.sole_bribe.bank": "Goes to the bank",
        "lutece.opt.sole_bribe.refund": "Is given back",
        "lutece.opt.sole_bribe.help": "What happens to the bribe when only one player claims a card.",
        "lutece.opt.bribe_tie": "Tie for the highest bribe",
        "lutece.opt.bribe_tie.nobody": "Nobody takes the card (all refunded +1, card +1)",
        "lutece.opt.bribe_tie.seat_order": "First tied player after the start player wins",
        "lutece.opt.bribe_tie.help": "How a tie for the highest bribe on a card is settled.",
        "lutece.opt.all_equal": "Resource where all are equal",
        "lutece.opt.all_equal.4": "Everyone gets 4",
        "lutece.opt.all_equal.10": "Everyone gets 10",
        "lutece.opt.all_equal.0": "Everyone gets 0",
        "lutece.opt.all_equal.help": "Points per player for a resource in which all players have the same count.",
        "lutece.opt.characters_deck": "Character deck size",
        "lutece.opt.places_deck": "Place deck size",
        "lutece.opt.deck.help": "Cards left in the draw pile after laying out the first cards. "
                                "0 = unknown: the host ends the game by hand.",
        "lutece.err.seats": "Lutèce needs {lo} to {hi} players.",
        "lutece.err.no_slot": "There is no card slot “{slot}” in this game.",
        "lutece.err.two_cards": "Choose exactly two action cards from your hand.",
        "lutece.err.no_card": "“{card}” is not one of your action cards.",
        "lutece.err.pick_fixed": "You have already put coins on your cards; they can no longer be changed.",
        "lutece.err.pick_first": "Choose your two action cards first, then bribe.",
        "lutece.err.bribe_positive": "Add at least 1 gold.",
        "lutece.err.bribe_purse": "You have only {gold} gold; a bribe of {amount} more is not possible.",
        "lutece.err.only_add": "With open bribes coins can only be added, never taken back.",
        "lutece.err.costs_missing": "Enter the cost of the new card first: {slots}.",
        "lutece.err.for_seat": "Choose the player whose score card this is.",
        "lutece.err.scores_missing": "Score cards still missing: {names}.",
        "lutece.ev.round": "Round {round} – start player: {start}.",
        "lutece.ev.set_cost": "Card {slot} costs {cost}.",
        "lutece.ev.new_card": "New card on {slot}, cost {cost}.",
        "lutece.ev.locked": "{name} is ready.",
        "lutece.ev.forced": "The host reveals the round now.",
        "lutece.ev.end_host": "The host ends the game: the decks cannot refill.",
        "lutece.ev.end_deck_characters": "Game over: the character deck has {left} cards, {needed} are needed.",
        "lutece.ev.end_deck_places": "Game over: the place deck has {left} cards, {needed} are needed.",
        "lutece.ev.score_entered": "{name} has entered a score card.",
        "lutece.ev.over": "Final scores confirmed. Winner: {names}.",
        "lutece.ev.played": "{name} played {card1} (bribe {bribe1}) and {card2} (bribe {bribe2}).",
        "lutece.ev.played_nothing": "{name} played no cards this round.",
        "lutece.ev.bluff_back": "{name} gets the {amount} gold bribe on a Revenus card back.",
        "lutece.ev.revenus": "{name} plays Revenus: +{amount} gold.",
        "lutece.ev.revenus_short": "{name} plays Revenus, but the bank has only {amount} of {full} gold left.",
        "lutece.ev.unclaimed": "Nobody claimed {slot}: +1 gold on it (now {coins}).",
        "lutece.ev.claim": "{slot}: {name} claims it with a bribe of {bribe}.",
        "lutece.ev.tie_nobody": "{slot}: tie at {bribe} between {names} – nobody takes the card.",
        "lutece.ev.tie_seat_order": "{slot}: tie at {bribe} between {names} – {name} wins by seat order.",
        "lutece.ev.sole_refund": "{slot}: {name} is the only claimant and gets the bribe of {bribe} back.",
        "lutece.ev.cannot_pay": "{slot}: {name} wins but cannot pay the cost of {cost} (has {gold} "
                                "incl. the coins on the card) – does NOT take the card; gets the bribe "
                                "of {bribe} back +{bonus}.",
        "lutece.ev.take_sole": "{slot}: {name} takes the card alone – takes {coins} gold from it, pays "
                               "the cost of {cost}; bribe {bribe} to the bank.",
        "lutece.ev.take": "{slot}: {name} wins with the highest bribe – {bribe} to the bank, pays the "
                          "cost of {cost}, takes {coins} gold from the card.",
        "lutece.ev.refund": "{slot}: {name} is outbid and gets the bribe of {bribe} back +1.",
        "lutece.ev.refund_no_bonus": "{slot}: {name} is outbid and gets the bribe of {bribe} back "
                                     "(the bank is empty: no +1).",
        "lutece.ev.refund_tie": "{slot}: {name} gets the bribe of {bribe} back +1.",
        "lutece.ev.refund_tie_no_bonus": "{slot}: {name} gets the bribe of {bribe} back (the bank is empty: no +1).",
        "lutece.ev.card_coin": "{slot} stays: +1 gold on it (now {coins}).",
        "lutece.ev.bank_empty_card": "{slot} stays, but the bank is empty: no coin added (still {coins}).",
        "lutece.q.decks_refill": "Can the decks refill the empty slots?",
        "lutece.res.glaive": "Glaive",
        "lutece.res.pain": "Bread",
        "lutece.res.potion": "Potion",
        "lutece.res.cervoise": "Cervoise",
        "lutece.score.places": "Place points",
        "lutece.score.gold_points": "Gold (1 per 3)",
        "lutece.score.total": "Total",
        "lutece.tie.gold": "Tie on points broken by the gold left.",
        "lutece.tie.shared": "Tie on points and gold: the victory is shared.",
        "lutece.card.R": "Revenus",
        "lutece.kind.character": "Character",
        "lutece.kind.place": "Place",
        "lutece.phase.choose": "Choose 2 cards and bribe",
        "lutece.phase.refill": "Refill the empty slots",
        "lutece.phase.scoring": "Score cards",
        "lutece.phase.over": "Game over",
    },
    "de": {
        "lutece.name": "Lutèce",
        "lutece.opt.bribes": "Bestechung",
        "lutece.opt.bribes.open": "Offen (Münzen auf jeder verdeckten Karte live sichtbar, nur hinzufügen)",
        "lutece.opt.bribes.sealed": "Verdeckt (Beträge geheim bis zum Aufdecken)",
        "lutece.opt.bribes.help": "Offen wie im veröffentlichten Spiel: Alle sehen die Münzen auf jeder "
                                  "verdeckten Karte, sobald sie gelegt werden; Münzen können nur dazukommen.",
        "lutece.opt.bank": "Bank",
        "lutece.opt.bank.unlimited": "Unbegrenzt",
        "lutece.opt.bank.46": "46 Münzen",
        "lutece.opt.bank.help": "Mit 46 Münzen kann die Bank leer werden: Sie zahlt dann, was sie noch hat, "
                                "in der Reihenfolge des Geschehens; was sie nicht zahlen kann, entfällt.",
        "lutece.opt.sole_bribe": "Bestechung eines einzigen Bewerbers",
        "lutece.opt.sole_bribe.bank": "Geht an die Bank",
        "lutece.opt.sole_bribe.refund": "Wird zurückgegeben",
        "lutece.opt.sole_bribe.help": "Was mit der Bestechung geschieht, wenn nur ein Spieler eine Karte will.",
        "lutece.opt.bribe_tie": "Gleichstand beim höchsten Gebot",
        "lutece.opt.bribe_tie.nobody": "Niemand nimmt die Karte (alle zurück +1, Karte +1)",
        "lutece.opt.bribe_tie.seat_order": "Der erste Gleichstehende nach dem Startspieler gewinnt",
        "lutece.opt.bribe_tie.help": "Wie ein Gleichstand beim höchsten Bestechungsgeld entschieden wird.",
        "lutece.opt.all_equal": "Ressource, bei der alle gleich sind",
        "lutece.opt.all_equal.4": "Alle bekommen 4",
        "lutece.opt.all_equal.10": "Alle bekommen 10",
        "lutece.opt.all_equal.0": "Alle bekommen 0",
        "lutece.opt.all_equal.help": "Punkte pro Spieler für eine Ressource, von der alle gleich viel haben.",
        "lutece.opt.characters_deck": "Größe des Personenstapels",
        "lutece.opt.places_deck": "Größe des Ortsstapels",
        "lutece.opt.deck.help": "Karten im Nachziehstapel nach dem Auslegen der ersten Karten. "
                                "0 = unbekannt: Die Spielleitung beendet das Spiel von Hand.",
        "lutece.err.seats": "Lutèce braucht {lo} bis {hi} Spieler.",
        "lutece.err.no_slot": "Es gibt keinen Kartenplatz „{slot}“ in diesem Spiel.",
        "lutece.err.two_cards": "Wähle genau zwei Aktionskarten aus deiner Hand.",
        "lutece.err.no_card": "„{card}“ ist keine deiner Aktionskarten.",
        "lutece.err.pick_fixed": "Du hast schon Münzen auf deine Karten gelegt; sie lassen sich nicht mehr ändern.",
        "lutece.err.pick_first": "Wähle zuerst deine zwei Aktionskarten, dann besteche.",
        "lutece.err.bribe_positive": "Lege mindestens 1 Gold dazu.",
        "lutece.err.bribe_purse": "Du hast nur {gold} Gold; eine Bestechung von {amount} mehr ist nicht möglich.",
        "lutece.err.only_add": "Bei offener Bestechung kann man nur Münzen dazulegen, nie zurücknehmen.",
        "lutece.err.costs_missing": "Gib zuerst die Kosten der neuen Karte ein: {slots}.",
        "lutece.err.for_seat": "Wähle, wessen Wertungskarte das ist.",
        "lutece.err.scores_missing": "Es fehlen noch Wertungskarten: {names}.",
        "lutece.ev.round": "Runde {round} – Startspieler: {start}.",
        "lutece.ev.set_cost": "Karte {slot} kostet {cost}.",
        "lutece.ev.new_card": "Neue Karte auf {slot}, Kosten {cost}.",
        "lutece.ev.locked": "{name} ist bereit.",
        "lutece.ev.forced": "Die Spielleitung deckt die Runde jetzt auf.",
        "lutece.ev.end_host": "Die Spielleitung beendet das Spiel: Die Stapel reichen nicht mehr.",
        "lutece.ev.end_deck_characters": "Spielende: Der Personenstapel hat {left} Karten, {needed} werden gebraucht.",
        "lutece.ev.end_deck_places": "Spielende: Der Ortsstapel hat {left} Karten, {needed} werden gebraucht.",
        "lutece.ev.score_entered": "{name} hat eine Wertungskarte eingegeben.",
        "lutece.ev.over": "Endwertung bestätigt. Sieg: {names}.",
        "lutece.ev.played": "{name} spielte {card1} (Bestechung {bribe1}) und {card2} (Bestechung {bribe2}).",
        "lutece.ev.played_nothing": "{name} hat diese Runde keine Karten gespielt.",
        "lutece.ev.bluff_back": "{name} bekommt die {amount} Gold Bestechung auf einer Einkommenskarte zurück.",
        "lutece.ev.revenus": "{name} spielt Einkommen: +{amount} Gold.",
        "lutece.ev.revenus_short": "{name} spielt Einkommen, aber die Bank hat nur noch {amount} von {full} Gold.",
        "lutece.ev.unclaimed": "Niemand wollte {slot}: +1 Gold darauf (jetzt {coins}).",
        "lutece.ev.claim": "{slot}: {name} will die Karte, Bestechung {bribe}.",
        "lutece.ev.tie_nobody": "{slot}: Gleichstand bei {bribe} zwischen {names} – niemand nimmt die Karte.",
        "lutece.ev.tie_seat_order": "{slot}: Gleichstand bei {bribe} zwischen {names} – {name} gewinnt "
                                    "nach Sitzreihenfolge.",
        "lutece.ev.sole_refund": "{slot}: {name} ist der einzige Bewerber und bekommt die Bestechung von "
                                 "{bribe} zurück.",
        "lutece.ev.cannot_pay": "{slot}: {name} gewinnt, kann aber die Kosten von {cost} nicht zahlen "
                                "(hat {gold} inkl. der Münzen auf der Karte) – nimmt die Karte NICHT; "
                                "bekommt die Bestechung von {bribe} zurück +{bonus}.",
        "lutece.ev.take_sole": "{slot}: {name} nimmt die Karte allein – nimmt {coins} Gold von ihr, zahlt "
                               "die Kosten von {cost}; Bestechung {bribe} an die Bank.",
        "lutece.ev.take": "{slot}: {name} gewinnt mit der höchsten Bestechung – {bribe} an die Bank, zahlt "
                          "die Kosten von {cost}, nimmt {coins} Gold von der Karte.",
        "lutece.ev.refund": "{slot}: {name} wird überboten und bekommt die Bestechung von {bribe} zurück +1.",
        "lutece.ev.refund_no_bonus": "{slot}: {name} wird überboten und bekommt die Bestechung von {bribe} "
                                     "zurück (die Bank ist leer: kein +1).",
        "lutece.ev.refund_tie": "{slot}: {name} bekommt die Bestechung von {bribe} zurück +1.",
        "lutece.ev.refund_tie_no_bonus": "{slot}: {name} bekommt die Bestechung von {bribe} zurück "
                                         "(die Bank ist leer: kein +1).",
        "lutece.ev.card_coin": "{slot} bleibt liegen: +1 Gold darauf (jetzt {coins}).",
        "lutece.ev.bank_empty_card": "{slot} bleibt liegen, aber die Bank ist leer: keine Münze (weiter {coins}).",
        "lutece.q.decks_refill": "Können die Stapel die leeren Plätze auffüllen?",
        "lutece.res.glaive": "Schwert",
        "lutece.res.pain": "Brot",
        "lutece.res.potion": "Trank",
        "lutece.res.cervoise": "Cervoise (Bier)",
        "lutece.score.places": "Punkte der Orte",
        "lutece.score.gold_points": "Gold (1 je 3)",
        "lutece.score.total": "Summe",
        "lutece.tie.gold": "Punktgleichstand, entschieden durch das übrige Gold.",
        "lutece.tie.shared": "Gleich bei Punkten und Gold: Der Sieg wird geteilt.",
        "lutece.card.R": "Einkommen",
        "lutece.kind.character": "Person",
        "lutece.kind.place": "Ort",
        "lutece.phase.choose": "2 Karten wählen und bestechen",
        "lutece.phase.refill": "Leere Plätze auffüllen",
        "lutece.phase.scoring": "Wertungskarten",
        "lutece.phase.over": "Spielende",
    },
    "fr": {
        "lutece.name": "Lutèce",
        "lutece.opt.bribes": "Pots-de-vin",
        "lutece.opt.bribes.open": "Ouverts (pièces sur chaque carte face cachée visibles en direct, ajout seulement)",
        "lutece.opt.bribes.sealed": "Secrets (montants cachés jusqu’à la révélation)",
        "lutece.opt.bribes.help": "Ouverts comme dans le jeu publié : tout le monde voit les pièces posées "
                                  "sur chaque carte face cachée ; on peut seulement en ajouter.",
        "lutece.opt.bank": "Banque",
        "lutece.opt.bank.unlimited": "Illimitée",
        "lutece.opt.bank.46": "46 pièces",
        "lutece.opt.bank.help": "Avec 46 pièces la banque peut se vider : elle paie alors ce qui lui reste, "
                                "dans l’ordre des événements ; ce qu’elle ne peut payer est sauté.",
        "lutece.opt.sole_bribe": "Pot-de-vin d’un seul prétendant",
        "lutece.opt.sole_bribe.bank": "Va à la banque",
        "lutece.opt.sole_bribe.refund": "Est rendu",
        "lutece.opt.sole_bribe.help": "Ce que devient le pot-de-vin quand un seul joueur convoite une carte.",
        "lutece.opt.bribe_tie": "Égalité du plus gros pot-de-vin",
        "lutece.opt.bribe_tie.nobody": "Personne ne prend la carte (tous remboursés +1, carte +1)",
        "lutece.opt.bribe_tie.seat_order": "Le premier ex æquo après le premier joueur gagne",
        "lutece.opt.bribe_tie.help": "Comment départager une égalité du plus gros pot-de-vin sur une carte.",
        "lutece.opt.all_equal": "Ressource où tous sont à égalité",
        "lutece.opt.all_equal.4": "Chacun reçoit 4",
        "lutece.opt.all_equal.10": "Chacun reçoit 10",
        "lutece.opt.all_equal.0": "Chacun reçoit 0",
        "lutece.opt.all_equal.help": "Points par joueur pour une ressource que tous possèdent en même nombre.",
        "lutece.opt.characters_deck": "Taille de la pioche Personnages",
        "lutece.opt.places_deck": "Taille de la pioche Lieux",
        "lutece.opt.deck.help": "Cartes restant dans la pioche après avoir posé les premières cartes. "
                                "0 = inconnue : l’hôte termine la partie à la main.",
        "lutece.err.seats": "Lutèce se joue de {lo} à {hi} joueurs.",
        "lutece.err.no_slot": "Il n’y a pas d’emplacement « {slot} » dans cette partie.",
        "lutece.err.two_cards": "Choisissez exactement deux cartes Action de votre main.",
        "lutece.err.no_card": "« {card} » n’est pas une de vos cartes Action.",
        "lutece.err.pick_fixed": "Vous avez déjà posé des pièces sur vos cartes ; elles ne peuvent plus changer.",
        "lutece.err.pick_first": "Choisissez d’abord vos deux cartes Action, puis soudoyez.",
        "lutece.err.bribe_positive": "Ajoutez au moins 1 pièce d’or.",
        "lutece.err.bribe_purse": "Vous n’avez que {gold} pièces d’or ; un pot-de-vin de {amount} de plus est "
                                  "impossible.",
        "lutece.err.only_add": "Avec des pots-de-vin ouverts, on peut seulement ajouter des pièces, jamais "
                               "les reprendre.",
        "lutece.err.costs_missing": "Saisissez d’abord le coût de la nouvelle carte : {slots}.",
        "lutece.err.for_seat": "Choisissez le joueur à qui appartient cette feuille de score.",
        "lutece.err.scores_missing": "Feuilles de score manquantes : {names}.",
        "lutece.ev.round": "Tour {round} – premier joueur : {start}.",
        "lutece.ev.set_cost": "La carte {slot} coûte {cost}.",
        "lutece.ev.new_card": "Nouvelle carte en {slot}, coût {cost}.",
        "lutece.ev.locked": "{name} est prêt.",
        "lutece.ev.forced": "L’hôte révèle le tour maintenant.",
        "lutece.ev.end_host": "L’hôte termine la partie : les pioches ne suffisent plus.",
        "lutece.ev.end_deck_characters": "Fin de partie : la pioche Personnages a {left} cartes, il en faut {needed}.",
        "lutece.ev.end_deck_places": "Fin de partie : la pioche Lieux a {left} cartes, il en faut {needed}.",
        "lutece.ev.score_entered": "{name} a saisi sa feuille de score.",
        "lutece.ev.over": "Scores finaux confirmés. Victoire : {names}.",
        "lutece.ev.played": "{name} a joué {card1} (pot-de-vin {bribe1}) et {card2} (pot-de-vin {bribe2}).",
        "lutece.ev.played_nothing": "{name} n’a joué aucune carte ce tour.",
        "lutece.ev.bluff_back": "{name} récupère le pot-de-vin de {amount} posé sur une carte Revenus.",
        "lutece.ev.revenus": "{name} joue Revenus : +{amount} pièces d’or.",
        "lutece.ev.revenus_short": "{name} joue Revenus, mais la banque n’a plus que {amount} pièces sur {full}.",
        "lutece.ev.unclaimed": "Personne n’a convoité {slot} : +1 pièce dessus (maintenant {coins}).",
        "lutece.ev.claim": "{slot} : {name} la convoite avec un pot-de-vin de {bribe}.",
        "lutece.ev.tie_nobody": "{slot} : égalité à {bribe} entre {names} – personne ne prend la carte.",
        "lutece.ev.tie_seat_order": "{slot} : égalité à {bribe} entre {names} – {name} gagne selon l’ordre "
                                    "de jeu.",
        "lutece.ev.sole_refund": "{slot} : {name} est le seul prétendant et récupère son pot-de-vin de {bribe}.",
        "lutece.ev.cannot_pay": "{slot} : {name} l’emporte mais ne peut pas payer le coût de {cost} (a {gold} "
                                "avec les pièces de la carte) – ne prend PAS la carte ; récupère sa mise de "
                                "{bribe} +{bonus}.",
        "lutece.ev.take_sole": "{slot} : {name} prend la carte seul – prend les {coins} pièces posées dessus, "
                               "paie le coût de {cost} ; pot-de-vin de {bribe} à la banque.",
        "lutece.ev.take": "{slot} : {name} gagne avec le plus gros pot-de-vin – {bribe} à la banque, paie le "
                          "coût de {cost}, prend les {coins} pièces de la carte.",
        "lutece.ev.refund": "{slot} : {name} est surenchéri et récupère sa mise de {bribe} +1.",
        "lutece.ev.refund_no_bonus": "{slot} : {name} est surenchéri et récupère sa mise de {bribe} "
                                     "(la banque est vide : pas de +1).",
        "lutece.ev.refund_tie": "{slot} : {name} récupère sa mise de {bribe} +1.",
        "lutece.ev.refund_tie_no_bonus": "{slot} : {name} récupère sa mise de {bribe} (la banque est vide : "
                                         "pas de +1).",
        "lutece.ev.card_coin": "{slot} reste en place : +1 pièce dessus (maintenant {coins}).",
        "lutece.ev.bank_empty_card": "{slot} reste en place, mais la banque est vide : pas de pièce (toujours {coins}).",
        "lutece.q.decks_refill": "Les pioches peuvent-elles remplir les emplacements vides ?",
        "lutece.res.glaive": "Glaive",
        "lutece.res.pain": "Pain",
        "lutece.res.potion": "Potion",
        "lutece.res.cervoise": "Cervoise",
        "lutece.score.places": "Points des Lieux",
        "lutece.score.gold_points": "Or (1 pour 3)",
        "lutece.score.total": "Total",
        "lutece.tie.gold": "Égalité de points départagée par l’or restant.",
        "lutece.tie.shared": "Égalité de points et d’or : la victoire est partagée.",
        "lutece.card.R": "Revenus",
        "lutece.kind.character": "Personnage",
        "lutece.kind.place": "Lieu",
        "lutece.phase.choose": "Choisir 2 cartes et soudoyer",
        "lutece.phase.refill": "Remplir les emplacements vides",
        "lutece.phase.scoring": "Feuilles de score",
        "lutece.phase.over": "Fin de partie",
    },
}


_UI: dict[str, dict[str, str]] = {
    "en": {
        "lutece.ui.round": "Round {round} · start player: {start}",
        "lutece.ui.cost": "cost {cost}",
        "lutece.ui.cost_pending": "new card: cost?",
        "lutece.ui.coins_on": "{coins} gold on it",
        "lutece.ui.taken_by": "taken by {name}",
        "lutece.ui.bank": "Bank: {coins} gold",
        "lutece.ui.unknown": "?",
        "lutece.ui.decks": "Decks left – characters: {characters}, places: {places}",
        "lutece.ui.no_cards_yet": "no cards down yet",
        "lutece.ui.cards_down_hidden": "2 cards face down",
        "lutece.ui.table_open": "Coins on the face-down cards (everyone sees)",
        "lutece.ui.table_sealed": "Face-down cards",
        "lutece.ui.you": "{name} (you)",
        "lutece.ui.fd_open": "{name}: {a} and {b} gold",
        "lutece.ui.fd_hidden": "{name}: 2 cards face down",
        "lutece.ui.fd_none": "{name}: no cards down yet",
        "lutece.ui.cards_down_open": "2 cards face down: {a} and {b} gold on them",
        "lutece.ui.start": "start",
        "lutece.ui.ready": "ready",
        "lutece.ui.choosing": "cards down",
        "lutece.ui.gold": "{gold} gold",
        "lutece.ui.taken": "Cards taken: {cards}",
        "lutece.ui.players": "Players",
        "lutece.ui.resolution": "What happened this round",
        "lutece.ui.log": "Log",
        "lutece.ui.cost_btn": "{slot}: {cost}",
        "lutece.ui.secret": "Only you see this",
        "lutece.ui.your_gold": "Your gold: {gold}",
        "lutece.ui.locked_in": "Locked in:",
        "lutece.ui.my_card": "{card} – bribe {bribe}",
        "lutece.ui.wait_others": "Waiting for the others…",
        "lutece.ui.pick_two": "Choose 2 action cards:",
        "lutece.ui.play_cards": "Play these 2 cards face down",
        "lutece.ui.your_cards": "Your face-down cards",
        "lutece.ui.add": "+{amount} on {card}",
        "lutece.ui.open_hint": "Open bribes: everyone sees the coins on your cards; you can only add.",
        "lutece.ui.clear_bribes": "Take my bribes back",
        "lutece.ui.lock": "Ready – lock my cards",
        "lutece.ui.you_took": "You took: {cards}",
        "lutece.ui.enter_cost": "New card on {slot}: enter its cost",
        "lutece.ui.wait_host": "The host sets up the next round.",
        "lutece.ui.score_card": "Your score card",
        "lutece.ui.score_for_title": "Enter a score card for a player",
        "lutece.ui.score_hint": "Count your resources and the points printed on your places.",
        "lutece.ui.send_score": "Send score card",
        "lutece.ui.score_sent": "Sent – you can still correct it until the host confirms.",
        "lutece.ui.player": "Player",
        "lutece.ui.gold_col": "Gold",
        "lutece.ui.missing": "Still missing: {names}",
        "lutece.ui.all_entered": "All score cards are in.",
        "lutece.ui.score_cards": "Score cards (visible to all)",
        "lutece.ui.locked_count": "{n} of {total} are ready",
        "lutece.ui.ended_by_host": "The host ended the game.",
        "lutece.ui.ended_by_deck": "A deck cannot refill the slots: the game is over.",
        "lutece.ui.costs_title": "Card costs",
        "lutece.ui.costs_hint": "Enter the cost printed on each card on the table (tap to correct).",
        "lutece.ui.refill_wait": "New cards are being laid out.",
        "lutece.ui.refill_title": "New cards on the table",
        "lutece.ui.yes_next": "Yes – next round",
        "lutece.ui.no_end": "No – end the game",
        "lutece.ui.next_round": "Next round",
        "lutece.ui.end_now": "End the game now",
        "lutece.ui.costs_first": "Enter the cost of every new card first.",
        "lutece.ui.confirm": "Confirm final scores",
        "lutece.ui.enter_for": "Player",
        "lutece.ui.no_result": "No final scores: the score cards were not confirmed.",
        "lutece.ui.winner": "Winner: {names}",
        "lutece.ui.count_points": "{count} ({points})",
        "lutece.ui.gold_points": "{gold} ({points})",
        "lutece.ui.res_all_equal": "{res}: everyone equal, {points} each",
        "lutece.ui.res_line": "{res}: most {most} (10), fewest {fewest} (0)",
        "lutece.ui.chart": "Points by source",
        "lutece.ui.cells": "Each cell: count (points).",
    },
    "de": {
        "lutece.ui.round": "Runde {round} · Startspieler: {start}",
        "lutece.ui.cost": "Kosten {cost}",
        "lutece.ui.cost_pending": "neue Karte: Kosten?",
        "lutece.ui.coins_on": "{coins} Gold darauf",
        "lutece.ui.taken_by": "genommen von {name}",
        "lutece.ui.bank": "Bank: {coins} Gold",
        "lutece.ui.unknown": "?",
        "lutece.ui.decks": "Stapel übrig – Personen: {characters}, Orte: {places}",
        "lutece.ui.no_cards_yet": "noch keine Karten gelegt",
        "lutece.ui.cards_down_hidden": "2 Karten verdeckt",
        "lutece.ui.table_open": "Münzen auf den verdeckten Karten (für alle sichtbar)",
        "lutece.ui.table_sealed": "Verdeckte Karten",
        "lutece.ui.you": "{name} (du)",
        "lutece.ui.fd_open": "{name}: {a} und {b} Gold",
        "lutece.ui.fd_hidden": "{name}: 2 Karten verdeckt",
        "lutece.ui.fd_none": "{name}: noch keine Karten gelegt",
        "lutece.ui.cards_down_open": "2 Karten verdeckt: {a} und {b} Gold darauf",
        "lutece.ui.start": "Start",
        "lutece.ui.ready": "bereit",
        "lutece.ui.choosing": "Karten gelegt",
        "lutece.ui.gold": "{gold} Gold",
        "lutece.ui.taken": "Genommene Karten: {cards}",
        "lutece.ui.players": "Spieler",
        "lutece.ui.resolution": "Was diese Runde geschah",
        "lutece.ui.log": "Protokoll",
        "lutece.ui.cost_btn": "{slot}: {cost}",
        "lutece.ui.secret": "Nur du siehst das",
        "lutece.ui.your_gold": "Dein Gold: {gold}",
        "lutece.ui.locked_in": "Festgelegt:",
        "lutece.ui.my_card": "{card} – Bestechung {bribe}",
        "lutece.ui.wait_others": "Warte auf die anderen …",
        "lutece.ui.pick_two": "Wähle 2 Aktionskarten:",
        "lutece.ui.play_cards": "Diese 2 Karten verdeckt spielen",
        "lutece.ui.your_cards": "Deine verdeckten Karten",
        "lutece.ui.add": "+{amount} auf {card}",
        "lutece.ui.open_hint": "Offene Bestechung: Alle sehen die Münzen auf deinen Karten; du kannst nur dazulegen.",
        "lutece.ui.clear_bribes": "Bestechung zurücknehmen",
        "lutece.ui.lock": "Bereit – Karten festlegen",
        "lutece.ui.you_took": "Du hast genommen: {cards}",
        "lutece.ui.enter_cost": "Neue Karte auf {slot}: Kosten eingeben",
        "lutece.ui.wait_host": "Die Spielleitung bereitet die nächste Runde vor.",
        "lutece.ui.score_card": "Deine Wertungskarte",
        "lutece.ui.score_for_title": "Wertungskarte für einen Spieler eingeben",
        "lutece.ui.score_hint": "Zähle deine Ressourcen und die Punkte auf deinen Orten.",
        "lutece.ui.send_score": "Wertungskarte senden",
        "lutece.ui.score_sent": "Gesendet – bis die Spielleitung bestätigt, kannst du noch korrigieren.",
        "lutece.ui.player": "Spieler",
        "lutece.ui.gold_col": "Gold",
        "lutece.ui.missing": "Es fehlen noch: {names}",
        "lutece.ui.all_entered": "Alle Wertungskarten sind da.",
        "lutece.ui.score_cards": "Wertungskarten (für alle sichtbar)",
        "lutece.ui.locked_count": "{n} von {total} sind bereit",
        "lutece.ui.ended_by_host": "Die Spielleitung hat das Spiel beendet.",
        "lutece.ui.ended_by_deck": "Ein Stapel kann die Plätze nicht auffüllen: Das Spiel ist vorbei.",
        "lutece.ui.costs_title": "Kartenkosten",
        "lutece.ui.costs_hint": "Gib die Kosten jeder ausliegenden Karte ein (antippen zum Korrigieren).",
        "lutece.ui.refill_wait": "Neue Karten werden ausgelegt.",
        "lutece.ui.refill_title": "Neue Karten auf dem Tisch",
        "lutece.ui.yes_next": "Ja – nächste Runde",
        "lutece.ui.no_end": "Nein – Spiel beenden",
        "lutece.ui.next_round": "Nächste Runde",
        "lutece.ui.end_now": "Spiel jetzt beenden",
        "lutece.ui.costs_first": "Gib zuerst die Kosten jeder neuen Karte ein.",
        "lutece.ui.confirm": "Endwertung bestätigen",
        "lutece.ui.enter_for": "Spieler",
        "lutece.ui.no_result": "Keine Endwertung: Die Wertungskarten wurden nicht bestätigt.",
        "lutece.ui.winner": "Sieg: {names}",
        "lutece.ui.count_points": "{count} ({points})",
        "lutece.ui.gold_points": "{gold} ({points})",
        "lutece.ui.res_all_equal": "{res}: alle gleich, je {points}",
        "lutece.ui.res_line": "{res}: am meisten {most} (10), am wenigsten {fewest} (0)",
        "lutece.ui.chart": "Punkte nach Herkunft",
        "lutece.ui.cells": "Jede Zelle: Anzahl (Punkte).",
    },
    "fr": {
        "lutece.ui.round": "Tour {round} · premier joueur : {start}",
        "lutece.ui.cost": "coût {cost}",
        "lutece.ui.cost_pending": "nouvelle carte : coût ?",
        "lutece.ui.coins_on": "{coins} pièces dessus",
        "lutece.ui.taken_by": "prise par {name}",
        "lutece.ui.bank": "Banque : {coins} pièces",
        "lutece.ui.unknown": "?",
        "lutece.ui.decks": "Pioches restantes – Personnages : {characters}, Lieux : {places}",
        "lutece.ui.no_cards_yet": "pas encore de cartes posées",
        "lutece.ui.cards_down_hidden": "2 cartes face cachée",
        "lutece.ui.table_open": "Pièces sur les cartes face cachée (visibles par tous)",
        "lutece.ui.table_sealed": "Cartes face cachée",
        "lutece.ui.you": "{name} (vous)",
        "lutece.ui.fd_open": "{name} : {a} et {b} pièces",
        "lutece.ui.fd_hidden": "{name} : 2 cartes face cachée",
        "lutece.ui.fd_none": "{name} : pas encore de cartes posées",
        "lutece.ui.cards_down_open": "2 cartes face cachée : {a} et {b} pièces dessus",
        "lutece.ui.start": "premier",
        "lutece.ui.ready": "prêt",
        "lutece.ui.choosing": "cartes posées",
        "lutece.ui.gold": "{gold} or",
        "lutece.ui.taken": "Cartes prises : {cards}",
        "lutece.ui.players": "Joueurs",
        "lutece.ui.resolution": "Ce qui s’est passé ce tour",
        "lutece.ui.log": "Journal",
        "lutece.ui.cost_btn": "{slot} : {cost}",
        "lutece.ui.secret": "Vous seul voyez ceci",
        "lutece.ui.your_gold": "Votre or : {gold}",
        "lutece.ui.locked_in": "Verrouillé :",
        "lutece.ui.my_card": "{card} – pot-de-vin {bribe}",
        "lutece.ui.wait_others": "En attente des autres…",
        "lutece.ui.pick_two": "Choisissez 2 cartes Action :",
        "lutece.ui.play_cards": "Jouer ces 2 cartes face cachée",
        "lutece.ui.your_cards": "Vos cartes face cachée",
        "lutece.ui.add": "+{amount} sur {card}",
        "lutece.ui.open_hint": "Pots-de-vin ouverts : tous voient les pièces sur vos cartes ; vous pouvez "
                               "seulement en ajouter.",
        "lutece.ui.clear_bribes": "Reprendre mes pots-de-vin",
        "lutece.ui.lock": "Prêt – verrouiller mes cartes",
        "lutece.ui.you_took": "Vous avez pris : {cards}",
        "lutece.ui.enter_cost": "Nouvelle carte en {slot} : saisissez son coût",
        "lutece.ui.wait_host": "L’hôte prépare le tour suivant.",
        "lutece.ui.score_card": "Votre feuille de score",
        "lutece.ui.score_for_title": "Saisir la feuille de score d’un joueur",
        "lutece.ui.score_hint": "Comptez vos ressources et les points imprimés sur vos Lieux.",
        "lutece.ui.send_score": "Envoyer la feuille de score",
        "lutece.ui.score_sent": "Envoyée – vous pouvez corriger jusqu’à la confirmation de l’hôte.",
        "lutece.ui.player": "Joueur",
        "lutece.ui.gold_col": "Or",
        "lutece.ui.missing": "Manquent encore : {names}",
        "lutece.ui.all_entered": "Toutes les feuilles de score sont là.",
        "lutece.ui.score_cards": "Feuilles de score (visibles par tous)",
        "lutece.ui.locked_count": "{n} sur {total} sont prêts",
        "lutece.ui.ended_by_host": "L’hôte a terminé la partie.",
        "lutece.ui.ended_by_deck": "Une pioche ne peut plus remplir les emplacements : la partie est terminée.",
        "lutece.ui.costs_title": "Coût des cartes",
        "lutece.ui.costs_hint": "Saisissez le coût imprimé sur chaque carte posée (touchez pour corriger).",
        "lutece.ui.refill_wait": "De nouvelles cartes sont posées.",
        "lutece.ui.refill_title": "Nouvelles cartes sur la table",
        "lutece.ui.yes_next": "Oui – tour suivant",
        "lutece.ui.no_end": "Non – terminer la partie",
        "lutece.ui.next_round": "Tour suivant",
        "lutece.ui.end_now": "Terminer la partie maintenant",
        "lutece.ui.costs_first": "Saisissez d’abord le coût de chaque nouvelle carte.",
        "lutece.ui.confirm": "Confirmer les scores finaux",
        "lutece.ui.enter_for": "Joueur",
        "lutece.ui.no_result": "Pas de scores finaux : les feuilles n’ont pas été confirmées.",
        "lutece.ui.winner": "Victoire : {names}",
        "lutece.ui.count_points": "{count} ({points})",
        "lutece.ui.gold_points": "{gold} ({points})",
        "lutece.ui.res_all_equal": "{res} : tous à égalité, {points} chacun",
        "lutece.ui.res_line": "{res} : le plus {most} (10), le moins {fewest} (0)",
        "lutece.ui.chart": "Points par origine",
        "lutece.ui.cells": "Chaque case : nombre (points).",
    },
}
for _lang, _texts in _UI.items():
    MESSAGES[_lang].update(_texts)
