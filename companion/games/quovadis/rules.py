"""Quo Vadis (Reiner Knizia): the pure rules, for a table that keeps the senators on the board.

Rules page: shared/rules/quo-vadis.md; German source: shared/seeds/002_972de333e38ce826.txt.
The physical board keeps the senators; the app holds the laurel chips (pool, the ten face-up
chips, the open supply of 1-laurels), every player's SECRET laurel total, the committee votes,
Caesar, and the end-game scorer.

Decisions where the sources leave room (all documented here and in MESSAGES help texts):

* Seat 0 is the start player; a round ends when the turn passes from the last seat to seat 0.
* A move out of a 3/5-seat committee needs a majority of the committee's *seats* (2 of 3,
  3 of 5). Every senator sitting there (the moving one included) votes with its owner's voice;
  the mover's senators vote yes. Fewer senators present than the majority → no move (not
  offered by legal()). If the mover's own senators already make the majority, the move passes
  at once without asking anyone. Otherwise every other owner of senators there answers yes/no
  once (all their senators vote the same way); the vote resolves when all have answered, or
  when the host closes it (unanswered = no). A failed vote ends the turn (the action is spent).
* ballot "open": each answer is in the public view at once; "secret": a sealed round
  (companion/games/sealed.py), only who has answered is public, all votes are revealed together.
* support_laurel: only when the motion carries, each senator of another player that voted yes
  earns its owner one 1-laurel from the open supply, paid in turn order starting left of the
  mover. When the supply is empty, the remaining supporters get nothing (the supply is finite;
  the log says how many went unpaid). Laurels are never created.
* Moving along a ★ path takes that face-up chip into the mover's secret total; a new chip is
  drawn face up from the pool. If the pool is empty the space stays empty.
* Caesar stands on one ★ path (start: 9 → 13). A senator in the committee below may leave along
  that path without a vote, and takes no laurel (the chip stays, blocked).
* A Caesar chip (value 2) lets its taker move Caesar (or leave him): caesar_chip "immediately"
  (right after the move, same turn) or "end_of_round" (after the last seat's turn, in the order
  the chips were taken). The game ending first cancels pending Caesar moves.
* Move Caesar as a turn action: to any other laurel space (staying put is not an action).
* Laurel hand-over ("give"): any time before the end, 1..own total. Private: giver and receiver
  see it in their private log; the public log and every other view show NOTHING, not even that
  a hand-over happened (bribes stay secret, as with chips passed under the table).
* Laurels are counted, not changed: a player's total is the sum of chips taken + support
  laurels + received − given. The owner's view shows the total and this breakdown.
* Promises ("promise": to a seat, a short text) are logged publicly and listed. With
  binding=false they are just a record; with binding=true they are marked binding and shown
  the same way – enforcement happens at the table (the app cannot know whether a promise was
  kept).
* The public log never states a chip's value or a hand-over: only the taker's private log does
  (the face-up values are public on the board, as at the real table).
* The game ends at once when the fifth Senate seat is filled; then all totals are public.
  Winner: most laurels among players with ≥1 senator in the Senate; tie → whose senator
  reached the Senate first.
"""

from __future__ import annotations

import random
from typing import Any

from companion.games import base, sealed
from companion.games.base import Action, Option, RuleError, State, check_int, clone, require, resolve_options
from companion.games.base import rng as _rng
from companion.games.quovadis.messages import MESSAGES  # noqa: F401  (the game's catalog)

ID = "quovadis"
# Actions a seat may take at any time, whoever's turn it is: they do not make it "your turn"
# (the phone's banner, companion/ui/views/phone.py turn_now).
ANYTIME = frozenset({"give", "promise"})
NAME = "quovadis.name"
MIN_SEATS = 3
MAX_SEATS = 5

# ---------------------------------------------------------------- the board (rules page) --
SEATS: dict[int, int] = {0: 1, 1: 5, 2: 1, 3: 3, 4: 1, 5: 1, 6: 3, 7: 1, 8: 3, 9: 5,
                         10: 1, 11: 1, 12: 3, 13: 5, 14: 3}
