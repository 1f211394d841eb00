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

from typing import Any

from companion.games import sealed
from companion.games.base import Action, Option, RuleError, State, check_int, clone, require, resolve_options
from companion.games.base import rng as _rng

ID = "quovadis"
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


# ------------------------------------------------------------------------- catalog --
MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "quovadis.name": "Quo Vadis",
        "quovadis.opt.ballot": "Committee votes",
        "quovadis.ballot.open": "Open (everyone sees the votes live)",
        "quovadis.ballot.secret": "Secret (revealed together)",
        "quovadis.help.ballot": "Open: each answer appears at once. Secret: only who has answered "
                                "is shown until everyone has voted.",
        "quovadis.opt.support_laurel": "Support laurels",
        "quovadis.help.support_laurel": "When a move is approved, each senator of another player "
                                        "that voted yes earns its owner one laurel from the open "
                                        "supply (nothing once the supply is empty).",
        "quovadis.opt.binding": "Promises are binding",
        "quovadis.help.binding": "Promises are always recorded and shown. Binding ones are marked "
                                 "as such; keeping them is up to the table.",
        "quovadis.opt.caesar_chip": "Caesar chip moves Caesar",
        "quovadis.caesar_chip.immediately": "Immediately",
        "quovadis.caesar_chip.end_of_round": "At the end of the round",
        "quovadis.opt.senators": "Senators per player",
        "quovadis.opt.chips_2": "Laurel chips worth 2",
        "quovadis.opt.chips_3": "Laurel chips worth 3",
        "quovadis.opt.chips_4": "Laurel chips worth 4",
        "quovadis.opt.chips_5": "Laurel chips worth 5",
        "quovadis.opt.chips_caesar": "Caesar chips (worth 2)",
        "quovadis.opt.supply": "1-laurels in the open supply",
        "quovadis.err.seats": "Quo Vadis needs {lo} to {hi} players.",
        "quovadis.err.bad_seat": "That seat does not exist at this table.",
        "quovadis.err.missing": "Something is missing: “{field}”.",
        "quovadis.err.not_your_turn": "It is {player}’s turn.",
        "quovadis.err.not_start": "Committee {node} is not a start committee (0–3).",
        "quovadis.err.no_reserve": "All your senators are on the board already.",
        "quovadis.err.node_full": "Committee {node} has no free seat.",
        "quovadis.err.no_path": "There is no path from {a} to {b}.",
        "quovadis.err.no_senator_there": "You have no senator in committee {node}.",
        "quovadis.err.too_few": "Committee {node} has {present} of the {needed} senators a vote needs: nobody can leave it now.",
        "quovadis.err.no_vote": "No vote is running.",
        "quovadis.err.not_voter": "You have no senator in this committee, so you do not vote.",
        "quovadis.err.already_voted": "You have voted already.",
        "quovadis.err.yes_no": "Answer yes or no.",
        "quovadis.err.bad_space": "That is not a laurel space.",
        "quovadis.err.caesar_same": "Caesar stands there already.",
        "quovadis.err.not_caesar": "{player} moves Caesar now.",
        "quovadis.err.give_self": "You cannot give laurels to yourself.",
        "quovadis.err.nothing_to_give": "You have no laurels to give.",
        "quovadis.err.give_too_much": "Your laurels: {have}. Giving {amount} is not possible.",
        "quovadis.err.promise_self": "A promise is made to another player.",
        "quovadis.err.promise_text": "Write the promise (1 to {hi} characters).",
        "quovadis.log.start": "The game begins. {player} starts.",
        "quovadis.log.turn": "{player}’s turn.",
        "quovadis.log.place": "{player} places a senator in committee {node}.",
        "quovadis.log.move": "{player} moves a senator from {a} to {b}.",
        "quovadis.log.move_laurel": "{player} moves a senator from {a} to {b} and takes the laurel.",
        "quovadis.log.caesar_waives": "Caesar lets {player}’s senator leave {a} for {b} without a vote "
                                      "(no laurel).",
        "quovadis.log.own_majority": "{player}’s own {own} senators make the majority ({needed}) in {a}.",
        "quovadis.log.vote_open": "{player} asks committee {a} to move a senator to {b}: {needed} yes "
                                  "votes needed, {own} of their own.",
        "quovadis.log.vote_yes": "{player} votes yes (senators: {weight}).",
        "quovadis.log.vote_no": "{player} votes no (senators: {weight}).",
        "quovadis.log.vote_closed": "The host closes the vote; missing answers count as no ({missing}).",
        "quovadis.log.vote_passed": "Approved with {yes} of {needed} votes needed.",
        "quovadis.log.vote_failed": "Rejected: only {yes} yes votes, {needed} needed. {player}’s senator "
                                    "stays in {a}.",
        "quovadis.log.support": "Support laurels for {player}: {n}.",
        "quovadis.log.supply_empty": "The open supply is empty; support laurels not paid: {n}.",
        "quovadis.log.pool_empty": "No laurel chips left: the space {a} » {b} stays empty.",
        "quovadis.log.senate": "{player} reaches the Senate (arrival no. {place}).",
        "quovadis.log.caesar_chip": "{player} took a Caesar chip and may move Caesar.",
        "quovadis.log.caesar_due": "End of the round: {player} may move Caesar.",
        "quovadis.log.caesar": "{player} moves Caesar to the space {a} » {b}.",
        "quovadis.log.caesar_keep": "{player} leaves Caesar where he stands.",
        "quovadis.log.promise": "{player} promises {to_player}: “{text}” (not binding).",
        "quovadis.log.promise_binding": "{player} promises {to_player}: “{text}” (binding – the table "
                                        "holds them to it).",
        "quovadis.log.end": "The Senate is full – the game is over.",
        "quovadis.plog.chip": "You took a {value}-laurel chip on {a} » {b}.",
        "quovadis.plog.chip_caesar": "You took a Caesar chip worth {value} on {a} » {b}.",
        "quovadis.plog.support": "Support laurels for you: {n}.",
        "quovadis.plog.gave": "Hand-over to {to_player} – laurels: {n}.",
        "quovadis.plog.received": "Hand-over from {from_player} – laurels: {n}.",
    },
    "de": {
        "quovadis.name": "Quo Vadis",
        "quovadis.opt.ballot": "Abstimmungen in den Gremien",
        "quovadis.ballot.open": "Offen (alle sehen die Stimmen sofort)",
        "quovadis.ballot.secret": "Geheim (gemeinsam aufgedeckt)",
        "quovadis.help.ballot": "Offen: jede Antwort erscheint sofort. Geheim: bis alle abgestimmt "
                                "haben, sieht man nur, wer schon geantwortet hat.",
        "quovadis.opt.support_laurel": "Lorbeer für Unterstützung",
        "quovadis.help.support_laurel": "Wird ein Zug genehmigt, bekommt jeder fremde Senator, der mit Ja "
                                        "gestimmt hat, seinem Besitzer einen Lorbeer aus dem offenen "
                                        "Vorrat (nichts mehr, wenn der Vorrat leer ist).",
        "quovadis.opt.binding": "Versprechen sind bindend",
        "quovadis.help.binding": "Versprechen werden immer festgehalten und angezeigt. Bindende werden "
                                 "markiert; ob sie gehalten werden, regelt der Tisch.",
        "quovadis.opt.caesar_chip": "Caesar-Chip bewegt Caesar",
        "quovadis.caesar_chip.immediately": "Sofort",
        "quovadis.caesar_chip.end_of_round": "Am Ende der Runde",
        "quovadis.opt.senators": "Senatoren pro Person",
        "quovadis.opt.chips_2": "Lorbeer-Chips mit Wert 2",
        "quovadis.opt.chips_3": "Lorbeer-Chips mit Wert 3",
        "quovadis.opt.chips_4": "Lorbeer-Chips mit Wert 4",
        "quovadis.opt.chips_5": "Lorbeer-Chips mit Wert 5",
        "quovadis.opt.chips_caesar": "Caesar-Chips (Wert 2)",
        "quovadis.opt.supply": "Einer-Lorbeeren im offenen Vorrat",
        "quovadis.err.seats": "Quo Vadis braucht {lo} bis {hi} Personen.",
        "quovadis.err.bad_seat": "Diesen Platz gibt es an diesem Tisch nicht.",
        "quovadis.err.missing": "Es fehlt etwas: „{field}“.",
        "quovadis.err.not_your_turn": "{player} ist am Zug.",
        "quovadis.err.not_start": "Gremium {node} ist kein Startgremium (0–3).",
        "quovadis.err.no_reserve": "Alle deine Senatoren stehen schon auf dem Plan.",
        "quovadis.err.node_full": "Im Gremium {node} ist kein Platz frei.",
        "quovadis.err.no_path": "Es gibt keinen Weg von {a} nach {b}.",
        "quovadis.err.no_senator_there": "Du hast keinen Senator im Gremium {node}.",
        "quovadis.err.too_few": "Im Gremium {node} sitzen {present} der {needed} Senatoren, die eine Abstimmung braucht: niemand kann es jetzt verlassen.",
        "quovadis.err.no_vote": "Es läuft keine Abstimmung.",
        "quovadis.err.not_voter": "Du hast keinen Senator in diesem Gremium und stimmst nicht ab.",
        "quovadis.err.already_voted": "Du hast schon abgestimmt.",
        "quovadis.err.yes_no": "Antworte mit Ja oder Nein.",
        "quovadis.err.bad_space": "Das ist kein Lorbeerfeld.",
        "quovadis.err.caesar_same": "Caesar steht schon dort.",
        "quovadis.err.not_caesar": "{player} bewegt gerade Caesar.",
        "quovadis.err.give_self": "Du kannst dir selbst keine Lorbeeren geben.",
        "quovadis.err.nothing_to_give": "Du hast keine Lorbeeren zum Abgeben.",
        "quovadis.err.give_too_much": "Deine Lorbeeren: {have}. {amount} abzugeben ist nicht möglich.",
        "quovadis.err.promise_self": "Ein Versprechen gibt man jemand anderem.",
        "quovadis.err.promise_text": "Schreib das Versprechen auf (1 bis {hi} Zeichen).",
        "quovadis.log.start": "Das Spiel beginnt. {player} fängt an.",
        "quovadis.log.turn": "{player} ist am Zug.",
        "quovadis.log.place": "{player} setzt einen Senator ins Gremium {node}.",
        "quovadis.log.move": "{player} zieht einen Senator von {a} nach {b}.",
        "quovadis.log.move_laurel": "{player} zieht einen Senator von {a} nach {b} und nimmt den Lorbeer.",
        "quovadis.log.caesar_waives": "Caesar lässt den Senator von {player} ohne Abstimmung von {a} "
                                      "nach {b} ziehen (kein Lorbeer).",
        "quovadis.log.own_majority": "Die eigenen {own} Senatoren von {player} stellen in {a} die "
                                     "Mehrheit ({needed}).",
        "quovadis.log.vote_open": "{player} beantragt im Gremium {a} den Aufstieg nach {b}: {needed} "
                                  "Ja-Stimmen nötig, {own} eigene.",
        "quovadis.log.vote_yes": "{player} stimmt mit Ja (Senatoren: {weight}).",
        "quovadis.log.vote_no": "{player} stimmt mit Nein (Senatoren: {weight}).",
        "quovadis.log.vote_closed": "Die Spielleitung schließt die Abstimmung; fehlende Antworten zählen als Nein ({missing}).",
        "quovadis.log.vote_passed": "Genehmigt mit {yes} Stimmen ({needed} nötig).",
        "quovadis.log.vote_failed": "Abgelehnt: nur {yes} Ja-Stimmen, {needed} nötig. Der Senator von "
                                    "{player} bleibt in {a}.",
        "quovadis.log.support": "Unterstützungs-Lorbeeren für {player}: {n}.",
        "quovadis.log.supply_empty": "Der offene Vorrat ist leer; nicht ausgezahlte Unterstützungs-Lorbeeren: {n}.",
        "quovadis.log.pool_empty": "Keine Lorbeer-Chips mehr: das Feld {a} » {b} bleibt leer.",
        "quovadis.log.senate": "{player} erreicht den Senat (Ankunft Nr. {place}).",
        "quovadis.log.caesar_chip": "{player} hat einen Caesar-Chip genommen und darf Caesar bewegen.",
        "quovadis.log.caesar_due": "Rundenende: {player} darf Caesar bewegen.",
        "quovadis.log.caesar": "{player} stellt Caesar auf das Feld {a} » {b}.",
        "quovadis.log.caesar_keep": "{player} lässt Caesar stehen.",
        "quovadis.log.promise": "{player} verspricht {to_player}: „{text}“ (nicht bindend).",
        "quovadis.log.promise_binding": "{player} verspricht {to_player}: „{text}“ (bindend – der Tisch "
                                        "achtet darauf).",
        "quovadis.log.end": "Der Senat ist voll – das Spiel ist zu Ende.",
        "quovadis.plog.chip": "Du hast auf {a} » {b} einen Lorbeer-Chip mit Wert {value} genommen.",
        "quovadis.plog.chip_caesar": "Du hast auf {a} » {b} einen Caesar-Chip mit Wert {value} genommen.",
        "quovadis.plog.support": "Unterstützungs-Lorbeeren für dich: {n}.",
        "quovadis.plog.gave": "Übergabe an {to_player} – Lorbeeren: {n}.",
        "quovadis.plog.received": "Übergabe von {from_player} – Lorbeeren: {n}.",
    },
    "fr": {
        "quovadis.name": "Quo Vadis",
        "quovadis.opt.ballot": "Votes des commissions",
        "quovadis.ballot.open": "À main levée (tout le monde voit les votes)",
        "quovadis.ballot.secret": "À bulletin secret (révélés ensemble)",
        "quovadis.help.ballot": "À main levée : chaque réponse s’affiche aussitôt. Secret : on voit "
                                "seulement qui a répondu, jusqu’à ce que tous aient voté.",
        "quovadis.opt.support_laurel": "Lauriers de soutien",
        "quovadis.help.support_laurel": "Quand un déplacement est approuvé, chaque sénateur d’un autre "
                                        "joueur ayant voté oui rapporte à son propriétaire un laurier de "
                                        "la réserve ouverte (plus rien si elle est vide).",
        "quovadis.opt.binding": "Les promesses engagent",
        "quovadis.help.binding": "Les promesses sont toujours notées et affichées. Celles qui engagent "
                                 "sont marquées ; c’est à la table de les faire respecter.",
        "quovadis.opt.caesar_chip": "Le jeton César déplace César",
        "quovadis.caesar_chip.immediately": "Immédiatement",
        "quovadis.caesar_chip.end_of_round": "À la fin du tour de table",
        "quovadis.opt.senators": "Sénateurs par joueur",
        "quovadis.opt.chips_2": "Jetons laurier de valeur 2",
        "quovadis.opt.chips_3": "Jetons laurier de valeur 3",
        "quovadis.opt.chips_4": "Jetons laurier de valeur 4",
        "quovadis.opt.chips_5": "Jetons laurier de valeur 5",
        "quovadis.opt.chips_caesar": "Jetons César (valeur 2)",
        "quovadis.opt.supply": "Lauriers de 1 dans la réserve ouverte",
        "quovadis.err.seats": "Quo Vadis se joue de {lo} à {hi} joueurs.",
        "quovadis.err.bad_seat": "Cette place n’existe pas à cette table.",
        "quovadis.err.missing": "Il manque quelque chose : « {field} ».",
        "quovadis.err.not_your_turn": "C’est au tour de {player}.",
        "quovadis.err.not_start": "La commission {node} n’est pas une commission de départ (0–3).",
        "quovadis.err.no_reserve": "Tous vos sénateurs sont déjà sur le plateau.",
        "quovadis.err.node_full": "La commission {node} n’a plus de siège libre.",
        "quovadis.err.no_path": "Il n’y a pas de chemin de {a} à {b}.",
        "quovadis.err.no_senator_there": "Vous n’avez aucun sénateur dans la commission {node}.",
        "quovadis.err.too_few": "La commission {node} compte {present} des {needed} sénateurs qu’un vote exige : personne ne peut en sortir maintenant.",
        "quovadis.err.no_vote": "Aucun vote n’est en cours.",
        "quovadis.err.not_voter": "Vous n’avez pas de sénateur dans cette commission : vous ne votez pas.",
        "quovadis.err.already_voted": "Vous avez déjà voté.",
        "quovadis.err.yes_no": "Répondez oui ou non.",
        "quovadis.err.bad_space": "Ce n’est pas une case laurier.",
        "quovadis.err.caesar_same": "César s’y trouve déjà.",
        "quovadis.err.not_caesar": "C’est {player} qui déplace César maintenant.",
        "quovadis.err.give_self": "Vous ne pouvez pas vous donner des lauriers.",
        "quovadis.err.nothing_to_give": "Vous n’avez aucun laurier à donner.",
        "quovadis.err.give_too_much": "Vos lauriers : {have}. En donner {amount} est impossible.",
        "quovadis.err.promise_self": "Une promesse se fait à un autre joueur.",
        "quovadis.err.promise_text": "Écrivez la promesse (de 1 à {hi} caractères).",
        "quovadis.log.start": "La partie commence. {player} joue en premier.",
        "quovadis.log.turn": "À {player} de jouer.",
        "quovadis.log.place": "{player} place un sénateur dans la commission {node}.",
        "quovadis.log.move": "{player} déplace un sénateur de {a} à {b}.",
        "quovadis.log.move_laurel": "{player} déplace un sénateur de {a} à {b} et prend le laurier.",
        "quovadis.log.caesar_waives": "César laisse le sénateur de {player} passer de {a} à {b} sans vote "
                                      "(sans laurier).",
        "quovadis.log.own_majority": "Les {own} sénateurs de {player} font à eux seuls la majorité "
                                     "({needed}) en {a}.",
        "quovadis.log.vote_open": "{player} demande à la commission {a} de monter en {b} : {needed} oui "
                                  "nécessaires, dont {own} à lui.",
        "quovadis.log.vote_yes": "{player} vote oui (sénateurs : {weight}).",
        "quovadis.log.vote_no": "{player} vote non (sénateurs : {weight}).",
        "quovadis.log.vote_closed": "L’hôte clôt le vote ; les réponses manquantes comptent non ({missing}).",
        "quovadis.log.vote_passed": "Approuvé avec {yes} voix ({needed} nécessaires).",
        "quovadis.log.vote_failed": "Rejeté : seulement {yes} oui, {needed} nécessaires. Le sénateur de "
                                    "{player} reste en {a}.",
        "quovadis.log.support": "Lauriers de soutien pour {player} : {n}.",
        "quovadis.log.supply_empty": "La réserve ouverte est vide ; lauriers de soutien non versés : {n}.",
        "quovadis.log.pool_empty": "Plus de jetons laurier : la case {a} » {b} reste vide.",
        "quovadis.log.senate": "{player} entre au Sénat (arrivée n° {place}).",
        "quovadis.log.caesar_chip": "{player} a pris un jeton César et peut déplacer César.",
        "quovadis.log.caesar_due": "Fin du tour de table : {player} peut déplacer César.",
        "quovadis.log.caesar": "{player} place César sur la case {a} » {b}.",
        "quovadis.log.caesar_keep": "{player} laisse César où il est.",
        "quovadis.log.promise": "{player} promet à {to_player} : « {text} » (sans engagement).",
        "quovadis.log.promise_binding": "{player} promet à {to_player} : « {text} » (engagement – la "
                                        "table y veille).",
        "quovadis.log.end": "Le Sénat est complet – la partie est terminée.",
        "quovadis.plog.chip": "Vous avez pris un jeton laurier de {value} sur {a} » {b}.",
        "quovadis.plog.chip_caesar": "Vous avez pris un jeton César de valeur {value} sur {a} » {b}.",
        "quovadis.plog.support": "Lauriers de soutien pour vous : {n}.",
        "quovadis.plog.gave": "Don à {to_player} – lauriers : {n}.",
        "quovadis.plog.received": "Don de {from_player} – lauriers : {n}.",
    },
}

