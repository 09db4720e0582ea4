"""Every preset's distinctive parameters, tested by what they change in play (rules/kings-corner.md
§4.2 main presets, §4.3 derived presets, §4.1 parameters).

Each table below is written from the rules file, not from ``rules.py``: change a preset value (or
the rule it selects) and a row here fails.
"""

from __future__ import annotations

import msgspec
import pytest

from contracts.games.kings_corner import (
    CardPlayed,
    CardsDrawn,
    EndTurn,
    KingPenaltyCharged,
    MoveKingPile,
    MovePile,
    PileMoved,
    PlayCard,
    PlayRun,
    Ready,
    RoundDealt,
    RoundEnded,
    SeatResult,
    TurnEnded,
)
from domain.games.kings_corner import GAME
from domain.games.kings_corner.rules import PRESETS

from .conftest import SEED, dealt, kc, then_from

CZ = ("cardgames-zone", "cz-elimination-25", "cz-draw-when-needed", "cz-two-decks")
NEG = ("negative-25", "s3-immediate-kings", "s3-draw-first", "s3-mandatory-kings")
ALL = sorted(PRESETS)


def _others(*names: str) -> list[str]:
    return [p for p in ALL if p not in names]


def test_the_preset_list_is_that_of_4_2_and_4_3() -> None:
    """§4.2 and §4.3, without robinson (D5)."""
    assert set(PRESETS) == {
        "cardgames-zone", "pagat-classic", "classic-chips", "classic-pool", "family-draw-first",
        "negative-25", "high-count-250", "draw-till-play", "cz-elimination-25", "cz-draw-when-needed",
        "cz-two-decks", "s3-immediate-kings", "s3-draw-first", "s3-mandatory-kings",
        "pagat-kings-penalty", "pagat-draw-first", "pagat-draw-two", "pagat-high-count-100",
        "pagat-fixed-hands", "stofka", "klepek", "s4-points", "corner-ace-bonus", "becker-four-card",
        "freeman-jokers", "suit-corners", "crestanello",
    }  # fmt: skip


# §4.3: each derived preset is its base with only the listed parameters changed.
DERIVED = {
    "cz-elimination-25": ("cardgames-zone", {"match_end": "elimination", "match_end_value": 25}),
    "cz-draw-when-needed": ("cardgames-zone", {"draw_timing": "start_if_stuck"}),
    "cz-two-decks": ("cardgames-zone", {"decks": 2, "max_players": 10}),
    "s3-immediate-kings": ("negative-25", {"setup_cross_kings": "auto_corner_refill_from_stock"}),
    "s3-draw-first": ("negative-25", {"draw_timing": "start"}),
    "s3-mandatory-kings": ("negative-25", {"mandatory_kings": "enforce"}),
    "pagat-kings-penalty": ("pagat-classic", {"mandatory_kings": "penalty3"}),
    "pagat-draw-first": ("pagat-classic", {"draw_timing": "start"}),
    "pagat-draw-two": ("pagat-classic", {"draw_count": 2}),
    "pagat-high-count-100": ("pagat-classic", {"scoring_table": "A25_F10_PIP", "match_end_value": 100}),
    "pagat-fixed-hands": ("pagat-classic", {"match_end": "fixed_rounds", "match_end_value": 5}),
    "stofka": ("pagat-classic", {"scoring_table": "A50_TF10_P5", "match_end_value": 250}),
    "klepek": (
        "pagat-classic",
        {"scoring_table": "F10_6T10_5_A5_1", "match_end_value": 50, "first_turn_out_adjust": -5},
    ),
    "s4-points": ("pagat-classic", {"scoring_table": "A25_TF10_P5", "match_end_value": 250}),
    "corner-ace-bonus": ("pagat-classic", {"corner_ace_bonus": 5}),
    "becker-four-card": ("pagat-classic", {"hand_size": 4, "going_out": "after_stock_exhausted"}),
    "freeman-jokers": ("pagat-classic", {"jokers": 2, "joker_penalty": 1}),
    "suit-corners": ("pagat-classic", {"corner_build": "down_in_suit"}),
    "crestanello": ("pagat-classic", {"cross_build": "down_in_suit", "corner_build": "down_in_suit"}),
}