START = (0, 1, 2, 3)
SENATE = 13
# (from, to, laurel space?)
PATHS: tuple[tuple[int, int, bool], ...] = (
    (0, 4, False), (1, 8, True), (1, 5, True), (2, 6, False), (3, 6, True), (3, 7, True),
    (4, 8, False), (5, 9, False), (6, 9, True), (6, 11, True), (7, 10, False), (8, 12, True),
    (9, 13, True), (10, 14, False), (11, 14, False), (12, 13, True), (14, 13, True),
)
LAUREL_PATHS: tuple[str, ...] = tuple(f"{a}-{b}" for a, b, star in PATHS if star)
CAESAR_START = "9-13"
NODES = tuple(sorted(SEATS))
MAX_TEXT = 200


def pid(a: int, b: int) -> str:
    return f"{a}-{b}"


def needed(node: int) -> int:
    """Majority of the committee's seats: 2 of 3, 3 of 5 (0 = no vote, 1-seat committee)."""
    cap = SEATS[node]
    return cap // 2 + 1 if cap > 1 else 0


OPTIONS: list[Option] = [
    Option("ballot", "quovadis.opt.ballot", "choice", "open", choices=("open", "secret"),
           choice_labels=("quovadis.ballot.open", "quovadis.ballot.secret"),
           help="quovadis.help.ballot"),
    Option("support_laurel", "quovadis.opt.support_laurel", "bool", True,
           help="quovadis.help.support_laurel"),
    Option("binding", "quovadis.opt.binding", "bool", False, help="quovadis.help.binding"),
    Option("caesar_chip", "quovadis.opt.caesar_chip", "choice", "immediately",
           choices=("immediately", "end_of_round"),
           choice_labels=("quovadis.caesar_chip.immediately", "quovadis.caesar_chip.end_of_round")),
    Option("senators", "quovadis.opt.senators", "int", 8, min=1, max=12),
    Option("chips_2", "quovadis.opt.chips_2", "int", 8, min=0, max=40),
    Option("chips_3", "quovadis.opt.chips_3", "int", 15, min=0, max=40),
    Option("chips_4", "quovadis.opt.chips_4", "int", 9, min=0, max=40),
    Option("chips_5", "quovadis.opt.chips_5", "int", 6, min=0, max=40),
    Option("chips_caesar", "quovadis.opt.chips_caesar", "int", 6, min=0, max=40),
    Option("supply", "quovadis.opt.supply", "int", 18, min=0, max=100),
]

ACTION_TYPES = ("place", "move", "caesar", "keep_caesar", "vote", "close_vote", "give", "promise")


# ---------------------------------------------------------------------------- helpers --
def _chip(value: int, caesar: bool = False) -> dict[str, Any]:
    return {"value": value, "caesar": caesar}


def total(state: State, seat: int) -> int:
    """A player's secret laurel total (rules helper; views show it only to its owner)."""
    p = state["players"][seat]
    return sum(c["value"] for c in p["chips"]) + p["support"] + p["received"] - p["given"]


def laurels_in_play(state: State) -> int:
    """Pool + face-up chips + open supply + every player's total (constant all game)."""
    return (sum(c["value"] for c in state["pool"])
            + sum(c["value"] for c in state["chips"].values() if c)
            + state["supply"]
            + sum(total(state, s) for s in range(state["n"])))


def _occ(state: State, node: int) -> list[int]:
    return state["board"][str(node)]


def _free(state: State, node: int) -> int:
    return SEATS[node] - len(_occ(state, node))


def _pl(state: State, seat: int) -> str:
    return state["names"][seat]


def _log(state: State, key: str, **params: Any) -> None:
    state["log"].append({"key": key, "params": params})


def _plog(state: State, seat: int, key: str, **params: Any) -> None:
    state["plog"][str(seat)].append({"key": key, "params": params})


def _draw(state: State) -> dict[str, Any] | None:
    return state["pool"].pop() if state["pool"] else None


def _turn_order_from(state: State, seat: int) -> list[int]:
    """Other seats in turn order, starting left of `seat`."""
    n = state["n"]
    return [(seat + i) % n for i in range(1, n)]


