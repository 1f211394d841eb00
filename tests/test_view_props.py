"""Issue 32.3: a view is a function of what it draws – called here with plain arguments (a frozen
dataclass of what it shows and the callbacks it needs), no table, no session, no Flet page; the
controls it returns are read and tapped. (tests/test_views_private.py guards that the converted
views never take the Screen again.)"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import flet as ft

from companion import i18n
from companion.ui import kit
from companion.ui.views import common as C
from companion.ui.views import display as D
from companion.ui.views import history as HI
from companion.ui.views import home as HM
from companion.ui.views import host as H
from companion.ui.views import join as J
from companion.ui.views import phone as P
from companion.ui.views import rematch as R
from companion.ui.views import seats as S
from companion.ui.views import shared as SH
from companion.ui.views import spectator as S_
from tests import ui_harness as U


class Recorder:
    """The session's side, recorded: requests sent, confirmations asked (their yes kept), redraws."""

    def __init__(self, swapping: int | None = None, names: tuple[str, ...] = ()) -> None:
        self.sent: list[dict[str, Any]] = []
        self.asked: list[tuple[str, str, str]] = []
        self.yes: list[Callable[[], Awaitable[None]]] = []
        self.picks: list[int | None] = []
        self.redraws = 0
        self.swap_from = swapping
        self.names = names

    async def request(self, op: dict[str, Any]) -> Any:
        self.sent.append(op)
        return {}

    def confirm(self, title: str, what: str, yes_label: str, yes: Callable[[], Awaitable[None]]) -> None:
        self.asked.append((title, what, yes_label))
        self.yes.append(yes)

    def pick(self, i: int | None) -> None:
        self.picks.append(i)
        self.swap_from = i

    def redraw(self) -> None:
        self.redraws += 1

    def seat_calls(self) -> S.SeatCalls:
        return S.SeatCalls(self.request, self.confirm, lambda: self.swap_from, self.pick,
                           lambda i: self.names[i] if 0 <= i < len(self.names) else None, self.redraw)


def icon(controls: Any, tip: str) -> ft.IconButton:
    found = [c for c in U.controls_of(controls) if isinstance(c, ft.IconButton) and c.tooltip == tip]
    assert len(found) == 1, (tip, [c.tooltip for c in U.controls_of(controls) if isinstance(c, ft.IconButton)])
    return found[0]


def tips(controls: Any) -> list[str]:
    return [c.tooltip for c in U.controls_of(controls) if isinstance(c, ft.IconButton)]


# ---------- views/seats.py ----------

def test_a_phone_sees_a_row_without_buttons() -> None:
    rec = Recorder()
    row = S.seat_row(S.SeatRow("en", False, "playing", 1, "Bob", "#1f77b4", "connected", mark="locked", you=True),
                     rec.seat_calls())
    assert U.texts(row) == ["Bob  (you)", "here", "locked"]
    assert tips(row) == [] and U.controls_of(row)[0].__class__ is ft.Row
    de = S.seat_row(S.SeatRow("de", False, "lobby", 0, "Ann", "#1f77b4", "free"), rec.seat_calls())
    assert "Ann" in U.texts(de) and "here" not in U.texts(de)


async def test_the_hosts_row_frees_a_seat_after_asking_in_the_words_of_the_phase() -> None:
    rec = Recorder()
    row = S.seat_row(S.SeatRow("en", True, "playing", 2, "Cy", "#ff7f0e", "joined"), rec.seat_calls())
    assert tips(row) == ["Move Cy to the shared device", "Free the seat of Cy", "Swap the seat of Cy"]
    await icon(row, "Free the seat of Cy").on_click(None)
    assert rec.sent == [] and rec.asked[0][0] == "Free the seat of Cy?"
    assert "sees this seat's hidden cards" in rec.asked[0][1]  # (in play: ui.host.free_what_play)
    await rec.yes[0]()
    assert rec.sent == [{"op": "free", "seat": 2}]
    lobby = S.seat_row(S.SeatRow("en", True, "lobby", 2, "Cy", "#ff7f0e", "joined"), rec.seat_calls())
    await icon(lobby, "Free the seat of Cy").on_click(None)
    assert "hidden cards" not in rec.asked[1][1]


