"""The history of finished games and its statistics (issue 21.3): pure functions on plain records.

A *record* is one finished game, written by the store in the same transaction as the table's
entry that finished it (companion/table/store.py `append_history`; the table decides when:
companion/table/ops.py history_change) and removed again by the undo that reopens it. Its fields are documented
in docs/HISTORY.md:

    id        stable game id: "<table code>-<end time in ms>-<8 hex of a hash of the result>"
    code      the table's join code          game     game id (companion/games/<id>/)
    options   the table options              started / ended   time.time() of the start / the end
    duration  seconds from start to end      rounds   rounds played (the game's rounds(), or None)
    tie_break catalog key explaining a broken tie, or None
    players   per seat: {seat, name, colour, score, rank, winner, breakdown}
    winners   the winners' names

Players are matched across tables by their *key*: the name case-folded with its spaces
collapsed (`name_key`). The host's renames and merges are *aliases* (their own small table in
the store: {id, kind, src, dst}) applied when reading – a game's row is never rewritten; undoing
a merge is dropping its alias.

The statistics (`player_stats`, `games_list`, `page_data`) read records and aliases only.
Export (`export_csv`, `export_json`) and import (`parse_import`) use the documented format;
a broken or foreign file raises `HistoryError` (a message key of `MESSAGES`) and changes nothing.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import time
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from companion import i18n

FORMAT = "tabletop-companion-history"
VERSION = 1
MAX_IMPORT_BYTES = 50 * 1024 * 1024
MAX_NAME = 64  # a name read from an import (the table's own are at most 24)

# The texts are in the platform catalog's history.po (companion/i18n/locale/<lang>/LC_MESSAGES/):
# RuleError keys such as rematch.err.not_over and the hist.* messages; counts are plural entries.


def t(lang: str, key: str, **params: Any) -> str:
    """A message of the history catalog in `lang` (`n` picks the plural form)."""
    return i18n.t(lang, key, **params)


class HistoryError(Exception):
    """A refused export/import or alias change: `key` of MESSAGES with `params`; str() is English."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def text(self, lang: str = "en") -> str:
        return t(lang, self.key, **self.params)

    def __str__(self) -> str:
        return self.text("en")


# ---------------------------------------------------------------- names


def name_key(name: Any) -> str:
    """How a player is matched across tables: NFC, case-folded, spaces collapsed ("  ann  " = "Ann")."""
    return " ".join(unicodedata.normalize("NFC", str(name)).casefold().split())


def clean_person(name: Any) -> str:
    """A display name for a rename: printable, spaces collapsed, 1..MAX_NAME characters, or HistoryError."""
    if not isinstance(name, str):
        raise HistoryError("hist.err.name", max=MAX_NAME)
    out = " ".join("".join(ch for ch in name if unicodedata.category(ch)[0] != "C" or ch in "\u200c\u200d").split())
    if not out or len(out) > MAX_NAME:
        raise HistoryError("hist.err.name", max=MAX_NAME)
    return out