@pytest.mark.parametrize("preset", sorted(DERIVED))
def test_a_derived_preset_is_its_base_with_only_the_listed_overrides(preset: str) -> None:
    """§4.3: "Every other parameter keeps the base value"."""
    base, overrides = DERIVED[preset]
    mine, theirs = msgspec.to_builtins(PRESETS[preset]), msgspec.to_builtins(PRESETS[base])
    assert {k: mine[k] for k in overrides} == overrides
    assert {k: v for k, v in mine.items() if k not in overrides} == {
        k: v for k, v in theirs.items() if k not in overrides
    }


# ---------------------------------------------------------------- scoring tables and first-turn adjust
HAND = "KC 10H 7S AD"  # vector 11
# (points of HAND, points of the seat going out on its first turn) per preset (§4.2, §4.3, vector 11)
POINTS = {p: (13, 0) for p in ALL}
POINTS.update({"high-count-250": (52, 0), "pagat-high-count-100": (52, 0), "stofka": (75, 0)})
POINTS.update({"klepek": (21, -5), "s4-points": (50, 0)})
LEDGER = {"classic-chips": (-13, 13 + 2), "classic-pool": (-4, 4)}  # balance changes (loser, winner)


def _out(preset: str, loser: str = HAND, **kw: object) -> tuple[RoundEnded, object]:
    """p1 goes out on its first turn playing 8 on 9 at N; every cross slot is filled, stock empty."""
    nine, eight = ("9C", "8C") if preset == "crestanello" else ("9H", "8C")
    layout = {"N": nine, "E": "QD", "S": "5S", "W": "JC"}
    result = (
        kc(preset, **kw)
        .given(dealt(hands=(eight, loser), layout=layout))
        .when("p1", PlayCard(card=eight, slot="N"))
    )
    state = result.then_accepted()
    assert isinstance(result.result, tuple)
    ended = result.result[-1]
    assert isinstance(ended, RoundEnded) and ended.winner == "p1"
    return ended, state


@pytest.mark.parametrize("preset", ALL)
def test_each_presets_point_table_and_first_turn_adjustment(preset: str) -> None:
    """§4.1 point tables by preset (vector 11: {K♣, 10♥, 7♠, A♦}); V5 Klepek: out on the first turn -5."""
    ended, _ = _out(preset)
    if preset in LEDGER:
        assert {r.seat: r.balance_change for r in ended.seats} == {
            "p1": LEDGER[preset][1],
            "p2": LEDGER[preset][0],
        }
    else:
        loser, winner = POINTS[preset]
        assert {r.seat: r.points for r in ended.seats} == {"p1": winner, "p2": loser}


def test_klepek_adjustment_only_on_the_first_turn() -> None:
    """V5 (000:L579): going out on a later turn scores 0, not -5 (the first turn ends with TurnEnded)."""
    later = dealt(hands=("8C", "3D"), layout={"N": "9H", "E": "QD", "S": "5S", "W": "JC"})
    spec = kc("klepek").given(
        later, TurnEnded(seat="p1", next_seat="p2"), TurnEnded(seat="p2", next_seat="p1")
    )
    assert spec.state.first_turn == (False, False)
    result = spec.when("p1", PlayCard(card="8C", slot="N"))
    result.then_accepted()
    assert isinstance(result.result, tuple)
    ended = result.result[-1]
    assert isinstance(ended, RoundEnded) and {r.seat: r.points for r in ended.seats} == {"p1": 0, "p2": 1}
    # p2 has had no turn yet: its first turn is still to come
    spec = kc("klepek").given(later, TurnEnded(seat="p1", next_seat="p2"))
    assert spec.state.first_turn == (False, True)