# --------------------------------------------------------------------------- setup --
def setup(options: dict[str, Any] | None, seats: list[dict[str, Any]], seed: int) -> State:
    opts = resolve_options(OPTIONS, options)
    require(isinstance(seats, list) and MIN_SEATS <= len(seats) <= MAX_SEATS,
            "quovadis.err.seats", lo=MIN_SEATS, hi=MAX_SEATS)
    n = len(seats)
    pool = ([_chip(2) for _ in range(opts["chips_2"])] + [_chip(3) for _ in range(opts["chips_3"])]
            + [_chip(4) for _ in range(opts["chips_4"])] + [_chip(5) for _ in range(opts["chips_5"])]
            + [_chip(2, True) for _ in range(opts["chips_caesar"])])
    state: State = {
        "game": ID,
        "seed": seed,
        "rng_n": 0,
        "options": opts,
        "n": n,
        "names": [str(s.get("name", f"{i + 1}")) for i, s in enumerate(seats)],
        "colours": [str(s.get("colour", "")) for s in seats],
        "board": {str(k): [] for k in NODES},
        "chips": {},
        "pool": pool,
        "supply": opts["supply"],
        "players": [{"reserve": opts["senators"], "chips": [], "support": 0, "received": 0,
                     "given": 0} for _ in range(n)],
        "caesar": CAESAR_START,
        "phase": "turn",
        "turn": 0,
        "round_no": 1,
        "vote": None,
        "caesar_by": None,
        "caesar_mode": None,
        "pending_caesar": [],
        "arrival": [],
        "promises": [],
        "log": [],
        "plog": {str(s): [] for s in range(n)},
    }
    _rng(state, "pool").shuffle(state["pool"])
    for p in LAUREL_PATHS:
        state["chips"][p] = _draw(state)
    state["laurels_total"] = laurels_in_play(state)
    _log(state, "quovadis.log.start", player=_pl(state, 0), seat=0)
    return state


# ------------------------------------------------------------------ move analysis --
def _move_info(state: State, seat: int, a: int, b: int) -> dict[str, Any]:
    """Everything about moving one of `seat`'s senators a → b; RuleError if impossible now."""
    require((a, b) in {(x, y) for x, y, _ in PATHS}, "quovadis.err.no_path", a=a, b=b)
    occ = _occ(state, a)
    require(seat in occ, "quovadis.err.no_senator_there", node=a)
    require(_free(state, b) > 0, "quovadis.err.node_full", node=b)
    p = pid(a, b)
    star = p in state["chips"]
    waived = star and state["caesar"] == p
    need = needed(a)
    own = occ.count(seat)
    info = {"type": "move", "from": a, "to": b, "path": p, "star": star, "caesar": waived,
            "needed": need, "own": own, "present": len(occ),
            "laurel": (dict(state["chips"][p]) if star and not waived and state["chips"][p]
                       else None)}
    if need == 0 or waived or own >= need:
        info["vote"] = False
    else:
        require(len(occ) >= need, "quovadis.err.too_few", node=a, present=len(occ), needed=need)
        info["vote"] = True
    return info


# --------------------------------------------------------------------------- legal --
def legal(state: State, seat: int | None) -> list[Action]:
    """Every action this seat may take now, with details for one-tap buttons.

    "give" entries carry amount 1 and "max" (the UI lets the player choose 1..max);
    "promise" entries are templates the UI completes with a "text" (1..200 characters).
    """
    if state["phase"] == "over":
        return []
    ph = state["phase"]
    if seat is None:
        return [{"type": "close_vote"}] if ph == "vote" else []
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state["n"]:
        return []
    acts: list[Action] = []
    if ph == "turn" and state["turn"] == seat:
        if state["players"][seat]["reserve"] > 0:
            for node in START:
                if _free(state, node) > 0:
                    acts.append({"type": "place", "node": node, "free": _free(state, node)})
        for a, b, _ in PATHS:
            try:
                acts.append(_move_info(state, seat, a, b))
            except RuleError:
                pass
        acts.extend(_caesar_targets(state))
    elif ph == "vote" and seat in _awaiting(state):
        acts += [{"type": "vote", "yes": True}, {"type": "vote", "yes": False}]
    elif ph == "caesar" and state["caesar_by"] == seat:
        acts.extend(_caesar_targets(state))
        acts.append({"type": "keep_caesar"})
    have = total(state, seat)
    for o in range(state["n"]):
        if o != seat:
            if have > 0:
                acts.append({"type": "give", "to": o, "amount": 1, "max": have})
            acts.append({"type": "promise", "to": o, "max_len": MAX_TEXT})
    return acts


