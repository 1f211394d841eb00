"""Names in the reader's language and a too-long name said, not cut (issue 18.5)."""

from __future__ import annotations

from companion import i18n
from companion.games import games
from companion.table.table import MAX_NAME
from companion.ui.names import too_long

games()  # the catalogs


def test_a_default_seat_name_is_said_in_the_readers_language() -> None:
    assert i18n.seat_name("de", "Player 2") == "Person 2"
    assert i18n.seat_name("fr", "Person 3") == "Joueur 3"
    assert i18n.seat_name("en", "Joueur 12") == "Player 12"
    assert i18n.seat_name("de", "Player 2") == i18n.seat_name("de", "Joueur 2")
    for name in ("Anna", "Anna 2", "Player", "Player 2b", "Spieler 2", "", "🦄 Zoé 🎲"):
        assert i18n.seat_name("de", name) == name
    # in every message: "Sit as Person 2" on a German phone at a table the host set up in English
    assert i18n.t("de", "ui.phone.take_seat", name="Player 2") == "Platz nehmen als Person 2"
    assert i18n.t("en", "ui.phone.take_seat", name="Anna") == "Sit as Anna"


def test_a_name_too_long_gets_the_message_in_the_readers_language() -> None:
    assert too_long("en", "x" * MAX_NAME) is None
    assert too_long("en", " " + "x" * MAX_NAME + " ") is None  # (the table strips it)
    assert too_long("en", "x" * (MAX_NAME + 1)) == f"That name is too long ({MAX_NAME} characters at most)."
    assert too_long("de", "x" * 200) == f"Der Name ist zu lang (höchstens {MAX_NAME} Zeichen)."
    assert too_long("fr", "x" * 200) == f"Ce nom est trop long ({MAX_NAME} caractères au plus)."
