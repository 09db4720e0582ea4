"""Farkle Flip: the entry rule when stopping with nothing (§3.9 Bank with `entry_stop_policy`),
the score sheet and the final ranks in the view (§3.9 state, the table every player sees), and
when a record asks for a deal (records.md: reshuffles as further deal entries)."""

from __future__ import annotations

import msgspec

from contracts.envelope import Rejected
from contracts.games.farkle_flip import ScoreRound, Stop
from domain.games.farkle_flip import GAME
from domain.games.farkle_flip.record import wants_deal
from domain.games.farkle_flip.view import score_sheet, view
from tests.unit.farkle_flip.helpers import SEED, act, rejected, rules, table

P1, P2 = "p1", "p2"


def test_must_continue_refuses_a_stop_with_nothing_while_cards_remain() -> None:
    """§3.9 `entry_stop_policy = MUST_CONTINUE`: a player not yet on the board may not stop while
    the piles still hold cards, even with an empty centre; the refusal says how far to go."""
    r = rules(entry_stop_policy="MUST_CONTINUE")
    s = table(draw="2 3", ruleset=r, draws=1, on_board=(False, False))
    assert rejected(s, P1, Stop()) == "below_entry"
    refusal = GAME.decide(s, P1, Stop())
    assert isinstance(refusal, Rejected)
    assert refusal.detail == f"not on the board: keep drawing until {r.entry} (MUST_CONTINUE)"
    # the same stop is allowed once the player is on the board: nothing scores (FF6)
    on = table(draw="2 3", ruleset=r, draws=1, on_board=(True, False))
    _, events = act(on, P1, Stop())
    assert events[0].result == "nothing"


def test_the_score_sheet_has_one_numbered_row_per_round_of_turns() -> None:
    """The score sheet: every seat's turn once per round, in turn order; a row holds what each
    turn banked and the totals after it; round numbers are whole numbers on the wire."""
    s = msgspec.structs.replace(
        table(), turn_seats=(0, 1, 0), turn_rows=((100, 0), (100, 50), (300, 50))
    )
    sheet = score_sheet(s)
    assert sheet == (
        ScoreRound(round_no=1, points={P1: 100, P2: 50}, totals={P1: 100, P2: 50}),
        ScoreRound(round_no=2, points={P1: 200}, totals={P1: 300, P2: 50}),
    )
    wire = msgspec.json.encode(sheet)
    assert msgspec.json.decode(wire, type=tuple[ScoreRound, ...]) == sheet
    assert [type(r.round_no) for r in sheet] == [int, int]


def test_a_finished_table_shows_its_ranks() -> None:
    """§3.9 end of the game: the final ranks are part of the table everyone sees."""
    s = msgspec.structs.replace(table(), status="finished", ranks=(2, 1))
    assert view(s, P1).ranks == (2, 1)
    assert view(s, None).ranks == (2, 1)


def test_a_table_with_the_wrong_number_of_seats_asks_for_no_deal() -> None:
    """A ruleset for other seat counts is refused at set-up (`invalid_seats`), so its record
    never asks for the deal of a game that cannot start."""
    r = rules(min_players=2, max_players=2)
    s = GAME.initial_state(r, GAME.seat_names(3), SEED)
    assert s.seat_problem is not None
    assert wants_deal(s) is False
    assert wants_deal(GAME.initial_state(r, GAME.seat_names(2), SEED)) is True