def _caesar_targets(state: State) -> list[Action]:
    out = []
    for p in LAUREL_PATHS:
        if p != state["caesar"]:
            a, b = (int(x) for x in p.split("-"))
            out.append({"type": "caesar", "path": p, "from": a, "to": b})
    return out


def _awaiting(state: State) -> list[int]:
    v = state["vote"]
    if not v:
        return []
    if v["secret"]:
        return [s for s in v["voters"] if s not in v["round"]["locked"]]
    return [s for s in v["voters"] if str(s) not in v["answers"]]


# --------------------------------------------------------------------------- apply --
_APPEND_ONLY = ("log", "plog", "promises")  # entries are only appended, never changed


def _int_field(action: Action, key: str, lo: int, hi: int) -> int:
    if key not in action:
        raise RuleError("quovadis.err.missing", field=key)
    return check_int(action[key], lo, hi)


def apply(state: State, action: Action) -> State:
    if not isinstance(action, dict):
        raise RuleError("err.unknown_action")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise RuleError("err.unknown_action")
    seat = action.get("seat")
    if seat is not None:
        require(isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state["n"],
                "quovadis.err.bad_seat")
    require(state["phase"] != "over", "err.game_over")
    new = clone(state, append_only=_APPEND_ONLY)
    if kind == "close_vote":
        require(seat is None, "err.host_only")
    else:
        require(seat is not None, "err.seat_only")
    handler = _HANDLERS[kind]
    handler(new, seat, action)
    return new


def _my_turn(state: State, seat: int) -> None:
    require(state["phase"] == "turn", "err.not_now")
    require(state["turn"] == seat, "quovadis.err.not_your_turn", player=_pl(state, state["turn"]))


def _place(new: State, seat: int, action: Action) -> None:
    _my_turn(new, seat)
    node = _int_field(action, "node", 0, max(NODES))
    require(node in START, "quovadis.err.not_start", node=node)
    require(new["players"][seat]["reserve"] > 0, "quovadis.err.no_reserve")
    require(_free(new, node) > 0, "quovadis.err.node_full", node=node)
    _occ(new, node).append(seat)
    new["players"][seat]["reserve"] -= 1
    _log(new, "quovadis.log.place", player=_pl(new, seat), seat=seat, node=node)
    _end_turn(new)


def _move(new: State, seat: int, action: Action) -> None:
    _my_turn(new, seat)
    a = _int_field(action, "from", 0, max(NODES))
    b = _int_field(action, "to", 0, max(NODES))
    info = _move_info(new, seat, a, b)
    if not info["vote"]:
        if info["caesar"]:
            _log(new, "quovadis.log.caesar_waives", player=_pl(new, seat), seat=seat, a=a, b=b)
        elif info["needed"]:
            _log(new, "quovadis.log.own_majority", player=_pl(new, seat), seat=seat, a=a, b=b,
                 own=info["own"], needed=info["needed"])
        _execute_move(new, seat, a, b)
        return
    occ = _occ(new, a)
    voters = [s for s in _turn_order_from(new, seat) if s in occ]
    secret = new["options"]["ballot"] == "secret"
    new["vote"] = {
        "mover": seat, "from": a, "to": b, "needed": info["needed"], "own": info["own"],
        "voters": voters, "weights": {str(s): occ.count(s) for s in voters},
        "secret": secret, "answers": {},
        "round": sealed.new_round(voters) if secret else None,
    }
    new["phase"] = "vote"
    _log(new, "quovadis.log.vote_open", player=_pl(new, seat), seat=seat, a=a, b=b,
         needed=info["needed"], own=info["own"], present=len(occ))