def test_joker_penalty_of_freeman_jokers() -> None:
    """V17 / freeman-jokers: a joker left in hand costs joker_penalty (1; 3 if set so)."""
    ended, _ = _out("freeman-jokers", loser="RJ 2D")
    assert {r.seat: r.points for r in ended.seats}["p2"] == 2
    ended, _ = _out("freeman-jokers", loser="RJ 2D", joker_penalty=3)
    assert {r.seat: r.points for r in ended.seats}["p2"] == 4


# ---------------------------------------------------------------- the end of the match
# preset -> (kind, value, strict)
END = {p: ("target", 50, False) for p in ALL}
END.update({p: ("fixed_rounds", 3, False) for p in ("cardgames-zone", "cz-draw-when-needed", "cz-two-decks")})
END.update({p: ("fixed_rounds", 5, False) for p in ("classic-chips", "classic-pool", "pagat-fixed-hands")})
END.update({p: ("target", 25, True) for p in NEG})
END.update({"family-draw-first": ("single_round", 1, False), "cz-elimination-25": ("elimination", 25, False)})
END.update({"high-count-250": ("target", 250, False), "pagat-high-count-100": ("target", 100, False)})
END.update({"stofka": ("target", 250, False), "s4-points": ("target", 250, False)})


def _prior(totals: tuple[int, int]) -> RoundEnded:
    return RoundEnded(
        round_no=1,
        result="blocked",
        winner=None,
        seats=tuple(
            SeatResult(seat=s, hand=(), points=0, balance_change=0, total=t, eliminated=False)
            for s, t in zip(("p1", "p2"), totals, strict=True)
        ),
    )


def _phase_after_round(preset: str, prior: int, round_no: int) -> str:
    nine, eight = ("9C", "8C") if preset == "crestanello" else ("9H", "8C")
    layout = {"N": nine, "E": "QD", "S": "5S", "W": "JC"}
    spec = kc(preset).given(_prior((0, prior)), dealt(hands=(eight, HAND), layout=layout, round_no=round_no))
    state = spec.when("p1", PlayCard(card=eight, slot="N")).then_accepted()
    return str(state.phase)


@pytest.mark.parametrize("preset", ALL)
def test_each_presets_end_of_match(preset: str) -> None:
    """§5.7 per preset: target T (reach, or strictly exceed in S3), fixed N rounds, single round,
    elimination at 25."""
    kind, value, strict = END[preset]
    if kind == "single_round":
        assert _phase_after_round(preset, 0, 1) == "over"
    elif kind == "fixed_rounds":
        assert _phase_after_round(preset, 0, value - 1) == "scored"
        assert _phase_after_round(preset, 0, value) == "over"
    else:
        points = LEDGER.get(preset, POINTS[preset])[0]
        exactly = value - points  # the round brings p2 to exactly the target
        assert _phase_after_round(preset, exactly - 1, 2) == "scored"
        assert _phase_after_round(preset, exactly, 2) == ("scored" if strict else "over")
        assert _phase_after_round(preset, exactly + 1, 2) == "over"


# ---------------------------------------------------------------- deal: decks, jokers, hand size
DECK = {p: 52 for p in ALL} | {"cz-two-decks": 104, "freeman-jokers": 54}
HAND_SIZE = {p: 7 for p in ALL} | {"becker-four-card": 4}


@pytest.mark.parametrize("preset", ALL)
def test_each_presets_deck_and_hand_size(preset: str) -> None:
    """decks (V21 two decks), jokers (V17: two), hand_size (V16 Becker: 4) as dealt."""
    state = GAME.initial_state(PRESETS[preset], ("p1", "p2"), SEED)
    state = GAME.evolve(state, GAME.decide(state, "p1", Ready())[0])  # type: ignore[index]
    events = GAME.decide(state, "p2", Ready())
    assert isinstance(events, tuple)
    deal = next(e for e in events if isinstance(e, RoundDealt))
    assert len(deal.order) == DECK[preset] and len(set(deal.order)) == DECK[preset]
    assert deal.hand_sizes == (HAND_SIZE[preset],) * 2


