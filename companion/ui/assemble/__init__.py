"""The screen's side of the views: what each view draws, built from the session, and the callbacks
it needs.

The views under companion/ui/views/ that are functions of what they draw (seats.py, common.py,
phone.py, display.py, host.py, spectator.py, join.py, rematch.py, home.py, history.py, shared.py: guarded by tests/test_views_private.py) take plain values, small frozen dataclasses of what they show and a
`kit.Calls` of the session's callbacks – never the `Screen`. The functions of this package (a module per view: for_seats, for_common, for_phone,
for_display, for_host, for_join, for_rematch, for_home, for_history, for_shared) read the screen (its
table, seat, language, local choices, slots), build those arguments and place the views in the
screen's slots; `Screen` takes them as its methods (companion/ui/screens.py)."""


from __future__ import annotations

from companion.ui.assemble.for_common import (
    confirm,
    game_live,
    game_section,
    host_moves_card,
    local_sig,
    top_bar,
    undo_card,
    undo_words_of,
)
from companion.ui.assemble.for_display import (
    controls_drawn,
    controls_live,
    display_denied,
    display_drawn,
    display_live,
    display_page,
    host_in_play,
    join_qr_dialog,
    redraw_controls,
    redraw_display,
)
from companion.ui.assemble.for_history import (
    history_calls,
    history_page,
)
from companion.ui.assemble.for_home import (
    create_form,
    create_state,
    create_table,
    home,
    home_calls,
    join_box,
    old_tables,
)
from companion.ui.assemble.for_host import (
    can_reveal,
    host,
    host_calls,
    host_controls,
    host_link_used,
    show_host_link,
    spectator,
)
from companion.ui.assemble.for_join import (
    join_calls,
    join_error,
    join_name_field,
    join_screen,
    name_calls,
    seat_taken,
    typed_name,
)
from companion.ui.assemble.for_phone import (
    feel_turn,
    leave_seat,
    phone,
    phone_calls,
    redraw_turn,
    turn_drawn,
    turn_now,
    turn_part,
)
from companion.ui.assemble.for_rematch import (
    play_again,
    rematch_dialog,
    rematch_part,
)
from companion.ui.assemble.for_seats import (
    seat_calls,
    seat_part,
    seat_section,
    submitted_sets,
)

__all__ = [
    "submitted_sets",
    "seat_calls",
    "seat_section",
    "seat_part",
    "top_bar",
    "local_sig",
    "game_section",
    "game_live",
    "host_moves_card",
    "undo_words_of",
    "undo_card",
    "confirm",
    "phone_calls",
    "phone",
    "turn_now",
    "feel_turn",
    "turn_drawn",
    "turn_part",
    "redraw_turn",
    "leave_seat",
    "display_drawn",
    "display_live",
    "redraw_display",
    "display_page",
    "display_denied",
    "join_qr_dialog",
    "controls_drawn",
    "controls_live",
    "redraw_controls",
    "host_in_play",
    "can_reveal",
    "host_calls",
    "host_controls",
    "host",
    "host_link_used",
    "show_host_link",
    "spectator",
    "typed_name",
    "name_calls",
    "join_name_field",
    "seat_taken",
    "join_calls",
    "join_screen",
    "join_error",
    "rematch_part",
    "rematch_dialog",
    "play_again",
    "home_calls",
    "home",
    "old_tables",
    "join_box",
    "create_state",
    "create_form",
    "create_table",
    "history_calls",
    "history_page",
]