def _vote(new: State, seat: int, action: Action) -> None:
    require(new["phase"] == "vote", "quovadis.err.no_vote")
    v = new["vote"]
    require(seat in v["voters"], "quovadis.err.not_voter")
    require(seat in _awaiting(new), "quovadis.err.already_voted")
    yes = action.get("yes")
    require(isinstance(yes, bool), "quovadis.err.yes_no")
    if v["secret"]:
        sealed.submit(v["round"], seat, yes)
        sealed.lock(v["round"], seat)
    else:
        v["answers"][str(seat)] = yes
        _log(new, "quovadis.log.vote_yes" if yes else "quovadis.log.vote_no", player=_pl(new, seat),
             seat=seat, yes=yes, weight=v["weights"][str(seat)])
    if not _awaiting(new):
        _resolve_vote(new)


def _close_vote(new: State, seat: int | None, action: Action) -> None:
    require(new["phase"] == "vote", "quovadis.err.no_vote")
    _log(new, "quovadis.log.vote_closed", missing=len(_awaiting(new)))
    _resolve_vote(new)


def _resolve_vote(new: State) -> None:
    v = new["vote"]
    if v["secret"]:
        rnd = v["round"]
        sealed.reveal(rnd)
        answers = {str(s): sealed.choice(rnd, s) is True for s in v["voters"]}
        for s in v["voters"]:
            _log(new, "quovadis.log.vote_yes" if answers[str(s)] else "quovadis.log.vote_no",
                 player=_pl(new, s), seat=s, yes=answers[str(s)], weight=v["weights"][str(s)])
    else:
        answers = {str(s): v["answers"].get(str(s)) is True for s in v["voters"]}
    yes_votes = v["own"] + sum(v["weights"][str(s)] for s in v["voters"] if answers[str(s)])
    mover, a, b = v["mover"], v["from"], v["to"]
    new["vote"] = None
    new["phase"] = "turn"
    if yes_votes < v["needed"]:
        _log(new, "quovadis.log.vote_failed", player=_pl(new, mover), seat=mover, a=a, b=b,
             yes=yes_votes, needed=v["needed"])
        _end_turn(new)
        return
    _log(new, "quovadis.log.vote_passed", player=_pl(new, mover), seat=mover, a=a, b=b,
         yes=yes_votes, needed=v["needed"])
    if new["options"]["support_laurel"]:
        unpaid = 0
        for s in v["voters"]:
            if not answers[str(s)]:
                continue
            w = v["weights"][str(s)]
            paid = min(w, new["supply"])
            new["supply"] -= paid
            unpaid += w - paid
            if paid:
                new["players"][s]["support"] += paid
                _log(new, "quovadis.log.support", player=_pl(new, s), seat=s, n=paid)
                _plog(new, s, "quovadis.plog.support", n=paid)
        if unpaid:
            _log(new, "quovadis.log.supply_empty", n=unpaid)
    _execute_move(new, mover, a, b)


def _execute_move(new: State, seat: int, a: int, b: int) -> None:
    occ = _occ(new, a)
    occ.remove(seat)
    _occ(new, b).append(seat)
    p = pid(a, b)
    caesar_chip = False
    if p in new["chips"] and new["caesar"] != p:
        chip = new["chips"][p]
        if chip:
            new["players"][seat]["chips"].append({**chip, "path": p})
            caesar_chip = chip["caesar"]
            _plog(new, seat, "quovadis.plog.chip_caesar" if chip["caesar"] else "quovadis.plog.chip",
                  value=chip["value"], caesar=chip["caesar"], a=a, b=b)
            nxt = _draw(new)
            new["chips"][p] = nxt
            _log(new, "quovadis.log.move_laurel", player=_pl(new, seat), seat=seat, a=a, b=b)
            if nxt is None:
                _log(new, "quovadis.log.pool_empty", a=a, b=b)
        else:
            _log(new, "quovadis.log.move", player=_pl(new, seat), seat=seat, a=a, b=b)
    else:
        _log(new, "quovadis.log.move", player=_pl(new, seat), seat=seat, a=a, b=b)
    if b == SENATE:
        new["arrival"].append(seat)
        _log(new, "quovadis.log.senate", player=_pl(new, seat), seat=seat, place=len(new["arrival"]))
        if _free(new, SENATE) == 0:
            _finish(new)
            return
    if caesar_chip:
        _log(new, "quovadis.log.caesar_chip", player=_pl(new, seat), seat=seat)
        if new["options"]["caesar_chip"] == "immediately":
            new["phase"] = "caesar"
            new["caesar_by"] = seat
            new["caesar_mode"] = "now"
            return
        new["pending_caesar"].append(seat)
    _end_turn(new)