PLAYERS = (
    {p: (2, 6) for p in ALL} | {p: (2, 4) for p in (*CZ, "family-draw-first")} | {"cz-two-decks": (2, 10)}
)


@pytest.mark.parametrize("preset", ALL)
def test_each_presets_players_range(preset: str) -> None:
    """§4.2 players (and D6): the preset plays exactly its range."""
    lo, hi = PLAYERS[preset]
    playable = [n for n in range(1, 13) if GAME.validate(PRESETS[preset], n) is None]
    assert playable == list(range(lo, hi + 1))


# ---------------------------------------------------------------- set-up of the cross
AUTO = (*CZ, "s3-immediate-kings")


@pytest.mark.parametrize("preset", ALL)
def test_each_presets_cross_kings(preset: str) -> None:
    """setup_cross_kings: auto (S5, V9) moves a dealt cross king to a corner; manual leaves it."""
    from domain.games.kings_corner.deal import lay_out_cross

    layout, _, steps = lay_out_cross(PRESETS[preset], ("KH", "5C", "6S", "9D"), ("4H", "8C", "2S"))
    if preset in AUTO:
        assert layout[0] == ("4H",) and layout[4] == ("KH",) and len(steps) == 1
    else:
        assert layout[0] == ("KH",) and layout[4] == () and steps == ()


# ---------------------------------------------------------------- turn structure
START = (
    *[p for p in CZ if p != "cz-draw-when-needed"],
    "family-draw-first",
    "s3-draw-first",
    "pagat-draw-first",
)
STUCK = "2D 3S", "3D 4C"
STUCK_LAYOUT = {"N": "9H", "E": "QD", "S": "5S", "W": "JC"}


@pytest.mark.parametrize("preset", ALL)
def test_each_presets_draw_timing(preset: str) -> None:
    """draw_timing: start (the next seat's automatic draw), end (the ending seat draws), start_if_stuck
    (a forced draw for an idle turn, then the stuck next seat's draw), until_playable (a turn must
    play first); draw_count 2 in pagat-draw-two (V11)."""
    given = dealt(hands=STUCK, layout=STUCK_LAYOUT, stock="8C 9C 7D 6D")
    result = kc(preset).given(given).when("p1", EndTurn())
    if preset == "draw-till-play":
        result.then_rejected("must_play_first")
        return
    result.then_accepted()
    assert isinstance(result.result, tuple)
    drawn = [(e.seat, e.cards, e.reason) for e in result.result if isinstance(e, CardsDrawn)]
    if preset in START:
        assert drawn == [("p2", ("8C",), "turn_start")]
    elif preset == "cz-draw-when-needed":
        assert drawn == [("p1", ("8C",), "turn_end"), ("p2", ("9C",), "turn_start")]
    elif preset == "pagat-draw-two":
        assert drawn == [("p1", ("8C", "9C"), "turn_end")]
    else:
        assert drawn == [("p1", ("8C",), "turn_end")]


def test_draw_count_under_start_timing() -> None:
    """draw_count = 2 with start timing: the automatic draw at turn start takes two cards (§5.3)."""
    given = dealt(hands=STUCK, layout=STUCK_LAYOUT, stock="8C 9C 7D 6D")
    result = kc("pagat-draw-first", draw_count=2).given(given).when("p1", EndTurn())
    result.then_accepted()
    assert isinstance(result.result, tuple)
    assert [e.cards for e in result.result if isinstance(e, CardsDrawn)] == [("8C", "9C")]