async def test_a_swap_takes_two_taps_and_a_yes() -> None:
    rec = Recorder(names=("Ann", "Bob", "Cy"))
    first = S.seat_row(S.SeatRow("en", True, "lobby", 0, "Ann", "#1f77b4", "connected"), rec.seat_calls())
    await icon(first, "Swap the seat of Ann").on_click(None)
    assert rec.picks == [0] and rec.redraws == 1 and rec.asked == []
    chosen = S.seat_row(S.SeatRow("en", True, "lobby", 0, "Ann", "#1f77b4", "connected", chosen=True),
                        rec.seat_calls())
    assert icon(chosen, "Swap the seat of Ann").selected is True
    second = S.seat_row(S.SeatRow("en", True, "lobby", 2, "Cy", "#ff7f0e", "joined"), rec.seat_calls())
    await icon(second, "Swap the seat of Cy").on_click(None)
    assert rec.picks == [0, None] and rec.asked[0][0] == "Swap the seats of Ann and Cy?"
    await rec.yes[0]()
    assert rec.sent == [{"op": "swap", "a": 0, "b": 2}]
    # the same seat tapped twice: the swap is forgotten, nothing asked
    await icon(first, "Swap the seat of Ann").on_click(None)
    await icon(first, "Swap the seat of Ann").on_click(None)
    assert rec.picks == [0, None, 0, None] and len(rec.asked) == 1


async def test_a_free_seat_offers_the_spectators_and_a_shared_seat_its_pin() -> None:
    rec = Recorder()
    free = S.seat_row(S.SeatRow("en", True, "lobby", 1, "Bob", "#1f77b4", "free", offer=(("tok-z", "Zoe"),)),
                      rec.seat_calls())
    seat_zoe = [c for c in U.controls_of(free) if isinstance(c, ft.TextButton) and c.content == "Seat Zoe"]
    await seat_zoe[0].on_click(None)
    assert rec.sent == [{"op": "seat", "seat": 1, "token": "tok-z"}]
    shared = S.seat_row(S.SeatRow("en", True, "playing", 1, "Bob", "#1f77b4", "shared", pin=True), rec.seat_calls())
    assert tips(shared) == ["Free Bob's seat for a phone", "Reset Bob's PIN", "Swap the seat of Bob"]
    await icon(shared, "Reset Bob's PIN").on_click(None)
    await rec.yes[-1]()
    assert rec.sent[-1] == {"op": "reset_pin", "seat": 1}
    ended = S.seat_row(S.SeatRow("en", True, "ended", 1, "Bob", "#1f77b4", "shared", pin=True), rec.seat_calls())
    assert tips(ended) == ["Swap the seat of Bob"]  # an ended game: no more moves to the shared device


def test_the_list_around_its_rows() -> None:
    rec = Recorder()
    rows = [(r, lambda r=r: S.seat_row(r, rec.seat_calls())) for r in
            (S.SeatRow("en", True, "lobby", 0, "Ann", "#1f77b4", "connected"),
             S.SeatRow("en", True, "lobby", 1, "Bob", "#ff7f0e", "free"))]
    slots: dict[int, kit.Slot] = {}
    panel = S.seat_panel(S.SeatList("en", True, 2, ("Zoe", "Max"), "Ann"), rows, slots)
    shown = U.texts(panel)
    assert shown[0] == "Seats" and "Ann" in shown and "Bob" in shown
    assert shown[-2:] == ["Watching: Zoe, Max", "Now tap the swap button of the seat to swap with Ann."]
    assert sorted(slots) == [0, 1] and slots[1].sig == rows[1][0]  # each row in a slot of its own


def test_seats_that_chose_and_locked_come_from_the_public_view() -> None:
    assert S.submitted_sets(None) == (set(), set())
    assert S.submitted_sets({"submitted": [0, 2], "locked": [2]}) == ({0, 2}, {2})
    assert S.submitted_sets({"round": {"submitted": [1], "locked": []}, "submitted": [3]}) == ({1}, set())


# ---------- views/common.py ----------

async def test_the_top_bar_switches_language_and_sound_through_its_calls() -> None:
    langs: list[str] = []
    flips: list[int] = []

    async def set_lang(code: str) -> None:
        langs.append(code)

    async def flip() -> None:
        flips.append(1)
    calls = C.BarCalls(set_lang, flip)
    bar = C.TopBar("fr", "Vote secret · ABCD", True, calls)
    assert U.texts(bar)[0] == "Vote secret · ABCD"
    by_code = {U.text(c.content): c for c in U.controls_of(bar) if isinstance(c, ft.TextButton)}
    assert list(by_code) == [code.upper() for code in i18n.LANGS]
    assert by_code["FR"].content.weight == ft.FontWeight.BOLD and by_code["EN"].content.weight == ft.FontWeight.NORMAL
    await by_code["DE"].on_click(None)
    assert langs == ["de"]
    await icon(bar, i18n.t("fr", "ui.sound.mute")).on_click(None)
    assert flips == [1]
    assert tips(C.TopBar("en", "Tabletop Companion", None, calls)) == []  # no sound switch offered
    assert C.BarCalls(set_lang, flip) == C.BarCalls(flip, set_lang)  # (never a reason to redraw the bar)