def _finish(new: State) -> None:
    new["phase"] = "over"
    new["vote"] = None
    new["caesar_by"] = None
    new["caesar_mode"] = None
    new["pending_caesar"] = []
    _log(new, "quovadis.log.end")


def _end_turn(new: State) -> None:
    new["phase"] = "turn"
    new["caesar_by"] = None
    new["caesar_mode"] = None
    nxt = (new["turn"] + 1) % new["n"]
    new["turn"] = nxt
    if nxt == 0:
        new["round_no"] += 1
        if new["pending_caesar"]:
            _next_pending_caesar(new)
            return
    _log(new, "quovadis.log.turn", player=_pl(new, nxt), seat=nxt)


def _next_pending_caesar(new: State) -> None:
    s = new["pending_caesar"].pop(0)
    new["phase"] = "caesar"
    new["caesar_by"] = s
    new["caesar_mode"] = "round"
    _log(new, "quovadis.log.caesar_due", player=_pl(new, s), seat=s)


def _after_caesar(new: State) -> None:
    if new["caesar_mode"] == "now":
        _end_turn(new)
        return
    if new["pending_caesar"]:
        _next_pending_caesar(new)
        return
    new["phase"] = "turn"
    new["caesar_by"] = None
    new["caesar_mode"] = None
    _log(new, "quovadis.log.turn", player=_pl(new, new["turn"]), seat=new["turn"])


def _caesar(new: State, seat: int, action: Action) -> None:
    path = action.get("path")
    require(isinstance(path, str) and path in LAUREL_PATHS, "quovadis.err.bad_space")
    if new["phase"] == "caesar":
        require(new["caesar_by"] == seat, "quovadis.err.not_caesar",
                player=_pl(new, new["caesar_by"]))
    else:
        _my_turn(new, seat)
    require(path != new["caesar"], "quovadis.err.caesar_same")
    new["caesar"] = path
    a, b = path.split("-")
    _log(new, "quovadis.log.caesar", player=_pl(new, seat), seat=seat, a=int(a), b=int(b))
    if new["phase"] == "caesar":
        _after_caesar(new)
    else:
        _end_turn(new)


def _keep_caesar(new: State, seat: int, action: Action) -> None:
    require(new["phase"] == "caesar", "err.not_now")
    require(new["caesar_by"] == seat, "quovadis.err.not_caesar", player=_pl(new, new["caesar_by"]))
    _log(new, "quovadis.log.caesar_keep", player=_pl(new, seat), seat=seat)
    _after_caesar(new)


def _give(new: State, seat: int, action: Action) -> None:
    to = _int_field(action, "to", 0, new["n"] - 1)
    require(to != seat, "quovadis.err.give_self")
    have = total(new, seat)
    require(have > 0, "quovadis.err.nothing_to_give")
    if "amount" not in action:
        raise RuleError("quovadis.err.missing", field="amount")
    amount = action["amount"]
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise RuleError("err.not_a_number")
    require(amount >= 1, "err.range", lo=1, hi=have)
    require(amount <= have, "quovadis.err.give_too_much", have=have, amount=amount)
    new["players"][seat]["given"] += amount
    new["players"][to]["received"] += amount
    _plog(new, seat, "quovadis.plog.gave", to_player=_pl(new, to), to=to, n=amount)
    _plog(new, to, "quovadis.plog.received", from_player=_pl(new, seat), frm=seat, n=amount)


def _promise(new: State, seat: int, action: Action) -> None:
    to = _int_field(action, "to", 0, new["n"] - 1)
    require(to != seat, "quovadis.err.promise_self")
    text = action.get("text")
    require(isinstance(text, str) and text.strip() != "", "quovadis.err.promise_text", hi=MAX_TEXT)
    text = text.strip()
    require(len(text) <= MAX_TEXT, "quovadis.err.promise_text", hi=MAX_TEXT)
    binding = bool(new["options"]["binding"])
    new["promises"].append({"from": seat, "to": to, "text": text, "binding": binding,
                            "round_no": new["round_no"]})
    _log(new, "quovadis.log.promise_binding" if binding else "quovadis.log.promise",
         player=_pl(new, seat), seat=seat, to_player=_pl(new, to), to=to, text=text)


