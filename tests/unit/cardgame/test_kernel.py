"""The card-game kernel (domain/core/cardgame): lifecycle, phases, builder, dealing, redaction,
scoring helpers.  Expected values are written from the module docstrings and ARCHITECTURE §4."""

from __future__ import annotations

import hashlib
import hmac

import msgspec
import pytest

from contracts.envelope import Rejected
from domain.core import cards, rng
from domain.core.cardgame import deal, fold, lifecycle, phases, redact, scoring
from domain.core.cardgame.builder import Builder

SEED = bytes(range(32))


# ---------------------------------------------------------------- lifecycle
def test_ready_is_taken_only_between_rounds() -> None:
    for phase in ("waiting", "scored"):
        assert lifecycle.ready_problem(phase, (False, False), (0, 0), 0, "") is None
    for phase in ("play", "over", "bidding"):
        problem = lifecycle.ready_problem(phase, (False, False), (0, 0), 0, "")
        assert isinstance(problem, Rejected) and problem.code == "not_dealing"


def test_ready_problems_in_order() -> None:
    out = lifecycle.ready_problem("scored", (False, False), (0, 2), 1, "")
    assert isinstance(out, Rejected) and out.code == "not_dealing"
    again = lifecycle.ready_problem("scored", (True, False), (0, 0), 0, "")
    assert isinstance(again, Rejected) and again.code == "already_ready"
    assert lifecycle.ready_problem("waiting", (False,), (0,), 0, "x" * 256) is None
    long = lifecycle.ready_problem("waiting", (False,), (0,), 0, "x" * 257)
    assert isinstance(long, Rejected) and long.code == "client_seed_too_long" and "256" in long.detail


def test_client_seeds_only_before_the_first_deal() -> None:
    assert lifecycle.recorded_seed(0, "abc") == "abc"
    assert lifecycle.recorded_seed(1, "abc") == ""
    ready, seeds = lifecycle.mark_ready((False, False, False), ("", "", ""), 1, "s", 0)
    assert ready == (False, True, False) and seeds == ("", "s", "")
    ready, seeds = lifecycle.mark_ready((True, False, False), ("a", "", ""), 2, "t", 1)
    assert ready == (True, False, True) and seeds == ("a", "", "")


def test_all_ready_and_waiting_for_skip_seats_that_are_out() -> None:
    assert lifecycle.all_ready((True, False, True), (0, 1, 0))
    assert not lifecycle.all_ready((True, False, False), (0, 1, 0))
    assert lifecycle.waiting_for((True, False, False), (0, 1, 0)) == frozenset({2})
    assert lifecycle.waiting_for((False, False), (0, 0)) == frozenset({0, 1})
    assert lifecycle.active((0, 3, 0, 1)) == (0, 2)


def test_after_scoring() -> None:
    assert lifecycle.after_scoring(True) == "over" == lifecycle.OVER
    assert lifecycle.after_scoring(False) == "scored" == lifecycle.SCORED
    assert lifecycle.BETWEEN_ROUNDS == frozenset({"waiting", "scored"})


# ---------------------------------------------------------------- builder and phases
def _add(state: int, event: int) -> int:
    return state + event


def test_builder_folds_each_event_at_once() -> None:
    b: Builder[int, int] = Builder(10, _add)
    b.emit(1)
    assert b.state == 11
    b.emit(5)
    assert b.state == 16 and b.events == [1, 5] and b.result() == (1, 5)


def _step(b: Builder[int, int], i: int, command: int) -> Rejected | None:
    if command < 0:
        return Rejected(code="negative", detail="")
    b.emit(command)
    b.emit(i)
    return None


PHASE: phases.Phase[int, int, int] = phases.Phase(
    "count", (int,), lambda s: frozenset({s % 2}), lambda s, i: (1, 2) if i == s % 2 else (), _step
)


def test_a_phase_runs_its_step_on_a_builder() -> None:
    assert phases.run(PHASE, 3, _add, 1, 4) == (4, 1)
    rejected = phases.run(PHASE, 3, _add, 1, -1)
    assert isinstance(rejected, Rejected) and rejected.code == "negative"
    assert PHASE.accepts(3) and not PHASE.accepts("3")
    assert PHASE.movers(3) == frozenset({1}) and PHASE.legal(3, 1) == (1, 2) and PHASE.legal(3, 0) == ()


def test_ready_problem_says_a_games_own_detail_for_a_long_seed() -> None:
    long = lifecycle.ready_problem("waiting", (False,), (0,), 0, "x" * 257, "too long")
    assert isinstance(long, Rejected) and (long.code, long.detail) == ("client_seed_too_long", "too long")


def test_own_commands_current_seat_and_invalid_seats() -> None:
    screen = phases.own_commands((int,), "Counting")
    assert screen(3) is None
    assert screen("3") == Rejected(code="malformed", detail="not a Counting command: str")

    class Table(msgspec.Struct, frozen=True):
        current: int
        seat_problem: str | None

    assert phases.current_seat(Table(2, None)) == frozenset({2})
    assert phases.invalid_seats(Table(0, "two seats at most")) == Rejected(
        code="invalid_seats", detail="two seats at most"
    )
    assert phases.invalid_seats(Table(0, None)) == Rejected(code="invalid_seats", detail="")