async def test_confirm_asks_then_closes_and_runs_yes() -> None:
    done: list[str] = []

    async def yes() -> None:
        done.append("yes")
    dlg = C.confirm_dialog("en", "Free?", "It frees the seat.", "Free it", yes, lambda: done.append("closed"))
    assert U.text(dlg.title) == "Free?" and U.text(dlg.content) == "It frees the seat."
    cancel, ok = dlg.actions
    assert cancel.content == "Cancel" and ok.content == "Free it"
    cancel.on_click(None)
    assert done == ["closed"]
    await ok.on_click(None)
    assert done == ["closed", "closed", "yes"]


def test_the_host_moves_last_first_and_the_undo_card() -> None:
    moves = [{"op": "free", "name": "Ann"}, {"op": "swap", "a": "Bob", "b": "Cy"}]
    shown = U.texts(C.host_moves_card("en", moves))
    assert shown == ["The host swapped the seats of Bob and Cy: each now plays the other's seat.",
                     "The host freed the seat of Ann."]
    assert C.host_moves_card("en", []) == [] and C.undo_card(None) == []
    assert U.texts(C.undo_card("The host undid: Ann voted.")) == ["The host undid: Ann voted."]


# ---------- views/phone.py ----------

class PhoneRecorder:
    def __init__(self, typed: str | None = None) -> None:
        self.typed = typed
        self.kept: list[str] = []
        self.renamed: list[str] = []
        self.left = 0

    async def rename(self, name: str) -> None:
        self.renamed.append(name)

    async def leave(self, e: Any) -> None:
        self.left += 1

    def calls(self) -> P.PhoneCalls:
        return P.PhoneCalls(lambda: self.typed, self.kept.append, lambda: None, self.rename, self.leave)


async def test_a_phone_before_the_start_renames_and_gives_its_seat_back() -> None:
    rec = PhoneRecorder()
    row = P.RenameRow("en", "Ann", None, rec.calls())
    field = U.fields(row)["Your name"]
    assert field.value == "Ann"
    field.value = "Annie"
    await U.buttons(row)["Rename"].on_click(None)
    assert rec.renamed == ["Annie"]
    assert U.fields(P.RenameRow("en", "Ann", None, PhoneRecorder("Anouk").calls()))["Your name"].value == "Anouk"
    not_me = P.NotMe("en", "Ann", rec.calls())
    assert U.texts(not_me) == ["Not Ann? Pick another seat"]
    await not_me.on_click(None)
    assert rec.left == 1
    assert U.texts(P.waiting_start("en")) == ["You have a seat. Waiting for the host to start…"]
    assert U.texts(P.SeatHeader("You are Ann", "#1f77b4")) == ["You are Ann"]


def test_the_turn_banner_comes_and_goes() -> None:
    assert "Your turn!" in U.texts(P.turn_slot("en", True))
    gone = P.turn_slot("en", False)
    assert gone.visible is False and U.texts(gone) == []


# ---------- views/display.py ----------

def test_the_display_is_drawn_from_a_public_context_and_a_width() -> None:
    t = U.started_table("sealed_vote", ["Ann", "Bob", "Cy"])
    ctx = U.ctx(t, None, host=True)
    shown = U.texts(D.display(ctx, 1280))
    assert {"Ann", "Bob", "Cy"} <= set(shown)
    sig = D.display_sig(ctx, 1280, False)
    assert sig == D.display_sig(U.ctx(t, None, host=True), 1290, False)  # (the same width class)
    assert sig != D.display_sig(ctx, 1600, False) and sig != D.display_sig(ctx, 1280, True)
    assert D.display_sig(U.ctx(t, None, host=True, lang="de"), 1280, False) != sig
    assert D.display_width(None, False) == 1240 and D.display_width(1900, True) == 1900 - 40 - D.SIDE - 16
    assert D.display_width(300, False) == 480


async def test_the_hosts_tools_beside_the_display() -> None:
    taps: list[str] = []
    calls = D.AdminCalls(lambda: taps.append("qr"), lambda: taps.append("admin"))
    tools = D.admin_tools("en", "ABCD", False, calls)
    await U.buttons(tools)["QR code to join"].on_click(None)
    await U.buttons(tools)["Table admin"].on_click(None)
    assert taps == ["qr", "admin"]
    (open_it,) = [c for c in U.controls_of(tools) if isinstance(c, ft.TextButton)]
    assert open_it.content == "Open the table display" and open_it.url == "/display/ABCD"
    assert "Close table admin" in U.buttons(D.admin_tools("en", "ABCD", True, calls))
    layout = D.in_play(ft.Text("the display"), [ft.Text("the panel")])
    assert U.texts(layout) == ["the display", "the panel"] and layout.controls[1].width == D.SIDE