def test_until_playable_a_merge_counts_as_a_play() -> None:
    """V18 / Q18: under draw-till-play a pile move satisfies the play requirement of END_TURN."""
    given = dealt(hands=("2D", "3D"), layout={"N": "9S", "E": "8H", "S": "5S", "W": "JC"}, stock="8C 9C")
    state = kc("draw-till-play").given(given).when("p1", MovePile(from_slot="E", to_slot="N")).then_accepted()
    then_from(state).when("p1", EndTurn()).then(TurnEnded(seat="p1", next_seat="p2"))


@pytest.mark.parametrize("preset", ALL)
def test_each_presets_empty_cross_slot(preset: str) -> None:
    """empty_cross_accepts: any_except_king in the cardgames-zone family (003:L30), any elsewhere."""
    result = (
        kc(preset)
        .given(dealt(hands=("KS 2D", "3D"), layout={"E": "QD"}, stock="8C"))
        .when("p1", PlayCard(card="KS", slot="N"))
    )
    if preset in CZ:
        result.then_rejected("no_king_on_empty_cross")
    else:
        result.then(CardPlayed(seat="p1", card="KS", slot="N"))


@pytest.mark.parametrize("preset", ALL)
def test_each_presets_king_pile_to_corner(preset: str) -> None:
    """king_pile_to_corner: off in the cardgames-zone family, on elsewhere (000:L843)."""
    result = (
        kc(preset)
        .given(dealt(hands=("2D 4C", "3D"), layout={"N": "KS"}, stock="8C"))
        .when("p1", MoveKingPile(from_slot="N", to_slot="NE"))
    )
    if preset in CZ:
        result.then_rejected("king_pile_move_disabled")
    else:
        result.then(PileMoved(seat="p1", from_slot="N", to_slot="NE", king_pile=True))


@pytest.mark.parametrize("preset", ALL)
def test_each_presets_builds(preset: str) -> None:
    """cross_build and corner_build: alternating colours, or in suit (V13 suit-corners, V15 crestanello)."""
    given = dealt(hands=("8C 8H QH QS", "3D"), layout={"N": "9H", "NE": "KS"}, stock="2C")
    cross_in_suit = preset == "crestanello"
    corner_in_suit = preset in ("crestanello", "suit-corners")
    for card, slot, ok in (
        ("8C", "N", not cross_in_suit),
        ("8H", "N", cross_in_suit),
        ("QH", "NE", not corner_in_suit),
        ("QS", "NE", corner_in_suit),
    ):
        result = kc(preset).given(given).when("p1", PlayCard(card=card, slot=slot))
        if ok:
            result.then(CardPlayed(seat="p1", card=card, slot=slot))
        else:
            result.then_rejected("does_not_fit")


def test_a_king_pile_moving_to_an_in_suit_corner_must_be_in_suit() -> None:
    """A5 [REC] with corner_build != cross_build (suit-corners): K♠ Q♥ (built on the cross in
    alternating colours) may not enter a corner built in suit; K♠ alone may."""
    given = dealt(hands=("2D 4C", "3D"), layout={"N": "KS QH", "E": "KC"}, stock="8C")
    kc("suit-corners").given(given).when("p1", MoveKingPile(from_slot="N", to_slot="NE")).then_rejected(
        "mixed_build"
    )
    kc("suit-corners").given(given).when("p1", MoveKingPile(from_slot="E", to_slot="NE")).then(
        PileMoved(seat="p1", from_slot="E", to_slot="NE", king_pile=True)
    )
    kc("pagat-classic").given(given).when("p1", MoveKingPile(from_slot="N", to_slot="NE")).then(
        PileMoved(seat="p1", from_slot="N", to_slot="NE", king_pile=True)
    )


@pytest.mark.parametrize("preset", ALL)
def test_each_preset_plays_runs(preset: str) -> None:
    """run_play_action (A3): every preset plays runs; off, a run is refused."""
    nine, run = ("9C", ("8C", "7C")) if preset == "crestanello" else ("9H", ("8C", "7D"))
    given = dealt(hands=(" ".join((*run, "2S")), "3D"), layout={"N": nine}, stock="4S")
    kc(preset).given(given).when("p1", PlayRun(cards=run, slot="N")).then_accepted()
    kc(preset, run_play_action=False).given(given).when("p1", PlayRun(cards=run, slot="N")).then_rejected(
        "runs_disabled"
    )


