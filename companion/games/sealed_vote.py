"""Sealed vote / bid: the generic game of the table platform.

The host asks a question – choose among options (Yes / No / Abstain) or a number in a range
(a bid 0–20). Every seat submits secretly, may change until it locks, and all values are
revealed at once when every seat has locked or the host forces the reveal. Results show per
seat, sorted, with a tally; the history of rounds stays visible.
"""

from __future__ import annotations

from typing import Any

from companion.games import sealed
from companion.games.base import Action, Option, RuleError, State, check_int, clone, require

ID = "sealed_vote"
NAME = "sv.name"
MIN_SEATS = 2
MAX_SEATS = 8
MAX_CHOICES = 8
MAX_NUMBER = 1_000_000

OPTIONS: list[Option] = [
    Option("mode", "sv.opt.mode", "choice", "choice", choices=("choice", "number"),
           choice_labels=("sv.mode.choice", "sv.mode.number")),
    Option("question", "sv.opt.question", "text", ""),
    Option("choices", "sv.opt.choices", "text", ""),
    Option("min", "sv.opt.min", "int", 0, min=-MAX_NUMBER, max=MAX_NUMBER),
    Option("max", "sv.opt.max", "int", 20, min=-MAX_NUMBER, max=MAX_NUMBER),
]

DEFAULT_CHOICES = ["sv.yes", "sv.no", "sv.abstain"]  # catalog keys: translated on each phone


def _question(raw: dict[str, Any]) -> dict[str, Any]:
    """Check a question payload from the host; returns the normalised question."""
    mode = raw.get("mode", "choice")
    require(mode in ("choice", "number"), "sv.err.mode")
    text = raw.get("question", "")
    require(isinstance(text, str) and len(text) <= 200, "sv.err.question")
    q: dict[str, Any] = {"mode": mode, "question": text.strip()}
    if mode == "choice":
        choices = raw.get("choices") or []
        if isinstance(choices, str):
            choices = [c.strip() for c in choices.split(",")]
        require(isinstance(choices, list), "sv.err.choices")
        choices = [c.strip() for c in choices if isinstance(c, str) and c.strip()]
        if not choices:
            choices = list(DEFAULT_CHOICES)
        require(2 <= len(choices) <= MAX_CHOICES, "sv.err.choices")
        require(all(len(c) <= 40 for c in choices), "sv.err.choices")
        require(len(set(choices)) == len(choices), "sv.err.choices")
        q["choices"] = choices
    else:
        lo = raw.get("min", 0)
        hi = raw.get("max", 20)
        lo = check_int(lo, -MAX_NUMBER, MAX_NUMBER)
        hi = check_int(hi, -MAX_NUMBER, MAX_NUMBER)
        require(lo < hi, "sv.err.bounds")
        q["min"], q["max"] = lo, hi
    return q


def setup(options: dict[str, Any], seats: list[dict[str, Any]], seed: int) -> State:
    q = _question(options)
    return {
        "seed": seed,
        "n": len(seats),
        "names": [s["name"] for s in seats],
        "round_no": 1,
        "question": q,
        "round": sealed.new_round(list(range(len(seats)))),
        "history": [],
    }


def _check_value(q: dict[str, Any], value: Any) -> Any:
    if q["mode"] == "choice":
        require(isinstance(value, str) and value in q["choices"], "sv.err.not_a_choice")
        return value
    return check_int(value, q["min"], q["max"])


def legal(state: State, seat: int | None) -> list[Action]:
    rnd = state["round"]
    if seat is None:
        acts: list[Action] = [{"type": "ask"}]
        if not rnd["revealed"]:
            acts.append({"type": "reveal"})
        return acts
    if rnd["revealed"] or seat in rnd["locked"] or seat not in rnd["seats"]:
        return []
    acts = [{"type": "submit"}]
    if sealed.has_submitted(rnd, seat):
        acts.append({"type": "lock"})
    return acts