def test_the_join_code_dialog_lobby_and_refusal() -> None:
    closed: list[int] = []
    dlg = D.join_qr_dialog("en", "ABCD", "http://10.0.0.2:8550/t/ABCD", lambda: closed.append(1))
    assert U.texts(dlg.content)[-2:] == ["ABCD", "http://10.0.0.2:8550/t/ABCD"]
    assert U.text(dlg.title) == "Scan with your phone, or open the address and type the code:"
    dlg.actions[0].on_click(None)
    assert closed == [1]
    seats = ft.Text("the seat list")
    lobby = D.lobby("en", "ABCD", "http://10.0.0.2:8550/t/ABCD", seats)
    assert lobby[0].value == "The game starts soon" and lobby[-1] is seats
    assert "ABCD" in U.texts(lobby) and "http://10.0.0.2:8550/t/ABCD" in U.texts(lobby)
    assert "belongs to the host" in U.text(D.denied("en"))


# ---------- views/host.py, views/spectator.py ----------

class HostRecorder(Recorder):
    def __init__(self, words: str | None = None, note: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.words, self.note = words, note
        self.dialogs: list[Any] = []
        self.closed = 0
        self.taps: list[str] = []

    async def another(self, e: Any) -> None:
        self.taps.append("another")

    async def device(self, e: Any) -> None:
        self.taps.append("device")

    def host_calls(self) -> H.HostCalls:
        def close() -> None:
            self.closed += 1
        return H.HostCalls(self.request, self.confirm, self.dialogs.append, close, lambda: self.words,
                           lambda: self.note, lambda note: f"takes back {note['msgs']}", self.another, self.device)


async def test_the_hosts_buttons_follow_the_phase_and_ask_first() -> None:
    rec = HostRecorder()
    lobby = H.host_controls("en", "lobby", False, False, rec.host_calls())
    assert list(U.buttons(lobby)) == ["Start", "Host on another device"]
    await U.buttons(lobby)["Start"].on_click(None)
    await U.buttons(lobby)["Host on another device"].on_click(None)
    assert rec.sent == [{"op": "start"}] and rec.taps == ["another"]

    rec = HostRecorder(words="No choice yet (counts as none): Cy.", note={"msgs": ["x"]})
    play = H.host_controls("en", "playing", True, True, rec.host_calls())
    assert list(U.buttons(play)) == ["Reveal now", "End the table", "Undo last action", "Host on another device",
                                     "Open the shared device"]
    await U.buttons(play)["Reveal now"].on_click(None)  # a seat has not locked: asked first
    assert rec.sent == [] and rec.asked[0] == ("Reveal before everyone has locked?",
                                               "No choice yet (counts as none): Cy.", "Reveal anyway")
    await rec.yes[0]()
    assert rec.sent == [{"op": "host_act", "action": {"type": "reveal"}}]
    await U.buttons(play)["Undo last action"].on_click(None)
    assert rec.asked[1][:2] == ("Undo?", "takes back ['x']")
    await rec.yes[1]()
    await U.buttons(play)["End the table"].on_click(None)
    (dlg,) = rec.dialogs
    assert U.text(dlg.title) == "End this table for everyone?"
    await dlg.actions[1].on_click(None)
    assert rec.sent[1:] == [{"op": "undo"}, {"op": "end"}] and rec.closed == 1
    await U.buttons(play)["Open the shared device"].on_click(None)
    assert rec.taps == ["device"]

    rec = HostRecorder(words=None, note=None)  # every seat locked; nothing to undo: straight to the table
    play = H.host_controls("en", "playing", True, False, rec.host_calls())
    await U.buttons(play)["Reveal now"].on_click(None)
    await U.buttons(play)["Undo last action"].on_click(None)
    assert rec.asked == [] and rec.sent == [{"op": "host_act", "action": {"type": "reveal"}}, {"op": "undo"}]
    assert list(U.buttons(H.host_controls("en", "ended", False, True, rec.host_calls()))) == ["Undo last action"]


def test_the_join_card_print_card_and_reveal_words_from_plain_values() -> None:
    card = U.texts(H.join_card("en", "ABCD", "http://10.0.0.2:8550/t/ABCD", True, ("http://192.168.1.5:8550",)))
    assert "ABCD" in card and "http://10.0.0.2:8550/t/ABCD" in card
    assert "If that does not work: http://192.168.1.5:8550/t/ABCD" in card
    links = {c.content: c.url for c in U.controls_of(H.print_card("de", "ABCD", "lutetia"))
             if isinstance(c, ft.OutlinedButton)}
    assert links[i18n.t("de", "ui.print.join_card", paper="A4")] == "/join-card/ABCD.pdf?paper=a4&lang=de"
    assert links[i18n.t("de", "ui.print.cards", paper="LETTER")] == "/print/lutetia-letter.pdf?lang=de"
    t = U.started_table("sealed_vote", ["Ann", "Bob", "Cy"])
    assert H.can_reveal(None) is False and H.early_reveal_words(None, "en") is None
    assert H.early_reveal_words(t, "en") == "No choice yet (counts as none): Ann, Bob, Cy."
    assert U.texts(S_.spectating_note("en")) == ["You are watching. The host can give you a seat."]


# ---------- views/join.py ----------

async def test_the_join_screen_keeps_every_seat_in_its_place() -> None:
    taps: list[Any] = []

    async def take(i: int, shown: str) -> None:
        taps.append((i, shown))

    async def watch() -> None:
        taps.append("watch")
    calls = J.JoinCalls(take, watch)
    seats = (J.JoinSeat("Ann", "#1f77b4", taken=True), J.JoinSeat("Bob", "#ff7f0e"),
             J.JoinSeat("Cy", "#2ca02c", shared=True))
    name = ft.TextField(label="the name field")
    out = J.join_screen("en", "lobby", seats, False, name, calls)
    assert U.texts(out)[0] == "Welcome to the table" and name in out
    shown = {c.content: c for c in U.controls_of(out) if isinstance(c, ft.FilledButton | ft.OutlinedButton)}
    assert list(shown) == ["Taken: Ann", "Sit as Bob", "Cy: shared device"]
    assert shown["Taken: Ann"].disabled and shown["Cy: shared device"].disabled and not shown["Sit as Bob"].disabled
    await shown["Sit as Bob"].on_click(None)
    assert taps == [(1, "Bob")]
    started = J.join_screen("en", "playing", seats, True, name, calls)
    assert "The game has started." in U.texts(started)
    assert "The host has given your seat to someone else or freed it." in U.texts(started)
    await U.buttons(started)["Watch this table"].on_click(None)
    assert taps[-1] == "watch"
    full = J.join_screen("en", "lobby", (J.JoinSeat("Ann", "#1f77b4", taken=True),), False, name, calls)
    assert "Watch this table" in U.buttons(full)


def test_the_name_field_says_what_it_drew() -> None:
    kept: list[str] = []
    held: list[ft.TextField] = []
    field = J.JoinName("en", None, J.NameCalls(lambda: "Zoë", kept.append, lambda: None, held.append))
    assert held == [field] and field.value == "Zoë" and field.label == "Your name"
    assert U.texts(J.join_error("No table ABCD.", ft.Text("the box")))[-2:] == ["No table ABCD.", "the box"]


# ---------- views/rematch.py ----------

async def test_play_again_asks_with_the_options_prefilled_and_sends_what_was_chosen() -> None:
    from companion.games.base import Option
    taps: list[Any] = []

    async def open_next() -> None:
        taps.append("open")
    calls = R.RematchCalls(lambda: taps.append("ask"), open_next)
    await U.buttons(R.RematchButton("en", "ABCD", calls))["Play again"].on_click(None)
    done = R.done_card("en", "WXYZ", calls)
    assert "The next game is at table WXYZ." in U.texts(done)
    await U.buttons(done)["Open table WXYZ"].on_click(None)
    assert taps == ["ask", "open"]

    options = [Option("mode", "sv.opt.mode", "choice", "choice", choices=("choice", "number")),
               Option("min", "sv.opt.min", "int", 0), Option("open", "sv.opt.mode", "bool", False)]
    played: list[dict[str, Any]] = []

    async def play(chosen: dict[str, Any]) -> None:
        played.append(chosen)
    closed: list[int] = []
    dlg = R.rematch_dialog("en", "sv.name", ["Ann", "Bob"], options, {"mode": "number", "min": 3}, play,
                           lambda: closed.append(1))
    assert U.text(dlg.title) == "Play again?" and "Ann, Bob" in U.text(dlg.content)
    mode = next(c for c in U.controls_of(dlg.content) if isinstance(c, ft.Dropdown))
    assert mode.value == "number"
    mode.on_select(type("E", (), {"control": type("C", (), {"value": "choice"})()})())  # the host changes it
    await dlg.actions[1].on_click(None)
    assert closed == [1] and played == [{"mode": "choice", "min": 3}]
    assert R.chosen_options(options, {"mode": "number", "open": True}) == {"mode": "number", "open": True}


# ---------- views/home.py ----------

class HomeRecorder(Recorder):
    def __init__(self) -> None:
        super().__init__()
        self.went: list[str] = []
        self.opened: list[str] = []
        self.deleted: list[str] = []
        self.form: list[tuple[Any, ...]] = []

    async def go(self, url: str) -> None:
        self.went.append(url)

    async def open_host(self, code: str) -> None:
        self.opened.append(code)

    async def delete(self, code: str) -> None:
        self.deleted.append(code)

    def home_calls(self) -> HM.HomeCalls:
        return HM.HomeCalls(self.go, self.open_host, self.confirm, self.delete)

    def form_calls(self) -> HM.FormCalls:
        async def pick(*a: Any) -> None:
            self.form.append(("pick", *a))

        async def create() -> None:
            self.form.append(("create",))
        return HM.FormCalls(lambda g: pick("game", g), lambda n: pick("n", n),
                            lambda i, s: self.form.append(("name", i, s)), lambda i: self.form.append(("colour", i)),
                            lambda i, on: self.form.append(("shared", i, on)),
                            lambda n, v, again: self.form.append(("option", n, v, again)), lambda: None, create)


async def test_join_by_code_and_the_tables_lists() -> None:
    rec = HomeRecorder()
    box = HM.join_box("en", rec.home_calls())
    (field,) = [c for c in U.controls_of(box) if isinstance(c, ft.TextField)]
    field.value = " abcd"
    await U.buttons(box)["Join"].on_click(None)
    assert rec.went == ["/t/ABCD"]
    rows = (HM.TableRow("ABCD", "Sealed vote", "ended"),)
    opened = HM.open_tables("en", rows, rec.home_calls())
    assert "ABCD · Sealed vote · ended" in U.texts(opened)
    await U.buttons(opened)["Host screen"].on_click(None)
    old = HM.old_tables("en", rows, rec.home_calls())
    await U.buttons(old)["Delete"].on_click(None)
    assert rec.asked[0][0] == "Delete table ABCD?" and rec.deleted == []
    await rec.yes[0]()
    assert rec.opened == ["ABCD"] and rec.deleted == ["ABCD"]
    assert HM.open_tables("en", (), rec.home_calls()) == [] and HM.old_tables("en", (), rec.home_calls()) == []
    assert U.texts(HM.head("en", "The data folder is read-only.", ["Table X is damaged."])) == [
        "Tabletop Companion", "The data folder is read-only.", "Table X is damaged."]


async def test_the_create_form_draws_its_choices_and_hands_each_tap_over() -> None:
    from companion.games.base import Option
    from companion.table.table import COLOURS
    rec = HomeRecorder()
    form = HM.Form((("sealed_vote", "sv.name"), ("quovadis", "qv.name")), "sealed_vote", (2, 3, 4), 3,
                   ("Ann", "", "Cy", "", "", "", "", ""), tuple(COLOURS[:8]), (False, True, False) + (False,) * 5,
                   (Option("mode", "sv.opt.mode", "choice", "choice", choices=("choice", "number")),
                    Option("min", "sv.opt.min", "int", 0)), (("min", "5"),))
    drawn = HM.create_form("en", form, rec.form_calls())
    fields = [c for c in U.controls_of(drawn) if isinstance(c, ft.TextField)]
    assert [f.value for f in fields] == ["Ann", "", "Cy", "5"]  # three seats' names, then the option
    boxes = [c for c in U.controls_of(drawn) if isinstance(c, ft.Checkbox)]
    assert [b.value for b in boxes] == [False, True, False] and boxes[0].label == "Shared device"
    await boxes[2].on_change(type("E", (), {"control": type("C", (), {"value": True})()})())
    await U.buttons(drawn)["4"].on_click(None)
    await U.buttons(drawn)["Create table"].on_click(None)
    assert rec.form == [("shared", 2, True), ("pick", "n", 4), ("create",)]
    assert HM.next_colour(COLOURS[0]) == COLOURS[1] and HM.next_colour("#123456") == COLOURS[0]


class HistoryRecorder(Recorder):
    def __init__(self) -> None:
        super().__init__()
        self.did: list[tuple[Any, ...]] = []
        self.dialogs: list[ft.AlertDialog] = []
        self.popped = 0

    def calls(self) -> HI.HistoryCalls:
        async def rec(*a: Any) -> None:
            self.did.append(a)
        return HI.HistoryCalls(lambda url: rec("go", url), lambda g: rec("game", g),
                               lambda n: self.did.append(("more", n)), lambda a, b: rec("rename", a, b),
                               lambda a, b: rec("merge", a, b), lambda i: rec("undo", i),
                               lambda raw: rec("import", raw), self.confirm, self.dialogs.append, self.pop)

    def pop(self) -> None:
        self.popped += 1


def _person(name: str, wins: int, played: int, *names: str) -> dict[str, Any]:
    return {"player": name, "key": name.casefold(), "wins": wins, "played": played, "names": [name, *names]}


HIST = {"games": [{"ended": 1_700_000_000 + i, "game": "lutece", "code": f"G{i:03}",
                   "players": [{"rank": 1, "name": "Ann", "score": 12.5}, {"rank": 2, "name": "Bob", "score": None}],
                   "winners": ["Ann"]} for i in range(32)],
        "stats": [{"player": "Ann", "game": "lutece", "played": 32, "wins": 32, "average": 12.5, "best": 13}],
        "players": [_person("Ann", 32, 32, "annie"), _person("Bob", 0, 32)],
        "everyone": [_person("Ann", 32, 32, "annie"), _person("Bob", 0, 32)],
        "aliases": [{"id": 7, "kind": "merge", "src": "annie", "dst": "Ann"}], "played": ["lutece", "quovadis"]}


async def test_the_history_page_draws_the_data_it_is_given() -> None:
    rec = HistoryRecorder()
    page = HI.history_page("en", HIST, False, "", 30, rec.calls())
    shown = U.texts(page)
    assert "History" in shown and "32 games played" in shown and "Ann (annie)" in shown
    assert "1. Ann 12.5, 2. Bob" in shown and shown.count("Winner: Ann") == 30  # 30 of 32 games listed
    assert "32 wins · 32 played" in shown and "annie merged into Ann" in shown
    urls = {c.url for c in U.controls_of(page) if getattr(c, "url", None)}
    assert urls == {"/history/export.csv", "/history/export.json"}
    await U.buttons(page)["Show 2 more"].on_click(None)
    await U.buttons(page)["Quo Vadis"].on_click(None)
    await U.buttons(page)["All games"].on_click(None)
    await U.buttons(page)["Home"].on_click(None)
    await U.buttons(HI.history_link("en", rec.calls().go))["Game history and statistics"].on_click(None)
    assert rec.did == [("more", 60), ("game", "quovadis"), ("game", None), ("go", "/"), ("go", "/history")]
    assert "Show 2 more" not in U.buttons(HI.history_page("en", HIST, False, "lutece", 60, rec.calls()))
    # while it is read, when it could not be read, and to anyone but the host's computer
    assert any(isinstance(c, ft.ProgressRing) for c in U.controls_of(HI.history_page("en", None, False, "", 30,
                                                                                      rec.calls())))
    assert U.texts(HI.history_page("en", None, True, "", 30, rec.calls())) == [i18n.t("en", "ui.err.store")]
    assert U.texts(HI.host_only("en")) == [i18n.t("en", "ui.home.host_only")]


async def test_rename_merge_and_undo_ask_first_and_hand_over_what_was_chosen() -> None:
    rec = HistoryRecorder()
    people = HI.people_card("en", HIST, rec.calls())
    rows = [r for r in U.controls_of(people) if isinstance(r, ft.Row) and U.texts(r)[:1] == ["Bob"]]
    await U.buttons(rows[0])["Rename"].on_click(None)
    dlg = rec.dialogs[-1]
    assert "Bob is shown with the new name in all of their games (32 games)" in U.text(dlg.content)
    U.fields(dlg.content)["New name"].value = "Bob"  # unchanged: nothing to do
    await U.buttons(dlg.actions)["Rename"].on_click(None)
    U.fields(dlg.content)["New name"].value = " Robert "
    await U.buttons(dlg.actions)["Rename"].on_click(None)
    assert rec.popped == 2 and rec.did == [("rename", "Bob", "Robert")]
    await U.buttons(rows[0])["Merge"].on_click(None)
    assert list(U.buttons(rec.dialogs[-1].content)) == ["Ann"]  # everyone but Bob
    await U.buttons(rec.dialogs[-1].content)["Ann"].on_click(None)
    assert rec.asked[-1][0] == "Merge Bob into Ann?" and len(rec.did) == 1
    await rec.yes[-1]()
    await U.buttons(people)["Undo"].on_click(None)
    assert rec.asked[-1][0] == "Undo this change?" and "annie counts as a player" in rec.asked[-1][1]
    await rec.yes[-1]()
    assert rec.did[1:] == [("merge", "Bob", "Ann"), ("undo", 7)]


class DeviceRecorder(Recorder):
    def __init__(self) -> None:
        super().__init__()
        self.did: list[tuple[Any, ...]] = []

    def calls(self) -> SH.DeviceCalls:
        async def rec(*a: Any) -> None:
            self.did.append(a)
        return SH.DeviceCalls(lambda s: rec("open", s), lambda: rec("cover"),
                              lambda k, v: self.did.append(("keep", k, v)), lambda: self.did.append(("poke",)),
                              lambda s, pin: rec("pin", s, pin), lambda s, pin: rec("set_pin", s, pin))


def keyed(controls: Any, key: str) -> Any:
    (found,) = [c for c in U.controls_of(controls) if getattr(c, "key", None) == key]
    return found


async def test_the_cover_shows_public_facts_and_hands_its_taps_over() -> None:
    rec = DeviceRecorder()
    seats = (SH.CoverSeat(0, "Ann", "#E53935"), SH.CoverSeat(2, "Cy", "#1E88E5"), SH.CoverSeat(3, "Di", "#43A047"))
    drawn = SH.cover_screen("en", SH.Cover("playing", seats, (2, 3), "Bob"), [ft.Text("moment")], rec.calls())
    shown = U.texts(drawn)
    assert shown[:2] == ["moment", "Bob is done."]
    assert "Pass to Cy" in shown and "Tap when only Cy is looking" in shown and "Then: Di" in shown
    assert keyed(drawn, "uncover:2").bgcolor == "#1E88E5"
    await keyed(drawn, "uncover:2").on_click(None)
    await keyed(drawn, "uncover:0").on_click(None)  # (only to look)
    assert rec.did == [("open", 2), ("open", 0)]
    assert [c.key for c in U.controls_of(drawn) if str(getattr(c, "key", "")).startswith("uncover:")] == [
        "uncover:2", "uncover:0", "uncover:3"]
    done = U.texts(SH.cover_screen("en", SH.Cover("playing", seats, (), None), [], rec.calls()))
    assert "All shared seats are done: put the device down." in done and "Bob is done." not in done
    lobby = SH.cover_screen("en", SH.Cover("lobby", seats, (), None), [], rec.calls())
    assert U.texts(lobby) == ["This device plays for Ann, Cy, Di. The game has not started: put the device down."]
    assert U.texts(SH.denied("en")) == [i18n.t("en", "ui.shared.denied")]


async def test_the_pin_the_seat_screen_and_a_new_pin_from_plain_values() -> None:
    rec = DeviceRecorder()
    pin = SH.pin_screen("en", 2, "Cy", "#1E88E5", "12", "Wrong PIN.", rec.calls())
    field = U.fields(pin)["Cy's PIN"]
    assert field.value == "12" and "Wrong PIN." in U.texts(pin)
    field.value = "123"
    field.on_change(None)
    field.value = "1234"
    await U.buttons(pin)["Open"].on_click(None)
    await U.buttons(pin)["Cancel"].on_click(None)
    assert rec.did == [("keep", "pin:2", "123"), ("pin", 2, "1234"), ("cover",)]
    rec.did.clear()
    card = SH.set_pin_card("en", 2, "", rec.calls())
    new = U.fields(card)["New PIN (4 digits)"]
    new.value = " 4321 "
    new.on_change(None)
    await U.buttons(card)["Set PIN"].on_click(None)
    assert rec.did == [("keep", "pin-new:2", " 4321 "), ("poke",), ("set_pin", 2, "4321")]
    screen = SH.seat_screen("en", "Cy", "#1E88E5", [ft.Text("the game")], card, rec.calls())
    assert U.texts(screen)[:3] == ["Cy's screen", "Done – cover", "the game"]
    assert [c.key for c in U.controls_of(screen) if isinstance(c, ft.FilledButton)] == ["cover", "cover-end"]
    await keyed(screen, "cover-end").on_click(None)
    assert rec.did[-1] == ("cover",)
    popped: list[int] = []
    dlg = SH.device_link_dialog("en", "http://x.test/shared/ABCD?d=t", lambda: popped.append(1))
    assert {c.url.url for c in U.controls_of(dlg.content) if getattr(c, "url", None)} == {
        "http://x.test/shared/ABCD?d=t"}
    dlg.actions[0].on_click(None)
    assert popped == [1]


def test_a_refusal_or_a_store_failure_is_said_in_the_screens_language() -> None:
    """Session.refused: the one place a home/rematch/create refusal becomes a message – a RuleError in its
    own words, a StoreError as "ui.err.store" – in the screen's language, as an error toast."""
    from types import SimpleNamespace

    from companion import i18n
    from companion.games.base import RuleError
    from companion.table.store import StoreError
    from companion.ui.session import Session

    said: list[tuple[str, bool]] = []
    scr = SimpleNamespace(t=lambda key, **kw: i18n.t("fr", key, **kw), toast=lambda m, e=False: said.append((m, e)))
    Session.refused(scr, RuleError("tbl.err.seat_taken"))  # type: ignore[arg-type]
    Session.refused(scr, StoreError("store.full", "/x", "disk full"))  # type: ignore[arg-type]
    assert said == [(i18n.t("fr", "tbl.err.seat_taken"), True), (i18n.t("fr", "ui.err.store"), True)]
    assert all(not m.startswith(("tbl.", "ui.")) for m, _ in said), said  # words, not keys