# ---------------------------------------------------------------- mandatory kings
@pytest.mark.parametrize("preset", ALL)
def test_each_presets_mandatory_kings(preset: str) -> None:
    """mandatory_kings: enforce (V8) refuses END_TURN while a king could start a corner; penalty3
    (V7) charges 3, privately (D1); off lets the turn end freely."""
    given = dealt(hands=("KC 2D", "3D"), layout={"N": "9H", "E": "QD", "S": "5S", "W": "JC"})
    result = kc(preset).given(given).when("p1", EndTurn())
    if preset == "s3-mandatory-kings":
        result.then_rejected("kings_must_be_played")
        return
    result.then_accepted()
    assert isinstance(result.result, tuple)
    charged = [e for e in result.result if isinstance(e, KingPenaltyCharged)]
    assert charged == ([KingPenaltyCharged(seat="p1", points=3)] if preset == "pagat-kings-penalty" else [])


# ---------------------------------------------------------------- going out
@pytest.mark.parametrize("preset", ALL)
def test_each_presets_going_out(preset: str) -> None:
    """going_out: immediate; after_stock_exhausted (V16 Becker: draw while stock remains);
    draw3_if_open_cross (V18: draw 3 while a cross slot is open)."""
    nine, eight = ("9C", "8C") if preset == "crestanello" else ("9H", "8C")
    given = dealt(hands=(eight, "3D"), layout={"N": nine, "E": "QD", "S": "5S"}, stock="2C 3C 4C 5C")
    result = kc(preset).given(given).when("p1", PlayCard(card=eight, slot="N"))
    result.then_accepted()
    assert isinstance(result.result, tuple)
    after = result.result[1]
    if preset == "becker-four-card":
        assert after == CardsDrawn(seat="p1", cards=("2C",), count=1, reason="going_out")
    elif preset == "draw-till-play":
        assert after == CardsDrawn(seat="p1", cards=("2C", "3C", "4C"), count=3, reason="open_cross")
    else:
        assert isinstance(after, RoundEnded) and after.winner == "p1"


# ---------------------------------------------------------------- chips and pool
LEDGERS = ("classic-chips", "classic-pool")


@pytest.mark.parametrize("preset", ALL)
def test_each_presets_idle_fee_and_ante(preset: str) -> None:
    """V1 / V2: an idle turn pays 1 (chips and pool); chips ante 1 per seat into the pot, pool none."""
    state = kc(preset).given(dealt(hands=STUCK, layout=STUCK_LAYOUT, stock="8C 9C")).state
    ante = 1 if preset == "classic-chips" else 0
    assert state.pot == 2 * ante and state.totals == (-ante, -ante)
    result = kc(preset).given(dealt(hands=STUCK, layout=STUCK_LAYOUT, stock="8C 9C")).when("p1", EndTurn())
    if preset == "draw-till-play":
        return
    result.then_accepted()
    assert isinstance(result.result, tuple)
    fee = next(e.idle_fee for e in result.result if isinstance(e, TurnEnded))
    assert fee == (1 if preset in LEDGERS else 0)


@pytest.mark.parametrize("preset", LEDGERS)
def test_no_idle_fee_when_a_card_was_played(preset: str) -> None:
    """E17: a turn in which a card left the hand pays no fee."""
    given = dealt(hands=("8C 2D", "3D"), layout={"N": "9H"}, stock="5S 6S")
    state = kc(preset).given(given).when("p1", PlayCard(card="8C", slot="N")).then_accepted()
    result = then_from(state).when("p1", EndTurn())
    result.then_accepted()
    assert isinstance(result.result, tuple)
    assert next(e.idle_fee for e in result.result if isinstance(e, TurnEnded)) == 0


