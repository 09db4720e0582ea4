"""Computer players of 1000: legal on every preset, and the heuristic's choices (issue 12)."""

from __future__ import annotations

import random

import msgspec
import pytest

from contracts.games.thousand import Bid, GiveCards, Pass, Play
from domain.games.thousand import GAME, bots
from domain.games.thousand.rules import PRESETS
from tests.unit.thousand.support import CLASSIC, HANDS, act, deal, keep_all


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("bot", ["random", "heuristic", "search"])
def test_every_bot_plays_legal_commands_on_every_preset(preset: str, bot: str) -> None:
    rules = PRESETS[preset]
    seats = GAME.seat_names(rules.players())
    state = GAME.initial_state(rules, seats, bytes(range(32)))
    r = random.Random(3)
    for _ in range(150 if bot == "search" else 300):
        if GAME.outcome(state) is not None:
            break
        seat = sorted(GAME.to_move(state))[0]
        cmd = GAME.bots[bot](state, seat, r)
        assert cmd in GAME.legal_commands(state, seat), (bot, cmd)
        state = act(state, seat, cmd)


def test_heuristic_matches_end_and_heuristic_beats_random() -> None:
    rules = PRESETS["classic"]
    seats = GAME.seat_names(3)
    wins = 0
    for m in range(3):
        state = GAME.initial_state(rules, seats, m.to_bytes(32, "big"))
        r = random.Random(m)
        lineup = ("heuristic", "random", "random")
        while GAME.outcome(state) is None:
            seat = sorted(GAME.to_move(state))[0]
            state = act(state, seat, GAME.bots[lineup[seats.index(seat)]](state, seat, r))
        wins += state.winner == 0
    assert wins == 3




def test_heuristic_bids_from_strength_and_marriages() -> None:
    """Both red marriages and three aces bid on; no marriage and 23 points passes; a marriage is
    worth its value in the estimate."""
    strong = ("9H JH 9D JD 10D JC QC", "9S JS QS KS 10S AS 9C", "KH QH AH 10H KD QD AD")
    s = keep_all(deal(CLASSIC, strong))
    r = random.Random(0)
    assert bots.heuristic_bot(s, "p3", r) == Bid(amount=105)
    s = act(s, "p3", Bid(amount=105))
    assert bots.heuristic_bot(s, "p1", r) == Pass()
    with_pair = bots.strength(CLASSIC, "9S JS QS KS 10S AS 9C".split())
    without = bots.strength(CLASSIC, "9S JS QS 9D 10S AS 9C".split())
    assert with_pair - without >= 40


def test_heuristic_gives_away_its_weakest_cards_and_keeps_marriages() -> None:
    s = keep_all(deal(CLASSIC, HANDS))
    s = act(s, "p3", Pass())
    s = act(s, "p1", Pass())
    s = keep_all(s)
    assert s.phase == "passing"
    cmd = bots.heuristic_bot(s, "p2", random.Random(0))
    assert isinstance(cmd, GiveCards)
    given = set(cmd.gifts.values())
    assert not given & {"KH", "QH", "KD", "QD", "AH", "AD"}


def test_heuristic_announces_its_best_marriage_on_lead() -> None:
    s = keep_all(deal(CLASSIC, HANDS))
    s = act(s, "p3", Pass())
    s = act(s, "p1", Pass())
    s = keep_all(s)
    hand = s.hands[1]
    give = [c for c in hand if c not in ("KH", "QH", "KD", "QD", "AH", "AD", "10H")][:2]
    s = act(s, "p2", GiveCards(gifts={"p3": give[0], "p1": give[1]}))
    s = keep_all(s)
    s = act(s, "p2", bots.heuristic_bot(s, "p2", random.Random(0)))
    assert s.phase == "play" and s.seats[s.leader] == "p2"
    first = bots.heuristic_bot(s, "p2", random.Random(0))
    assert isinstance(first, Play) and first.announce == "none"  # not on the first lead (§2.8)
    later = msgspec.structs.replace(s, trick_no=1)  # p2 has taken a trick and leads again
    assert bots.heuristic_bot(later, "p2", random.Random(0)) == Play(card="QH", announce="marriage")


def test_search_bot_only_searches_the_card_play() -> None:
    s = keep_all(deal(CLASSIC, HANDS))
    r = random.Random(0)
    assert bots.search_bot(s, "p3", r) == bots.heuristic_bot(s, "p3", random.Random(0))