_HANDLERS = {"place": _place, "move": _move, "caesar": _caesar, "keep_caesar": _keep_caesar,
             "vote": _vote, "close_vote": _close_vote, "give": _give, "promise": _promise}


SEALED_CHOICES = frozenset({"vote"})  # a voter's answer in a secret ballot (undo of its reveal clears them)


def sealed_round(state: State) -> tuple[Any, dict[str, Any]] | None:
    """The secret ballot now open, keyed by the move it decides; None otherwise (an open ballot has
    no sealed round, and a revealed ballot is gone from the state)."""
    v = state["vote"]
    if not v or not v["secret"]:
        return None
    return (state["round_no"], state["turn"], v["mover"], v["from"], v["to"]), v["round"]


# ---------------------------------------------------------------------------- view --
def _answered(state: State) -> list[int]:
    v = state["vote"]
    if not v:
        return []
    return [s for s in v["voters"] if s not in _awaiting(state)]


def _public_vote(state: State) -> dict[str, Any] | None:
    v = state["vote"]
    if not v:
        return None
    out: dict[str, Any] = {
        "mover": v["mover"], "from": v["from"], "to": v["to"], "needed": v["needed"],
        "own": v["own"], "voters": list(v["voters"]),
        "weights": {k: w for k, w in v["weights"].items()},
        "ballot": "secret" if v["secret"] else "open",
        "awaiting": _awaiting(state),
        "max_yes": v["own"] + sum(v["weights"].values()),
    }
    if v["secret"]:
        out["answered"] = list(v["round"]["locked"])
    else:
        out["answers"] = dict(v["answers"])
        out["yes_so_far"] = v["own"] + sum(v["weights"][s] for s, y in v["answers"].items() if y)
        out["no_so_far"] = sum(v["weights"][s] for s, y in v["answers"].items() if not y)
        out["answered"] = [int(s) for s in v["answers"]]
    return out


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The public board for everyone; a seat's own total, chips, private log and buttons on top."""
    n = state["n"]
    over = state["phase"] == "over"
    nodes = []
    for k in NODES:
        occ = _occ(state, k)
        nodes.append({"id": k, "seats": SEATS[k], "occupants": list(occ), "free": SEATS[k] - len(occ),
                      "start": k in START, "senate": k == SENATE, "needed": needed(k),
                      "paths": [b for a, b, _ in PATHS if a == k]})
    paths = []
    for a, b, star in PATHS:
        p = pid(a, b)
        chip = state["chips"].get(p) if star else None
        paths.append({"id": p, "from": a, "to": b, "laurel": star,
                      "chip": dict(chip) if chip else None, "caesar": state["caesar"] == p})
    seats = []
    for s in range(n):
        pl = state["players"][s]
        on_board = sum(occ.count(s) for occ in state["board"].values())
        seats.append({"seat": s, "name": state["names"][s], "colour": state["colours"][s],
                      "reserve": pl["reserve"], "on_board": on_board,
                      "in_senate": _occ(state, SENATE).count(s)})
    out: dict[str, Any] = {
        "game": ID,
        "phase": state["phase"],
        "turn": None if over else state["turn"],
        "round_no": state["round_no"],
        "nodes": nodes,
        "paths": paths,
        "caesar": state["caesar"],
        "vote": _public_vote(state),
        "caesar_by": state["caesar_by"],
        "pending_caesar": list(state["pending_caesar"]),
        "supply": state["supply"],
        "pool_left": len(state["pool"]),
        "seats": seats,
        "arrival": list(state["arrival"]),
        "promises": [dict(p) for p in state["promises"]],
        "options": dict(state["options"]),
        "log": [dict(e, params=dict(e["params"])) for e in state["log"]],
        "result": result(state) if over else None,
        "over": over,
        # the platform's seat list shows who has answered the running vote (never what)
        "submitted": _answered(state),
        "locked": _answered(state),
    }
    if seat is not None and isinstance(seat, int) and 0 <= seat < n:
        pl = state["players"][seat]
        me: dict[str, Any] = {
            "seat": seat,
            "total": total(state, seat),
            "chips": [dict(c) for c in pl["chips"]],
            "support": pl["support"],
            "received": pl["received"],
            "given": pl["given"],
            "reserve": pl["reserve"],
            "log": [dict(e, params=dict(e["params"])) for e in state["plog"][str(seat)]],
        }
        v = state["vote"]
        if v and seat in v["voters"]:
            me["my_vote"] = (sealed.choice(v["round"], seat) if v["secret"]
                             else v["answers"].get(str(seat)))
            me["my_weight"] = v["weights"][str(seat)]
        out["me"] = me
        out["legal"] = legal(state, seat)
    else:
        out["legal"] = legal(state, None) if seat is None else []
    return out


