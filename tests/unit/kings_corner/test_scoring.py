"""Round scoring, chips and pool, and the end of the match (§5.6, §5.7, §5.9 vectors 11-12)."""

from __future__ import annotations

import pytest

from contracts.games.kings_corner import DrawCard, EndTurn, PlayCard, RoundEnded, SeatResult, TurnEnded
from domain.games.kings_corner import GAME
from domain.games.kings_corner.rules import POINTS

from .conftest import dealt, kc, then_from

HAND = ("KC", "10H", "7S", "AD")


@pytest.mark.parametrize(
    ("table", "penalty"),
    [
        ("K10_O1", 13),
        ("COUNT", 4),
        ("A25_F10_PIP", 52),
        ("A50_TF10_P5", 75),
        ("F10_6T10_5_A5_1", 21),
        ("A25_TF10_P5", 50),
        ("ROBINSON", 31),
    ],
)
def test_vector11_point_tables(table: str, penalty: int) -> None:
    """Vector 11: {K♣, 10♥, 7♠, A♦} under every table of §4.1."""
    assert sum(POINTS[table][c[:-1]] for c in HAND) == penalty


def _went_out(preset: str, loser_hand: str, **kw: object) -> tuple[RoundEnded, object]:
    result = (
        kc(preset, **kw)
        .given(dealt(hands=("8C", loser_hand), layout={"N": "9H"}, stock="5S 6S"))
        .when("p1", PlayCard(card="8C", slot="N"))
    )
    state = result.then_accepted()
    assert isinstance(result.result, tuple)
    ended = result.result[-1]
    assert isinstance(ended, RoundEnded)
    return ended, state


def test_vector11_penalty_round() -> None:
    """§5.6: the player who goes out scores 0; the others their hand (003:L34-L38)."""
    ended, _ = _went_out("pagat-classic", " ".join(HAND))
    assert {r.seat: r.points for r in ended.seats} == {"p1": 0, "p2": 13}


def test_vector11_chips_13_to_the_winner() -> None:
    """Vector 11 chips (000:L567): 1 per card, 10 per king, plus the pot (2 antes)."""
    ended, state = _went_out("classic-chips", " ".join(HAND))
    assert {r.seat: r.balance_change for r in ended.seats} == {"p1": 15, "p2": -13}
    assert state.totals == (14, -14)  # type: ignore[attr-defined]


def test_vector11_pool_4_units() -> None:
    """Vector 11 pool (000:L583): every card (kings too) pays 1 into the pool; the winner takes it."""
    ended, state = _went_out("classic-pool", " ".join(HAND))
    assert {r.seat: r.balance_change for r in ended.seats} == {"p1": 4, "p2": -4}


def test_vector12_chips_example() -> None:
    """Vector 12 (000:L567): ante 3, idle fees 3, P1 goes out: 6 + 12 + 3 = 21."""
    spec = kc("classic-chips", n=3).given(
        dealt(
            n=3, hands=("8C", "KD 4C 5C", "2D 3D 4D"), layout={"N": "9H"}, stock="5S 6S 7S 8S 9S", first="p2"
        ),
        TurnEnded(seat="p2", next_seat="p3", idle_fee=1),
        TurnEnded(seat="p3", next_seat="p1", idle_fee=1),
        TurnEnded(seat="p1", next_seat="p2"),
        TurnEnded(seat="p2", next_seat="p3", idle_fee=1),
        TurnEnded(seat="p3", next_seat="p1"),
    )
    assert spec.state.pot == 6
    result = spec.when("p1", PlayCard(card="8C", slot="N"))
    state = result.then_accepted()
    assert isinstance(result.result, tuple)
    ended = result.result[-1]
    assert isinstance(ended, RoundEnded)
    assert {r.seat: r.balance_change for r in ended.seats} == {"p1": 21, "p2": -12, "p3": -3}
    assert state.totals == (20, -15, -5) and state.pot == 0


def test_chips_turn_fee_is_recorded_by_decide() -> None:
    """E17: a turn with no card played pays the idle fee; merges alone do not count."""
    kc("classic-chips").given(dealt(hands=("2D 3C", "4D"), stock="5S 6S")).when(
        "p1", DrawCard()
    ).then_accepted()
    result = kc("classic-chips").given(dealt(hands=("2D 3C", "4D"), stock="5S 6S")).when("p1", EndTurn())
    assert isinstance(result.result, tuple)
    assert any(isinstance(e, TurnEnded) and e.idle_fee == 1 for e in result.result)


def test_fixed_rounds_ends_after_n() -> None:
    """cardgames-zone: 3 rounds, the lowest total wins (003:L24, 003:L49)."""
    result = (
        kc()
        .given(dealt(hands=("8C", "3D 4D"), layout={"N": "9H"}, stock="5S", round_no=3))
        .when("p1", PlayCard(card="8C", slot="N"))
    )
    state = result.then_accepted()
    assert state.phase == "over"
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.ranks == (1, 2) and outcome.scores == (0.0, 2.0)