def test_by_type_folds_with_the_fold_of_the_exact_type() -> None:
    class Flag(int):
        pass

    evolve = fold.by_type({int: _add, str: lambda s, e: s * len(e)}, "Counting")
    assert evolve(10, 2) == 12 and evolve(3, "ab") == 6
    with pytest.raises(TypeError, match=r"^not a Counting event: float$"):
        evolve(1, 1.5)
    with pytest.raises(TypeError, match=r"^not a Counting event: Flag$"):
        evolve(1, Flag(1))


# ---------------------------------------------------------------- dealing
def test_round_key_is_rng_v1() -> None:
    expected = hashlib.sha256(b"|".join([SEED, b"a", b""])).digest()
    assert deal.round_key(SEED, ("a", "")) == expected


def test_first_dealer_is_drawn_among_playing_seats_then_passes_left() -> None:
    key = deal.round_key(SEED, ("", "", ""))
    word = int.from_bytes(
        hmac.new(key, b"dealer" + (0).to_bytes(8, "big"), hashlib.sha256).digest()[:8], "big"
    )
    assert deal.dealer_of(key, (0, 0, 0), 1, -1) == word % 3
    assert deal.dealer_of(key, (0, 5, 0), 1, -1) == (0, 2)[word % 2]
    assert deal.dealer_of(key, (0, 0, 0), 2, 2) == 0
    assert deal.dealer_of(key, (0, 1, 0), 3, 0) == 2


def test_shuffled_uses_the_round_label() -> None:
    key = deal.round_key(SEED, ("",))
    pack = cards.deck("52")
    assert deal.shuffled(key, 3, pack) == rng.shuffle(key, b"deal:3", pack)
    assert deal.shuffled(key, 3, pack) != deal.shuffled(key, 4, pack)


def test_hands_are_dealt_round_robin_from_the_dealers_left() -> None:
    order = tuple(f"c{k}" for k in range(20))
    hands, used = deal.deal_hands(order, (0, 0, 0), 0, 2)
    assert hands == (("c2", "c5"), ("c0", "c3"), ("c1", "c4")) and used == 6
    hands, used = deal.deal_hands(order, (0, 1, 0), 2, 3)
    assert hands == (("c0", "c2", "c4"), (), ("c1", "c3", "c5")) and used == 6


class Dealt(msgspec.Struct, frozen=True, kw_only=True):
    round_no: int
    dealer: str
    order: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    flag: bool = False


GOOD = Dealt(round_no=1, dealer="p1", order=("AS", "2S", "3S"), hands=(("AS",), ("2S",)))


def test_verify_recorded_names_the_first_difference() -> None:
    where = "deal of round 1"
    assert deal.verify_recorded(GOOD, GOOD, where) is None
    swap = msgspec.structs.replace(GOOD, order=("AS", "3S", "2S"))
    assert deal.verify_recorded(swap, GOOD, where) == "deal of round 1: card 2 is 3S, rng_v1 gives 2S"
    short = msgspec.structs.replace(GOOD, order=("AS", "2S"))
    assert deal.verify_recorded(short, GOOD, where) == "deal of round 1: 2 cards recorded, the deck has 3"
    dealer = msgspec.structs.replace(GOOD, dealer="p2", order=("3S",))
    assert (
        deal.verify_recorded(dealer, GOOD, where, first=("dealer",))
        == "deal of round 1: dealer is p2, rng_v1 gives p1"
    )
    assert deal.verify_recorded(dealer, GOOD, where) == "deal of round 1: dealer is p2, rng_v1 gives p1"
    assert (
        deal.verify_recorded(dealer, GOOD, where, first=("order",))
        == "deal of round 1: 1 cards recorded, the deck has 3"
    )
    rnd = msgspec.structs.replace(GOOD, round_no=2)
    assert deal.verify_recorded(rnd, GOOD, where) == "deal of round 1: round_no is 2, rng_v1 gives 1"
    hands = msgspec.structs.replace(GOOD, hands=(("2S",), ("AS",)))
    assert (
        deal.verify_recorded(hands, GOOD, where) == "deal of round 1: hands do not follow from the deck order"
    )
    flag = msgspec.structs.replace(GOOD, flag=True)
    assert (
        deal.verify_recorded(flag, GOOD, where) == "deal of round 1: flag do not follow from the deck order"
    )
    assert deal.verify_recorded(GOOD, (1,), where) == "deal of round 1: recorded Dealt, rng_v1 gives tuple"
    named = deal.verify_recorded(swap, GOOD, where, order_field="hands")
    assert named == "deal of round 1: order do not follow from the deck order"