def _tally(q: dict[str, Any], rnd: dict[str, Any]) -> dict[str, Any]:
    values = {int(s): v for s, v in rnd["choices"].items() if s in {str(x) for x in rnd["locked"]}
              or rnd["revealed"]}
    rows = [{"seat": s, "value": values.get(s)} for s in rnd["seats"]]
    present = [r for r in rows if r["value"] is not None]
    missing = [r for r in rows if r["value"] is None]
    if q["mode"] == "number":
        present.sort(key=lambda r: (-r["value"], r["seat"]))
        nums = [r["value"] for r in present]
        summary: dict[str, Any] = {
            "count": len(nums),
            "sum": sum(nums),
            "max": max(nums) if nums else None,
            "min": min(nums) if nums else None,
            "top": [r["seat"] for r in present if nums and r["value"] == nums[0]],
        }
    else:
        counts = {c: 0 for c in q["choices"]}
        for r in present:
            counts[r["value"]] += 1
        order = {c: i for i, c in enumerate(q["choices"])}
        present.sort(key=lambda r: (order[r["value"]], r["seat"]))
        summary = {"counts": counts}
    return {"rows": present + missing, "summary": summary}


def apply(state: State, action: Action) -> State:
    if not isinstance(action, dict):
        raise RuleError("err.unknown_action")
    kind = action.get("type")
    seat = action.get("seat")
    new = clone(state, append_only=("history",))
    rnd = new["round"]
    q = new["question"]
    if kind == "submit":
        require(seat is not None, "err.seat_only")
        sealed.submit(rnd, seat, _check_value(q, action.get("value")))
    elif kind == "lock":
        require(seat is not None, "err.seat_only")
        sealed.lock(rnd, seat)
        if sealed.all_locked(rnd):
            _reveal(new)
    elif kind == "reveal":
        require(seat is None, "err.host_only")
        require(not rnd["revealed"], "err.already_revealed")
        _reveal(new)
    elif kind == "ask":
        require(seat is None, "err.host_only")
        nq = _question(action)
        if not rnd["revealed"]:
            # Abandoning an open round: it goes to the history unrevealed (values stay secret).
            new["history"].append({"round_no": new["round_no"], "question": q, "abandoned": True})
        new["round_no"] += 1
        new["question"] = nq
        new["round"] = sealed.new_round(list(range(new["n"])))
    else:
        raise RuleError("err.unknown_action")
    return new


def _reveal(new: State) -> None:
    rnd = new["round"]
    sealed.reveal(rnd)
    new["history"].append({"round_no": new["round_no"], "question": new["question"],
                           **_tally(new["question"], rnd)})


def view(state: State, seat: int | None) -> dict[str, Any]:
    rnd = state["round"]
    out: dict[str, Any] = {
        "round_no": state["round_no"],
        "question": state["question"],
        "round": sealed.private(rnd, seat) if seat is not None else sealed.public(rnd),
        "history": [h for h in reversed(state["history"])],
        "phase": "revealed" if rnd["revealed"] else "voting",
    }
    if rnd["revealed"]:
        out["result"] = state["history"][-1]
    out["legal"] = [a["type"] for a in legal(state, seat)]
    return out


def result(state: State) -> dict[str, Any] | None:
    return {"rounds": len([h for h in state["history"] if not h.get("abandoned")]),
            "history": state["history"]}


MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "sv.name": "Sealed vote / bid",
        "sv.opt.mode": "Kind of question",
        "sv.mode.choice": "Options to pick from",
        "sv.mode.number": "A number (bid)",
        "sv.opt.question": "Question",
        "sv.opt.choices": "Options, separated by commas",
        "sv.opt.min": "Lowest number",
        "sv.opt.max": "Highest number",
        "sv.yes": "Yes", "sv.no": "No", "sv.abstain": "Abstain",
        "sv.err.mode": "Choose options or a number.",
        "sv.err.question": "The question is too long (200 characters at most).",
        "sv.err.choices": "Give 2 to 8 different options, each at most 40 characters.",
        "sv.err.bounds": "The lowest number must be below the highest.",
        "sv.err.not_a_choice": "That is not one of the options.",
        "sv.round": "Round {n}",
        "sv.default_question": "Secret vote",
        "sv.your_bid": "Your bid ({lo}–{hi})",
        "sv.tally": "Tally",
        "sv.sum": "Sum {sum} · highest {max} · lowest {min}",
        "sv.top": "Highest: {names}",
        "sv.no_value": "no answer",
        "sv.abandoned": "not revealed",
        "sv.ask_title": "Next question",
        "sv.wait_next": "The host will ask the next question.",
    },
    "de": {
        "sv.name": "Geheime Abstimmung / Gebot",
        "sv.opt.mode": "Art der Frage",
        "sv.mode.choice": "Optionen zur Auswahl",
        "sv.mode.number": "Eine Zahl (Gebot)",
        "sv.opt.question": "Frage",
        "sv.opt.choices": "Optionen, durch Kommas getrennt",
        "sv.opt.min": "Kleinste Zahl",
        "sv.opt.max": "Größte Zahl",
        "sv.yes": "Ja", "sv.no": "Nein", "sv.abstain": "Enthaltung",
        "sv.err.mode": "Wähle Optionen oder eine Zahl.",
        "sv.err.question": "Die Frage ist zu lang (höchstens 200 Zeichen).",
        "sv.err.choices": "Gib 2 bis 8 verschiedene Optionen an, je höchstens 40 Zeichen.",
        "sv.err.bounds": "Die kleinste Zahl muss unter der größten liegen.",
        "sv.err.not_a_choice": "Das ist keine der Optionen.",
        "sv.round": "Runde {n}",
        "sv.default_question": "Geheime Abstimmung",
        "sv.your_bid": "Dein Gebot ({lo}–{hi})",
        "sv.tally": "Auszählung",
        "sv.sum": "Summe {sum} · höchstes {max} · niedrigstes {min}",
        "sv.top": "Höchstes: {names}",
        "sv.no_value": "keine Antwort",
        "sv.abandoned": "nicht aufgedeckt",
        "sv.ask_title": "Nächste Frage",
        "sv.wait_next": "Die Spielleitung stellt gleich die nächste Frage.",
    },
    "fr": {
        "sv.name": "Vote / enchère secrète",
        "sv.opt.mode": "Type de question",
        "sv.mode.choice": "Options au choix",
        "sv.mode.number": "Un nombre (enchère)",
        "sv.opt.question": "Question",
        "sv.opt.choices": "Options, séparées par des virgules",
        "sv.opt.min": "Nombre minimum",
        "sv.opt.max": "Nombre maximum",
        "sv.yes": "Oui", "sv.no": "Non", "sv.abstain": "Abstention",
        "sv.err.mode": "Choisissez des options ou un nombre.",
        "sv.err.question": "La question est trop longue (200 caractères au plus).",
        "sv.err.choices": "Donnez de 2 à 8 options différentes, de 40 caractères au plus.",
        "sv.err.bounds": "Le minimum doit être inférieur au maximum.",
        "sv.err.not_a_choice": "Ce n’est pas une des options.",
        "sv.round": "Manche {n}",
        "sv.default_question": "Vote secret",
        "sv.your_bid": "Votre enchère ({lo}–{hi})",
        "sv.tally": "Décompte",
        "sv.sum": "Somme {sum} · plus haute {max} · plus basse {min}",
        "sv.top": "Plus haute : {names}",
        "sv.no_value": "pas de réponse",
        "sv.abandoned": "non révélée",
        "sv.ask_title": "Question suivante",
        "sv.wait_next": "L’hôte va poser la question suivante.",
    },
}