# -------------------------------------------------------------------------- result --
def result(state: State) -> dict[str, Any] | None:
    if state["phase"] != "over":
        return None
    n = state["n"]
    arrival = state["arrival"]
    first = {s: arrival.index(s) for s in range(n) if s in arrival}
    rows = []
    for s in range(n):
        pl = state["players"][s]
        rows.append({"seat": s, "name": state["names"][s], "total": total(state, s),
                     "qualified": s in first, "first_arrival": first.get(s),
                     "in_senate": arrival.count(s),
                     "breakdown": {"chips": [dict(c) for c in pl["chips"]],
                                   "chip_sum": sum(c["value"] for c in pl["chips"]),
                                   "support": pl["support"], "received": pl["received"],
                                   "given": pl["given"]}})
    qualified = sorted((r for r in rows if r["qualified"]),
                       key=lambda r: (-r["total"], r["first_arrival"]))
    others = sorted((r for r in rows if not r["qualified"]), key=lambda r: (-r["total"], r["seat"]))
    ranking = qualified + others
    for i, r in enumerate(ranking):
        r["rank"] = i + 1
    winner = qualified[0]["seat"] if qualified else None
    tie = len(qualified) > 1 and qualified[0]["total"] == qualified[1]["total"]
    return {
        "winner": winner,
        "winner_name": state["names"][winner] if winner is not None else None,
        "tie_break": "arrival" if tie else "laurels",
        "qualified": [r["seat"] for r in qualified],
        "arrival": list(arrival),
        "totals": {str(r["seat"]): r["total"] for r in rows},
        "ranking": ranking,
    }


def rounds(state: State) -> int:
    """Rounds played (the history's count): the round in play when the game ended."""
    return int(state["round_no"])


def outcome(state: State) -> base.Result | None:
    """The result in the one shape of every game: ranks by laurels (qualified first)."""
    r = result(state)
    if r is None:
        return None
    rows = sorted(r["ranking"], key=lambda x: x["seat"])
    return base.Result(
        ranks=tuple(x["rank"] for x in rows), scores=tuple(x["total"] for x in rows),
        winners=() if r["winner"] is None else (r["winner"],),
        breakdown=tuple({"chips": x["breakdown"]["chip_sum"], "support": x["breakdown"]["support"],
                         "received": x["breakdown"]["received"], "given": -x["breakdown"]["given"]}
                        for x in rows),
        tie_break="quovadis.ui.tie_note" if r["tie_break"] == "arrival" else None)


# ------------------------------------------------------------------ random play --
SAMPLE_WEIGHTS = {"move": 12, "place": 6, "vote": 10, "caesar": 2, "keep_caesar": 2, "give": 1,
                  "promise": 1, "close_vote": 1}
SAMPLE_TEXTS = ("yes for 2", "I will not block you", "Ⅲ laurels")


def _fill(state: State, seat: int | None, a: Action, r: random.Random) -> Action:
    if a["type"] == "give":
        a["amount"] = r.randint(1, a.pop("max"))
    elif a["type"] == "promise":
        a.pop("max_len", None)
        a["text"] = r.choice(SAMPLE_TEXTS)
    return a


def sample(state: State, seat: int | None, r: random.Random,
           legal_: list[Any] | None = None) -> Action | None:
    """A random legal concrete action (tools and tests): legal() with amount and text filled in."""
    entries = legal(state, seat) if legal_ is None else legal_
    return base.sample_legal(entries, r, state=state, seat=seat, weights=SAMPLE_WEIGHTS, fill=_fill)