# Screen texts (companion/ui/games/quovadis.py)
_UI: dict[str, dict[str, str]] = {
    "en": {
        "quovadis.ui.node": "Committee {n}",
        "quovadis.ui.senate": "Senate",
        "quovadis.ui.seats_n": "{n} seats",
        "quovadis.ui.seat_one": "1 seat",
        "quovadis.ui.board": "Board",
        "quovadis.ui.empty_space": "no chip",
        "quovadis.ui.caesar_word": "Caesar",
        "quovadis.ui.chip": "laurel {value}",
        "quovadis.ui.chip_caesar": "laurel {value} + Caesar",
        "quovadis.ui.supply": "Open supply: {n} × 1",
        "quovadis.ui.pool": "Chips left in the pool: {n}",
        "quovadis.ui.arrival": "Arrivals in the Senate: {names}",
        "quovadis.ui.log": "What happened",
        "quovadis.ui.my_log": "Your private notes",
        "quovadis.ui.promises": "Promises",
        "quovadis.ui.promise_row": "{a} » {b}: “{text}” ({tag})",
        "quovadis.ui.binding": "binding",
        "quovadis.ui.not_binding": "not binding",
        "quovadis.ui.your_turn": "Your turn – choose one action",
        "quovadis.ui.turn_of": "{player}’s turn",
        "quovadis.ui.wait": "Waiting for {player}…",
        "quovadis.ui.caesar_moving": "{player} may move Caesar",
        "quovadis.ui.vote_title": "{player} wants to move from {a} to {b}",
        "quovadis.ui.vote_need": "{needed} yes votes needed · {player} brings {own}",
        "quovadis.ui.yes_so_far": "Yes so far: {yes} of {needed}",
        "quovadis.ui.voter_row": "{player} · senators: {n} · {answer}",
        "quovadis.ui.secret_ballot": "Secret ballot – the votes are revealed together.",
        "quovadis.ui.answered": "{n} of {total} have answered",
        "quovadis.ui.awaiting": "Waiting for: {names}",
        "quovadis.ui.close_vote": "Close the vote (missing answers = no)",
        "quovadis.ui.vote_yours": "Your vote (senators: {n}):",
        "quovadis.ui.yes": "Yes",
        "quovadis.ui.no": "No",
        "quovadis.ui.you_voted": "You voted: {answer}",
        "quovadis.ui.your_laurels": "Your laurels: {n}",
        "quovadis.ui.breakdown": "Chips: {chips} · support +{support} · received +{received} · given −{given}",
        "quovadis.ui.no_chips": "none yet",
        "quovadis.ui.reserve": "Senators still to place: {n}",
        "quovadis.ui.secret_note": "Secret – only you see this.",
        "quovadis.ui.place_title": "Place a senator",
        "quovadis.ui.place": "Place in {n}",
        "quovadis.ui.move_title": "Move a senator",
        "quovadis.ui.no_vote": "no vote",
        "quovadis.ui.own_majority": "your majority",
        "quovadis.ui.vote_needed": "vote: {needed} yes, {own} yours",
        "quovadis.ui.caesar_waives": "Caesar: no vote, no laurel",
        "quovadis.ui.caesar_to": "Caesar to {a} » {b} ({chip})",
        "quovadis.ui.caesar_now": "Your Caesar chip: move Caesar",
        "quovadis.ui.caesar_keep": "Leave Caesar where he is",
        "quovadis.ui.pending_caesar": "Will move Caesar at the end of the round: {names}",
        "quovadis.ui.give_title": "Give laurels (private)",
        "quovadis.ui.amount": "Laurels (1–{max})",
        "quovadis.ui.caesar_title": "Or move Caesar to:",
        "quovadis.ui.caesar_short": "{a} » {b} ({chip})",
        "quovadis.ui.give_to": "Give to {player}",
        "quovadis.ui.promise_to": "Promise to {player}",
        "quovadis.ui.give_hint": "Only you and the receiver see this hand-over.",
        "quovadis.ui.promise_title": "Record a promise",
        "quovadis.ui.promise_text": "Your promise",
        "quovadis.ui.promise_free": "Promises are recorded for everyone to see, but not binding.",
        "quovadis.ui.seat_reserve": "{player}: {n} to place, {senate} in the Senate",
        "quovadis.ui.winner": "{player} wins!",
        "quovadis.ui.tie_note": "Equal laurels: the senator who reached the Senate first decides.",
        "quovadis.ui.qualified": "Qualified · senators in the Senate: {count} · first arrived as no. {n}",
        "quovadis.ui.bd_chips": "Chips: {chips}",
        "quovadis.ui.bd_support": "support +{n}",
        "quovadis.ui.bd_received": "received +{n}",
        "quovadis.ui.bd_given": "given −{n}",
        "quovadis.ui.arrival_title": "Order of arrival in the Senate",
        "quovadis.ui.win_rule": "Most laurels among the players with a senator in the Senate.",
        "quovadis.ui.not_qualified": "No senator in the Senate – cannot win",
        "quovadis.ui.rank_row": "{rank}. {player} – laurels: {total}",
        "quovadis.ui.no_result": "The table was ended before the Senate was full: no winner, totals stay secret.",
    },
    "de": {
        "quovadis.ui.node": "Gremium {n}",
        "quovadis.ui.senate": "Senat",
        "quovadis.ui.seats_n": "{n} Plätze",
        "quovadis.ui.seat_one": "1 Platz",
        "quovadis.ui.board": "Spielplan",
        "quovadis.ui.empty_space": "kein Chip",
        "quovadis.ui.caesar_word": "Caesar",
        "quovadis.ui.chip": "Lorbeer {value}",
        "quovadis.ui.chip_caesar": "Lorbeer {value} + Caesar",
        "quovadis.ui.supply": "Offener Vorrat: {n} × 1",
        "quovadis.ui.pool": "Chips im Stapel: {n}",
        "quovadis.ui.arrival": "Ankünfte im Senat: {names}",
        "quovadis.ui.log": "Was geschah",
        "quovadis.ui.my_log": "Deine privaten Notizen",
        "quovadis.ui.promises": "Versprechen",
        "quovadis.ui.promise_row": "{a} » {b}: „{text}“ ({tag})",
        "quovadis.ui.binding": "bindend",
        "quovadis.ui.not_binding": "nicht bindend",
        "quovadis.ui.your_turn": "Du bist am Zug – wähle eine Aktion",
        "quovadis.ui.turn_of": "{player} ist am Zug",
        "quovadis.ui.wait": "Warten auf {player}…",
        "quovadis.ui.caesar_moving": "{player} darf Caesar bewegen",
        "quovadis.ui.vote_title": "{player} will von {a} nach {b} ziehen",
        "quovadis.ui.vote_need": "{needed} Ja-Stimmen nötig · {player} bringt {own} mit",
        "quovadis.ui.yes_so_far": "Bisher Ja: {yes} von {needed}",
        "quovadis.ui.voter_row": "{player} · Senatoren: {n} · {answer}",
        "quovadis.ui.secret_ballot": "Geheime Abstimmung – die Stimmen werden gemeinsam aufgedeckt.",
        "quovadis.ui.answered": "{n} von {total} haben geantwortet",
        "quovadis.ui.awaiting": "Es fehlen: {names}",
        "quovadis.ui.close_vote": "Abstimmung schließen (fehlende Antworten = Nein)",
        "quovadis.ui.vote_yours": "Deine Stimme (Senatoren: {n}):",
        "quovadis.ui.yes": "Ja",
        "quovadis.ui.no": "Nein",
        "quovadis.ui.you_voted": "Du hast gestimmt: {answer}",
        "quovadis.ui.your_laurels": "Deine Lorbeeren: {n}",
        "quovadis.ui.breakdown": "Chips: {chips} · Unterstützung +{support} · erhalten +{received} · "
                                 "abgegeben −{given}",
        "quovadis.ui.no_chips": "noch keine",
        "quovadis.ui.reserve": "Senatoren noch einzusetzen: {n}",
        "quovadis.ui.secret_note": "Geheim – nur du siehst das.",
        "quovadis.ui.place_title": "Senator einsetzen",
        "quovadis.ui.place": "In {n} einsetzen",
        "quovadis.ui.move_title": "Senator ziehen",
        "quovadis.ui.no_vote": "ohne Abstimmung",
        "quovadis.ui.own_majority": "deine Mehrheit",
        "quovadis.ui.vote_needed": "Abstimmung: {needed} Ja, {own} eigene",
        "quovadis.ui.caesar_waives": "Caesar: ohne Abstimmung, ohne Lorbeer",
        "quovadis.ui.caesar_to": "Caesar nach {a} » {b} ({chip})",
        "quovadis.ui.caesar_now": "Dein Caesar-Chip: bewege Caesar",
        "quovadis.ui.caesar_keep": "Caesar stehen lassen",
        "quovadis.ui.pending_caesar": "Bewegen Caesar am Rundenende: {names}",
        "quovadis.ui.give_title": "Lorbeeren geben (privat)",
        "quovadis.ui.amount": "Lorbeeren (1–{max})",
        "quovadis.ui.caesar_title": "Oder Caesar ziehen nach:",
        "quovadis.ui.caesar_short": "{a} » {b} ({chip})",
        "quovadis.ui.give_to": "An {player} geben",
        "quovadis.ui.promise_to": "{player} versprechen",
        "quovadis.ui.give_hint": "Nur du und wer sie bekommt, sehen diese Übergabe.",
        "quovadis.ui.promise_title": "Versprechen festhalten",
        "quovadis.ui.promise_text": "Dein Versprechen",
        "quovadis.ui.promise_free": "Versprechen sind für alle sichtbar, aber nicht bindend.",
        "quovadis.ui.seat_reserve": "{player}: {n} einzusetzen, {senate} im Senat",
        "quovadis.ui.winner": "{player} gewinnt!",
        "quovadis.ui.tie_note": "Gleich viele Lorbeeren: es entscheidet, wessen Senator zuerst im Senat war.",
        "quovadis.ui.qualified": "Qualifiziert · Senatoren im Senat: {count} · erste Ankunft als Nr. {n}",
        "quovadis.ui.bd_chips": "Chips: {chips}",
        "quovadis.ui.bd_support": "Unterstützung +{n}",
        "quovadis.ui.bd_received": "erhalten +{n}",
        "quovadis.ui.bd_given": "abgegeben −{n}",
        "quovadis.ui.arrival_title": "Reihenfolge der Ankunft im Senat",
        "quovadis.ui.win_rule": "Die meisten Lorbeeren unter den Spielern mit einem Senator im Senat.",
        "quovadis.ui.not_qualified": "Kein Senator im Senat – kann nicht gewinnen",
        "quovadis.ui.rank_row": "{rank}. {player} – Lorbeeren: {total}",
        "quovadis.ui.no_result": "Der Tisch wurde beendet, bevor der Senat voll war: kein Sieger, die Lorbeeren bleiben geheim.",
    },
    "fr": {
        "quovadis.ui.node": "Commission {n}",
        "quovadis.ui.senate": "Sénat",
        "quovadis.ui.seats_n": "{n} sièges",
        "quovadis.ui.seat_one": "1 siège",
        "quovadis.ui.board": "Plateau",
        "quovadis.ui.empty_space": "pas de jeton",
        "quovadis.ui.caesar_word": "César",
        "quovadis.ui.chip": "laurier {value}",
        "quovadis.ui.chip_caesar": "laurier {value} + César",
        "quovadis.ui.supply": "Réserve ouverte : {n} × 1",
        "quovadis.ui.pool": "Jetons restant dans la pioche : {n}",
        "quovadis.ui.arrival": "Arrivées au Sénat : {names}",
        "quovadis.ui.log": "Ce qui s’est passé",
        "quovadis.ui.my_log": "Vos notes privées",
        "quovadis.ui.promises": "Promesses",
        "quovadis.ui.promise_row": "{a} » {b} : « {text} » ({tag})",
        "quovadis.ui.binding": "engage",
        "quovadis.ui.not_binding": "n’engage pas",
        "quovadis.ui.your_turn": "À vous – choisissez une action",
        "quovadis.ui.turn_of": "Au tour de {player}",
        "quovadis.ui.wait": "En attente de {player}…",
        "quovadis.ui.caesar_moving": "{player} peut déplacer César",
        "quovadis.ui.vote_title": "{player} veut passer de {a} à {b}",
        "quovadis.ui.vote_need": "{needed} oui nécessaires · {player} en apporte {own}",
        "quovadis.ui.yes_so_far": "Oui pour l’instant : {yes} sur {needed}",
        "quovadis.ui.voter_row": "{player} · sénateurs : {n} · {answer}",
        "quovadis.ui.secret_ballot": "Vote secret – les voix sont révélées ensemble.",
        "quovadis.ui.answered": "{n} sur {total} ont répondu",
        "quovadis.ui.awaiting": "En attente de : {names}",
        "quovadis.ui.close_vote": "Clore le vote (réponses manquantes = non)",
        "quovadis.ui.vote_yours": "Votre vote (sénateurs : {n}) :",
        "quovadis.ui.yes": "Oui",
        "quovadis.ui.no": "Non",
        "quovadis.ui.you_voted": "Vous avez voté : {answer}",
        "quovadis.ui.your_laurels": "Vos lauriers : {n}",
        "quovadis.ui.breakdown": "Jetons : {chips} · soutien +{support} · reçus +{received} · donnés −{given}",
        "quovadis.ui.no_chips": "aucun pour l’instant",
        "quovadis.ui.reserve": "Sénateurs encore à placer : {n}",
        "quovadis.ui.secret_note": "Secret – vous seul le voyez.",
        "quovadis.ui.place_title": "Placer un sénateur",
        "quovadis.ui.place": "Placer en {n}",
        "quovadis.ui.move_title": "Déplacer un sénateur",
        "quovadis.ui.no_vote": "sans vote",
        "quovadis.ui.own_majority": "votre majorité",
        "quovadis.ui.vote_needed": "vote : {needed} oui, {own} à vous",
        "quovadis.ui.caesar_waives": "César : sans vote, sans laurier",
        "quovadis.ui.caesar_to": "César sur {a} » {b} ({chip})",
        "quovadis.ui.caesar_now": "Votre jeton César : déplacez César",
        "quovadis.ui.caesar_keep": "Laisser César où il est",
        "quovadis.ui.pending_caesar": "Déplaceront César en fin de tour de table : {names}",
        "quovadis.ui.give_title": "Donner des lauriers (privé)",
        "quovadis.ui.amount": "Lauriers (1–{max})",
        "quovadis.ui.caesar_title": "Ou déplacer César sur :",
        "quovadis.ui.caesar_short": "{a} » {b} ({chip})",
        "quovadis.ui.give_to": "Donner à {player}",
        "quovadis.ui.promise_to": "Promettre à {player}",
        "quovadis.ui.give_hint": "Seuls vous et le destinataire voyez ce don.",
        "quovadis.ui.promise_title": "Noter une promesse",
        "quovadis.ui.promise_text": "Votre promesse",
        "quovadis.ui.promise_free": "Les promesses sont visibles de tous, mais n’engagent pas.",
        "quovadis.ui.seat_reserve": "{player} : {n} à placer, {senate} au Sénat",
        "quovadis.ui.winner": "{player} gagne !",
        "quovadis.ui.tie_note": "Égalité de lauriers : le sénateur arrivé le premier au Sénat départage.",
        "quovadis.ui.qualified": "Qualifié · sénateurs au Sénat : {count} · premier arrivé en n° {n}",
        "quovadis.ui.bd_chips": "Jetons : {chips}",
        "quovadis.ui.bd_support": "soutien +{n}",
        "quovadis.ui.bd_received": "reçus +{n}",
        "quovadis.ui.bd_given": "donnés −{n}",
        "quovadis.ui.arrival_title": "Ordre d’arrivée au Sénat",
        "quovadis.ui.win_rule": "Le plus de lauriers parmi les joueurs ayant un sénateur au Sénat.",
        "quovadis.ui.not_qualified": "Aucun sénateur au Sénat – ne peut pas gagner",
        "quovadis.ui.rank_row": "{rank}. {player} – lauriers : {total}",
        "quovadis.ui.no_result": "La table a été fermée avant que le Sénat soit complet : pas de vainqueur, les lauriers restent secrets.",
    },
}
for _lang, _texts in _UI.items():
    MESSAGES[_lang].update(_texts)