def test_verify_draw() -> None:
    assert deal.verify_draw(("AS", "2S", "3S"), ("AS", "2S"), 2, "draw") is None
    assert deal.verify_draw(("AS", "2S"), ("2S",), 1, "draw") == "draw: drew ['2S'], the stock gives ['AS']"
    assert (
        deal.verify_draw(("AS", "2S"), ("AS",), 2, "draw")
        == "draw: drew ['AS'], the stock gives ['AS', '2S']"
    )


# ---------------------------------------------------------------- redaction
def test_placeholders_keep_counts() -> None:
    assert redact.UNKNOWN == "??" == cards.UNKNOWN
    assert redact.blank(("AS", "KD")) == ("??", "??") and redact.blank(()) == ()
    assert redact.blank_hands(("p1", "p2"), (("AS",), ("KD", "2C")), "p2") == (("??",), ("KD", "2C"))
    assert redact.blank_hands(("p1", "p2"), (("AS",), ("KD",)), None) == (("??",), ("??",))
    assert redact.is_known("AS") and not redact.is_known("??")


def test_remove_cards_takes_a_placeholder_for_an_unknown_card() -> None:
    assert redact.remove_cards(("AS", "KD", "2C"), ("KD",)) == ("AS", "2C")
    assert redact.remove_cards(("??", "??", "??"), ("KD", "2C")) == ("??",)
    assert redact.remove_cards(("AS", "??"), ("AS", "QH")) == ()
    with pytest.raises(ValueError):
        redact.remove_cards(("AS",), ("KD",))


def test_hidden_hand() -> None:
    hands = (("AS", "KD"), ("2C", "??"))
    assert redact.hidden_hand(("p1", "p2"), hands, "p1", True) == frozenset({"AS", "KD"})
    assert redact.hidden_hand(("p1", "p2"), hands, "p2", True) == frozenset({"2C"})
    assert redact.hidden_hand(("p1", "p2"), hands, "p1", False) == frozenset()
    assert redact.hidden_hand(("p1", "p2"), hands, "p3", True) == frozenset()


# ---------------------------------------------------------------- scoring
def test_hand_value_and_add_points() -> None:
    assert scoring.hand_value(("KC", "2D", "3D"), lambda c: 10 if c[0] == "K" else 1) == 12
    assert scoring.hand_value((), lambda c: 5) == 0
    assert scoring.add_points((1, 2, 3), {0: 10, 2: -3}) == (11, 2, 0)


def test_standings_rank_resigned_seats_last() -> None:
    """Resigned seats come after eliminated ones, the later resignation first."""
    assert scoring.standings((5, 1, 9, 0), (0, 0, 2, 0), resigned=(0, 1, 0, 2)) == (1, 4, 2, 3)
    assert scoring.standings((5, 1), (0, 0), resigned=(0, 0)) == (2, 1)
    assert scoring.standings((5, 1), (0, 0), lower_is_better=False, resigned=(0, 0)) == (1, 2)
    assert scoring.standings((5, 1, 3), (0, 1, 0), lower_is_better=False) == (1, 3, 2)


def test_places_share_ties() -> None:
    assert scoring.places(((0, 1), (0, 1), (0, 0))) == (2, 2, 1)


def test_next_seat_with_nobody_left() -> None:
    with pytest.raises(ValueError):
        scoring.next_seat((1, 1), 0)
    assert scoring.seats_from((0, 0, 0), 1) == (2, 0, 1)


def test_match_over_kinds() -> None:
    assert scoring.match_over("single_round", 1, 1, (5, 0), (0, 1)) == (True, frozenset())
    assert scoring.match_over("target", 50, 1, (49, 0), (0, 1)) == (False, frozenset())
    assert scoring.match_over("target", 50, 1, (50, 0), (0, 1), strict=True) == (False, frozenset())
    assert scoring.match_over("target", 50, 1, (51, 0), (0, 1), strict=True) == (True, frozenset())
    # a seat that is no longer playing does not end a target match
    assert scoring.match_over("target", 50, 1, (90, 0, 3), (1, 2)) == (False, frozenset())


def test_ready_problems_say_why() -> None:
    """The details a client shows (one per reason)."""
    assert lifecycle.ready_problem("play", (False,), (0,), 0, "") == Rejected(
        code="not_dealing", detail="Ready is for the start of a round"
    )
    assert lifecycle.ready_problem("scored", (False,), (1,), 0, "") == Rejected(
        code="not_dealing", detail="a seat that is out takes no part in later rounds"
    )
    assert lifecycle.ready_problem("scored", (True,), (0,), 0, "") == Rejected(
        code="already_ready", detail="this seat is ready already"
    )


def test_next_seat_names_the_problem() -> None:
    with pytest.raises(ValueError, match="^no seat is still playing$"):
        scoring.next_seat((2, 1, 3), 1)


def test_elimination_strictly_exceeding() -> None:
    """An elimination target compared strictly: reaching it exactly keeps the seat in."""
    assert scoring.match_over("elimination", 25, 2, (25, 30, 3), (0, 1, 2), strict=True) == (
        False,
        frozenset({1}),
    )