def test_e17_a_merge_alone_still_pays_the_idle_fee() -> None:
    """E17 / Q12: pile moves alone are not playing cards."""
    given = dealt(hands=("2D", "3D"), layout={"N": "9S", "E": "8H"}, stock="5S 6S")
    state = kc("classic-chips").given(given).when("p1", MovePile(from_slot="E", to_slot="N")).then_accepted()
    result = then_from(state).when("p1", EndTurn())
    result.then_accepted()
    assert isinstance(result.result, tuple)
    assert next(e.idle_fee for e in result.result if isinstance(e, TurnEnded)) == 1


BLOCKED = {"N": "AS", "E": "AH", "S": "AC", "W": "AD", "NE": "KC", "SE": "KS", "SW": "KH", "NW": "KD"}


def test_chips_pot_carries_over_after_a_blocked_round() -> None:
    """E18 / §5.6 chips: a BLOCKED round has no transfers and the pot carries to the next round,
    which adds its own antes."""
    result = kc("classic-chips").given(dealt(hands=("5D", "6C 7C"), layout=BLOCKED)).when("p1", EndTurn())
    state = result.then_accepted()
    assert isinstance(result.result, tuple)
    ended = result.result[-1]
    assert isinstance(ended, RoundEnded) and ended.result == "blocked"
    # antes 2 + p1's idle fee 1; no transfers
    assert ended.pot_carried == 3 and {r.seat: r.balance_change for r in ended.seats} == {"p1": 0, "p2": 0}
    assert state.pot == 3 and state.totals == (-2, -1)
    after = GAME.evolve(state, dealt(hands=("8C", "3D"), layout={"N": "9H"}, round_no=2))
    assert after.pot == 5 and after.totals == (-3, -2)


def test_pool_carries_over_after_a_blocked_round() -> None:
    """E18 / §5.6 pool: every seat pays its cards into the pool; BLOCKED, the pool carries over."""
    result = kc("classic-pool").given(dealt(hands=("5D", "6C 7C"), layout=BLOCKED)).when("p1", EndTurn())
    state = result.then_accepted()
    assert isinstance(result.result, tuple)
    ended = result.result[-1]
    assert isinstance(ended, RoundEnded) and ended.result == "blocked"
    assert {r.seat: r.balance_change for r in ended.seats} == {"p1": -1, "p2": -2}
    assert ended.pot_carried == 1 + 1 + 2 and state.pot == 4
    # the next round's winner takes the carried pool too
    nxt = GAME.evolve(state, dealt(hands=("8C", "3D"), layout={"N": "9H"}, round_no=2))
    won = GAME.decide(nxt, "p1", PlayCard(card="8C", slot="N"))
    assert isinstance(won, tuple) and isinstance(won[-1], RoundEnded)
    assert {r.seat: r.balance_change for r in won[-1].seats} == {"p1": 4 + 1, "p2": -1}


def test_ledger_presets_rank_the_highest_balance_first() -> None:
    """winner = highest_balance (chips and pool): after the last round the largest ledger wins."""
    spec = kc("classic-chips").given(
        dealt(hands=("8C", HAND), layout={"N": "9H", "E": "QD", "S": "5S", "W": "JC"}, round_no=5)
    )
    state = spec.when("p1", PlayCard(card="8C", slot="N")).then_accepted()
    assert state.phase == "over" and state.ranks == (1, 2)


# ---------------------------------------------------------------- display
@pytest.mark.parametrize("preset", ALL)
def test_each_presets_score_sign(preset: str) -> None:
    """S3 (000:L862) shows penalty points with a minus sign; every other preset positive."""
    state = kc(preset).given(dealt(hands=STUCK, layout=STUCK_LAYOUT, stock="8C")).state
    assert GAME.view(state, "p1").score_sign == ("negative" if preset in NEG else "positive")