class People:
    """Who is who: every played name's key -> the person's key and display name, aliases applied.

    Without an alias a person is named as in their latest game. An alias {src, dst} says that
    the player with key `src` is shown as `dst` (a rename when no one else has dst's key, a
    merge when someone does); later aliases win, chains are followed (a cycle stops)."""

    def __init__(self, records: Iterable[Mapping[str, Any]], aliases: Iterable[Mapping[str, Any]] = ()) -> None:
        latest: dict[str, tuple[float, str]] = {}
        for r in records:
            for p in r.get("players", ()):
                k = name_key(p["name"])
                at = float(r.get("ended") or 0)
                if k not in latest or at >= latest[k][0]:
                    latest[k] = (at, p["name"])
        self.spelling = {k: v[1] for k, v in latest.items()}
        self.to: dict[str, tuple[int, str]] = {}  # key -> (alias id, display name it gives)
        for a in sorted(aliases, key=lambda a: a["id"]):
            self.to[name_key(a["src"])] = (int(a["id"]), a["dst"])
        self._memo: dict[str, tuple[str, str]] = {}

    def resolve(self, name: str) -> tuple[str, str]:
        """(person key, display name) of a name as played. Aliases are followed to a key without
        one; a cycle (Ann -> Anna -> Ann) is one person: its smallest key, its latest alias's name."""
        k = name_key(name)
        hit = self._memo.get(k)
        if hit is not None:
            return hit
        path = [k]
        while path[-1] in self.to:
            nxt = name_key(self.to[path[-1]][1])
            if nxt in path:
                cycle = path[path.index(nxt):]
                out = (min(cycle), max((self.to[c] for c in cycle), key=lambda a: a[0])[1])
                break
            path.append(nxt)
        else:
            out = (path[-1], self.to[path[-2]][1] if len(path) > 1 else self.spelling.get(k, name))
        self._memo[k] = out
        return out

    def known(self, name: str) -> bool:
        k = name_key(name)
        return k in self.spelling or any(name_key(d) == k for _, d in self.to.values())


# ---------------------------------------------------------------- records


def record_for(code: str, game: str, options: Mapping[str, Any], result: Any, names: list[str],
               colours: list[str], rounds: int | None) -> dict[str, Any]:
    """A record without its times and id (the store adds them: `stamp`). `result` is a
    companion.games.base.Result."""
    players = []
    for i, name in enumerate(names):
        score = result.scores[i] if i < len(result.scores) else None
        players.append({
            "seat": i, "name": name, "colour": colours[i] if i < len(colours) else "",
            "score": score, "rank": result.ranks[i] if i < len(result.ranks) else None,
            "winner": i in result.winners,
            "breakdown": dict(result.breakdown[i]) if i < len(result.breakdown) else {},
        })
    return {"code": code, "game": game, "options": dict(options), "rounds": rounds,
            "tie_break": result.tie_break, "players": players,
            "winners": [names[i] for i in result.winners if i < len(names)]}