def _prior(totals: tuple[int, ...], eliminated: tuple[bool, ...] = ()) -> RoundEnded:
    seats = GAME.seat_names(len(totals))
    return RoundEnded(
        round_no=1,
        result="blocked",
        winner=None,
        seats=tuple(
            SeatResult(
                seat=s,
                hand=(),
                points=t,
                balance_change=0,
                total=t,
                eliminated=bool(eliminated[i : i + 1] and eliminated[i]),
            )
            for i, (s, t) in enumerate(zip(seats, totals, strict=True))
        ),
    )


def test_negative_25_ends_only_above_25() -> None:
    """S3 (000:L866): the game ends once a player exceeds -25 (strictly); 25 exactly goes on."""
    deal2 = dealt(hands=("8C", "2D 3D 4D 5D 6D"), layout={"N": "9H"}, stock="5S", round_no=2)
    state = (
        kc("negative-25")
        .given(_prior((0, 20)), deal2)
        .when("p1", PlayCard(card="8C", slot="N"))
        .then_accepted()
    )
    assert state.totals == (0, 25) and state.phase == "scored"
    deal2 = dealt(hands=("8C", "2D 3D 4D 5D 6D 7D"), layout={"N": "9H"}, stock="5S", round_no=2)
    state = (
        kc("negative-25")
        .given(_prior((0, 20)), deal2)
        .when("p1", PlayCard(card="8C", slot="N"))
        .then_accepted()
    )
    assert state.phase == "over" and GAME.outcome(state).ranks == (1, 2)  # type: ignore[union-attr]


def test_target_reach_or_exceed() -> None:
    """pagat-classic (000:L559): a total reaching the target ends the match; lowest total wins."""
    deal2 = dealt(hands=("8C", "2D 3D 4D 5D 6D"), layout={"N": "9H"}, stock="5S", round_no=2)
    state = (
        kc("pagat-classic", match_end_value=25)
        .given(_prior((0, 20)), deal2)
        .when("p1", PlayCard(card="8C", slot="N"))
        .then_accepted()
    )
    assert state.phase == "over"


def test_elimination_last_seat_standing_wins() -> None:
    """V19 (003:L46): reaching 25 drops out; when one is left, that seat wins [REC]."""
    deal2 = dealt(n=3, hands=("8C", "KD 2D 3D 4D 5D", ""), layout={"N": "9H"}, stock="5S", round_no=2)
    result = (
        kc("cz-elimination-25", n=3)
        .given(_prior((0, 10, 30), (False, False, True)), deal2)
        .when("p1", PlayCard(card="8C", slot="N"))
    )
    state = result.then_accepted()
    assert state.totals == (0, 24, 30) and state.phase == "scored"  # 24 < 25: p2 stays
    deal2 = dealt(n=3, hands=("8C", "KD 2D 3D 4D 5D 6D", ""), layout={"N": "9H"}, stock="5S", round_no=2)
    state = (
        kc("cz-elimination-25", n=3)
        .given(_prior((0, 10, 30), (False, False, True)), deal2)
        .when("p1", PlayCard(card="8C", slot="N"))
        .then_accepted()
    )
    assert state.phase == "over" and state.ranks == (1, 2, 3)


def test_single_round_and_shared_or_extra_round_ties() -> None:
    """single_round: a BLOCKED round goes to the lowest penalty; ties are shared, or replayed [REC Q10]."""
    blocked = dealt(hands=("5D", "6C"), layout={"N": "AS", "E": "AH", "S": "AC", "W": "AD"})
    state = kc("family-draw-first").given(blocked).when("p1", EndTurn()).then_accepted()
    assert state.phase == "over" and state.ranks == (1, 1)
    assert GAME.outcome(state).draw  # type: ignore[union-attr]
    state = (
        kc("family-draw-first", tie_policy="extra_round").given(blocked).when("p1", EndTurn()).then_accepted()
    )
    assert state.phase == "scored"


def test_klepek_first_turn_out_bonus() -> None:
    """V5 / Q14: going out on the very first turn adjusts the score by -5."""
    ended, _ = _went_out("klepek", "2D")
    assert {r.seat: r.points for r in ended.seats} == {"p1": -5, "p2": 1}


def test_corner_ace_bonus() -> None:
    """V12 / Q15: completing a K..A corner pile takes 5 off that round's penalty (never below 0)."""
    corner = "KS QH JS 10H 9S 8H 7S 6H 5S 4H 3S 2H"
    state = (
        kc("corner-ace-bonus")
        .given(dealt(hands=("AS KD 5D", "8D"), layout={"NE": corner, "N": "9S"}, stock="9C 8C"))
        .when("p1", PlayCard(card="AS", slot="NE"))
        .then_accepted()
    )
    assert state.ace_completions == (1, 0)
    state = then_from(state).when("p1", DrawCard()).then_accepted()
    result = then_from(state).when("p2", PlayCard(card="8D", slot="N"))
    result.then_accepted()
    assert isinstance(result.result, tuple)
    ended = result.result[-1]
    assert isinstance(ended, RoundEnded)
    assert {r.seat: r.points for r in ended.seats} == {"p1": 10 + 1 + 1 - 5, "p2": 0}