def game_id(rec: Mapping[str, Any]) -> str:
    """Stable over export and import: table code, end time (ms) and a hash of the result."""
    core = json.dumps([rec.get("game"), [[p.get("name"), p.get("score"), p.get("rank")] for p in rec.get("players", ())],
                       rec.get("options")], sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    digest = hashlib.sha256(core.encode()).hexdigest()[:8]
    return f"{rec.get('code', '')}-{int(round(float(rec['ended']) * 1000))}-{digest}"


def stamp(rec: Mapping[str, Any], started: float | None, ended: float) -> dict[str, Any]:
    """The record as stored: its times, duration and id added (by the store, in the transaction)."""
    out = dict(rec)
    out["started"] = started if started is not None else ended
    out["ended"] = ended
    out["duration"] = round(max(0.0, ended - out["started"]), 3)
    out["id"] = game_id(out)
    return out


def restamp(old: Mapping[str, Any], rec: Mapping[str, Any]) -> dict[str, Any]:
    """A finished game's record after a rename or a swap at the table: the new names, the old id and times."""
    out = dict(rec)
    for k in ("id", "started", "ended", "duration"):
        out[k] = old[k]
    return out


# ---------------------------------------------------------------- statistics


def _num(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) else None


def games_list(records: Iterable[Mapping[str, Any]], aliases: Iterable[Mapping[str, Any]] = (),
               people: People | None = None) -> list[dict[str, Any]]:
    """The list of games, newest first: {id, game, ended, duration, rounds, tie_break, players:
    [{name (person), played_as, colour, score, rank, winner}] by rank, winners (persons)}."""
    records = list(records)
    people = people or People(records, aliases)
    out = []
    for r in sorted(records, key=lambda r: (-float(r["ended"]), r["id"])):
        ps = []
        for p in r["players"]:
            ps.append({"name": people.resolve(p["name"])[1], "played_as": p["name"], "colour": p.get("colour", ""),
                       "score": p.get("score"), "rank": p.get("rank"), "winner": bool(p.get("winner"))})
        ps.sort(key=lambda p: (p["rank"] if isinstance(p["rank"], int) else 10**9, p["name"]))
        out.append({"id": r["id"], "game": r["game"], "code": r.get("code", ""), "ended": r["ended"],
                    "started": r.get("started"), "duration": r.get("duration"), "rounds": r.get("rounds"),
                    "tie_break": r.get("tie_break"), "options": r.get("options", {}), "players": ps,
                    "winners": [p["name"] for p in ps if p["winner"]]})
    return out


def _people_of(record: Mapping[str, Any], people: People) -> list[tuple[str, str, bool, set[str], float | None]]:
    """The persons of one game record, each once: (key, shown name, won, spellings, best score).
    Two spellings of one person at the same table ("Bob" and " BOB ") are one person, who won if
    either seat won and scored the better of the two."""
    out: dict[str, list[Any]] = {}
    for p in record["players"]:
        key, shown = people.resolve(p["name"])
        s = _num(p.get("score"))
        if key not in out:
            out[key] = [key, shown, bool(p.get("winner")), {p["name"]}, s]
            continue
        o = out[key]
        o[2] = o[2] or bool(p.get("winner"))
        o[3].add(p["name"])
        if s is not None:
            o[4] = s if o[4] is None else max(o[4], s)
    return [tuple(v) for v in out.values()]  # type: ignore[misc]


def player_stats(records: Iterable[Mapping[str, Any]], aliases: Iterable[Mapping[str, Any]] = (),
                 people: People | None = None) -> list[dict[str, Any]]:
    """Per person and game: {player (display name), key, game, played, wins, average (score,
    None when the game has no scores), best, names (spellings played)}; sorted by game, then
    wins, played, name. A person is counted once per game record even if two of their
    spellings sat at the same table."""
    records = list(records)
    people = people or People(records, aliases)
    acc: dict[tuple[str, str], dict[str, Any]] = {}
    for r in records:
        for key, shown, won, names, score in _people_of(r, people):
            a = acc.get((r["game"], key))
            if a is None:
                a = acc[(r["game"], key)] = {"player": shown, "key": key, "game": r["game"], "played": 0,
                                             "wins": 0, "_sum": 0.0, "_n": 0, "best": None, "names": set()}
            a["played"] += 1
            a["wins"] += 1 if won else 0
            a["names"] |= names
            if score is not None:
                a["_sum"] += score
                a["_n"] += 1
                a["best"] = score if a["best"] is None else max(a["best"], score)
    out = []
    for a in acc.values():
        n = a.pop("_n")
        total = a.pop("_sum")
        a["average"] = round(total / n, 2) if n else None
        if isinstance(a["best"], float) and a["best"].is_integer():
            a["best"] = int(a["best"])
        a["names"] = sorted(a["names"])
        out.append(a)
    out.sort(key=lambda a: (a["game"], -a["wins"], -a["played"], a["player"].casefold()))
    return out


def players(records: Iterable[Mapping[str, Any]], aliases: Iterable[Mapping[str, Any]] = (),
            people: People | None = None) -> list[dict[str, Any]]:
    """Every person over all games: {player, key, played, wins, names} by wins, played, name
    (for the rename/merge list)."""
    records = list(records)
    people = people or People(records, aliases)
    acc: dict[str, dict[str, Any]] = {}
    for r in records:
        for key, shown, won, names, _score in _people_of(r, people):
            a = acc.setdefault(key, {"player": shown, "key": key, "played": 0, "wins": 0, "names": set()})
            a["names"] |= names
            a["played"] += 1
            a["wins"] += 1 if won else 0
    out = [{**a, "names": sorted(a["names"])} for a in acc.values()]
    out.sort(key=lambda a: (-a["wins"], -a["played"], a["player"].casefold()))
    return out


def page_data(store: Any, game: str | None = None) -> dict[str, Any]:
    """Everything the history page shows, from the store: {games, stats, players, aliases}
    (`game`: only that game's records). One read of records and aliases, no log."""
    records = store.history()
    aliases = store.aliases()
    people = People(records, aliases)  # (names resolved over all games, whatever is shown)
    shown = [r for r in records if game is None or r["game"] == game]
    return {"games": games_list(shown, people=people), "stats": player_stats(shown, people=people),
            "players": players(shown, people=people), "aliases": aliases}


# ---------------------------------------------------------------- aliases (the host's renames and merges)


def rename(store: Any, name: str, new: str) -> int:
    """Show the person now called `name` as `new` from now on (every game, past and future); the
    alias id (undo: `undo_alias`). If someone is already called `new`, the two become one (a merge)."""
    records = store.history()
    people = People(records, store.aliases())
    if not people.known(name):
        raise HistoryError("hist.err.no_player", name=str(name)[:MAX_NAME])
    new = clean_person(new)
    key, _ = people.resolve(name)
    return store.add_alias("rename", key, new)


def merge(store: Any, name: str, into: str) -> int:
    """The person `name` is the same as `into`: every game of `name` counts for `into` (shown with
    into's name). The alias id (undo: `undo_alias`)."""
    records = store.history()
    people = People(records, store.aliases())
    for n in (name, into):
        if not people.known(n):
            raise HistoryError("hist.err.no_player", name=str(n)[:MAX_NAME])
    key, shown = people.resolve(name)
    key2, shown2 = people.resolve(into)
    if key == key2:
        raise HistoryError("hist.err.same_player", name=shown, other=shown2)
    return store.add_alias("merge", key, shown2)


def undo_alias(store: Any, alias_id: int) -> None:
    """Take a rename or merge back (its alias goes; the games were never changed)."""
    if not store.drop_alias(alias_id):
        raise HistoryError("hist.err.no_alias")


# ---------------------------------------------------------------- export and import

CSV_COLUMNS = ("game_id", "date", "game", "table", "seat", "player", "played_as", "colour", "score", "rank",
               "winner", "tie_break", "duration_s", "rounds", "players", "options")


def iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def export_csv(records: Iterable[Mapping[str, Any]], aliases: Iterable[Mapping[str, Any]] = ()) -> str:
    """One row per player and game (columns: CSV_COLUMNS, docs/HISTORY.md), oldest game first."""
    records = sorted(records, key=lambda r: (float(r["ended"]), r["id"]))
    people = People(records, aliases)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(CSV_COLUMNS)
    for r in records:
        for p in r["players"]:
            w.writerow([r["id"], iso(float(r["ended"])), r["game"], r.get("code", ""), p["seat"] + 1,
                        people.resolve(p["name"])[1], p["name"], p.get("colour", ""),
                        "" if p.get("score") is None else p["score"], "" if p.get("rank") is None else p["rank"],
                        1 if p.get("winner") else 0, r.get("tie_break") or "",
                        "" if r.get("duration") is None else round(float(r["duration"])),
                        "" if r.get("rounds") is None else r["rounds"], len(r["players"]),
                        json.dumps(r.get("options", {}), sort_keys=True, ensure_ascii=False)])
    return buf.getvalue()


def export_json(records: Iterable[Mapping[str, Any]], aliases: Iterable[Mapping[str, Any]] = (),
                now: float | None = None) -> str:
    """The whole history (docs/HISTORY.md): {format, version, exported, games, aliases}."""
    records = sorted(records, key=lambda r: (float(r["ended"]), r["id"]))
    doc = {"format": FORMAT, "version": VERSION, "exported": iso(time.time() if now is None else now),
           "games": [dict(r) for r in records],
           "aliases": [{"kind": a["kind"], "src": a["src"], "dst": a["dst"], "at": a.get("at")} for a in aliases]}
    return json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def _check_game(n: int, g: Any) -> dict[str, Any]:
    def bad(reason: str) -> HistoryError:
        return HistoryError("hist.err.bad_game", n=n, reason=reason)

    if not isinstance(g, dict):
        raise bad("not an object")
    for k, kind in (("id", str), ("game", str), ("code", str), ("players", list), ("options", dict)):
        if not isinstance(g.get(k), kind):
            raise bad(f"“{k}” missing or wrong")
    for k in ("ended", "started", "duration"):
        if _num(g.get(k)) is None:
            raise bad(f"“{k}” missing or wrong")
    if g.get("rounds") is not None and not (isinstance(g["rounds"], int) and not isinstance(g["rounds"], bool)):
        raise bad("“rounds” is not a number")
    if g.get("tie_break") is not None and not isinstance(g["tie_break"], str):
        raise bad("“tie_break” is wrong")
    if not g["players"] or len(g["players"]) > 64:
        raise bad("no players")
    ps = []
    for i, p in enumerate(g["players"]):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str) or not p["name"].strip() \
                or len(p["name"]) > MAX_NAME:
            raise bad(f"player {i + 1} has no name")
        if p.get("score") is not None and _num(p["score"]) is None:
            raise bad(f"player {i + 1}: score is not a number")
        if p.get("rank") is not None and not (isinstance(p["rank"], int) and not isinstance(p["rank"], bool)):
            raise bad(f"player {i + 1}: rank is not a number")
        ps.append({"seat": i, "name": p["name"], "colour": str(p.get("colour") or "")[:9], "score": p.get("score"),
                   "rank": p.get("rank"), "winner": bool(p.get("winner")),
                   "breakdown": p["breakdown"] if isinstance(p.get("breakdown"), dict) else {}})
    out = {"id": g["id"][:80], "code": g["code"][:12], "game": g["game"][:40], "options": g["options"],
           "started": float(g["started"]), "ended": float(g["ended"]), "duration": float(g["duration"]),
           "rounds": g.get("rounds"), "tie_break": g.get("tie_break"), "players": ps,
           "winners": [p["name"] for p in ps if p["winner"]]}
    if out["id"] != g["id"]:
        raise bad("“id” too long")
    return out


def parse_import(data: bytes | str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(records, aliases) of an export_json file, all checked, or HistoryError (nothing to import)."""
    if isinstance(data, bytes):
        if len(data) > MAX_IMPORT_BYTES:
            raise HistoryError("hist.err.too_big", size=round(len(data) / 1e6))
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise HistoryError("hist.err.not_json", reason=f"not UTF-8 text at byte {e.start}") from None
    try:
        doc = json.loads(data)
    except (json.JSONDecodeError, RecursionError) as e:
        raise HistoryError("hist.err.not_json", reason=getattr(e, "msg", "too deep")) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or not isinstance(doc.get("games"), list):
        raise HistoryError("hist.err.foreign")
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise HistoryError("hist.err.foreign")
    if version > VERSION:
        raise HistoryError("hist.err.version", version=version)
    records = [_check_game(n, g) for n, g in enumerate(doc["games"], 1)]
    aliases = []
    raw = doc.get("aliases", [])
    if not isinstance(raw, list):
        raise HistoryError("hist.err.foreign")
    for a in raw:
        if not (isinstance(a, dict) and a.get("kind") in ("rename", "merge") and isinstance(a.get("src"), str)
                and isinstance(a.get("dst"), str) and 0 < len(a["dst"]) <= MAX_NAME and len(a["src"]) <= 200):
            raise HistoryError("hist.err.foreign")
        aliases.append({"kind": a["kind"], "src": name_key(a["src"]), "dst": a["dst"]})
    return records, aliases


def import_file(store: Any, data: bytes | str) -> tuple[int, int]:
    """Import an export_json file into the store (one transaction): (games added, already there).
    HistoryError for a broken or foreign file: nothing changed."""
    records, aliases = parse_import(data)
    return store.import_history(records, aliases)
