"""Every parameter of rules/king.md §11.1 by what it changes in play, the phases of §12.2-§12.3,
and the Decisions K1-K15 (K16's ABANDON is not a game command; see docs/api.md)."""

from __future__ import annotations

import hashlib
import random

import msgspec
import pytest

from contracts.envelope import Rejected
from contracts.games.king import (
    AcceptBuyout,
    Bid,
    ChooseContract,
    ChooseTrump,
    Declare,
    OfferBuyout,
    PassBid,
    PassBuyout,
    PassOrder,
    Play,
    Ready,
    RefuseBuyout,
    UnitValues,
    schedule_deals,
)
from domain.games.king import GAME, legal, scoring
from domain.games.king.deal import initial_state
from domain.games.king.evolve import evolve
from domain.games.king.phases import decide
from domain.games.king.queries import legal_commands, timeout_command
from domain.games.king.rules import PRESETS
from tests.unit.king.helpers import DEAL4, act, contract, one_deal, rejected, rules, scripted


def random_match(preset_or_rules, seed: int = 1, bot: str = "random"):
    r = PRESETS[preset_or_rules] if isinstance(preset_or_rules, str) else preset_or_rules
    seats = GAME.seat_names(r.players)
    s = initial_state(r, seats, hashlib.sha256(str(seed).encode()).digest())
    rng = random.Random(seed)
    while GAME.outcome(s) is None:
        seat = rng.choice(sorted(GAME.to_move(s)))
        cmd = GAME.bots[bot](s, seat, rng)
        events = decide(s, seat, cmd)
        assert not isinstance(events, Rejected), (cmd, events)
        for e in events:
            s = evolve(s, e)
    return s


def dealt(r, seed: int = 1):
    """The state after every seat is ready: the first deal from rng_v1."""
    seats = GAME.seat_names(r.players)
    s = initial_state(r, seats, hashlib.sha256(str(seed).encode()).digest())
    for seat in seats:
        s = act(s, seat, Ready())
    return s


# ---------------------------------------------------------------- deck, seats, hands (§3.1, §8.1)
@pytest.mark.parametrize(("preset", "gone"), [("king-3p", {"7C", "7S"}), ("king-3p-symmetric", {"AC", "AS"})])
def test_deck_cut_removes_two_cards_and_deals_ten_each(preset: str, gone: set[str]) -> None:
    """king.md §8.1, K2: three players get 10 cards each from 30."""
    s = dealt(PRESETS[preset])
    cards_ = {c for h in s.hands for c in h} | {c for p in s.pending for c in p}
    assert len(cards_) == 30 and not cards_ & gone
    assert all(len(h) + len(p) == 10 for h, p in zip(s.hands, s.pending, strict=True))


def test_players_and_seat_count_must_agree() -> None:
    """king.md §11.1 players, K3: a 4-player ruleset is refused for 3 seats, and 5 players at all."""
    assert GAME.validate(PRESETS["king-4p-classic"], 3) is not None
    assert GAME.validate(PRESETS["king-4p-classic"], 4) is None
    assert "3 or 4" in (rules(players=5).validate() or "")


def test_hand_and_talon_sizes_must_use_the_deck() -> None:
    """king.md §11.1 handSize / talonSize."""
    assert rules(hand_size=7).validate() is not None
    assert rules("king-atomic", talon_size=0, hand_size=10).validate() is not None


def test_sit_out_dealer_deals_ten_to_three_of_four_and_scores_the_dealer_zero() -> None:
    """king.md §8.4, K7, K10: the dealer takes no cards and scores 0; -4 is written once; 36 deals."""
    r = rules("king-atomic", players=4, sit_out_dealer=True)
    assert r.validate() is None and len(schedule_deals(r)) == 36
    s = dealt(r)
    assert s.totals == (-4, -4, -4, -4)
    assert len(s.hands[s.dealer]) == 0 and sorted(len(h) for h in s.hands) == [0, 10, 10, 10]
    assert len(s.talon) == 2
    done = random_match(r, seed=3)
    for row in done.sheet:
        assert row.points[done.seats.index(row.dealer)] == 0
    assert sum(done.totals) == 0 and len(done.sheet) == 36


def test_atomic_three_players_plays_27_deals() -> None:
    """K7: hvCount counts otyigrysh deals per player: 9 with three players (27 deals in all)."""
    s = random_match("king-atomic", seed=2)
    assert len(s.sheet) == 27
    assert sum(1 for row in s.sheet if row.game == "OT") == 9


# ---------------------------------------------------------------- boys, values (§4, K5, K6, K9)
def test_boys_changes_what_scores_and_when_the_deal_ends() -> None:
    """king.md §11.1 boys, K5: with boys = K the kings score in NB, the jacks do not."""
    kings = rules(boys="K")
    c = contract("NB", kings)
    assert scoring.points_for(kings, c, range(4), (0,) * 4, (("KC", "JC"), (), (), ()), ()) == (-4, 0, 0, 0)
    assert scoring.in_play(rules(boys="JK"), "boy") == 8


def test_boys_jk_is_for_four_players_only() -> None:
    """K6."""
    assert "K6" in (
        rules(
            "king-3p", boys="JK", v=UnitValues(trick=4, heart=5, boy=5, girl=10, king=40, last=20)
        ).validate()
        or ""
    )


def test_unit_values_change_the_points() -> None:
    """king.md §11.1 v: -3 per trick instead of -2 (not zero-sum then, so it must say so)."""
    r = rules(v=UnitValues(trick=3), zero_sum=False)
    assert scoring.points_for(r, contract("NT", r), range(4), (2, 0, 4, 2), ((),) * 4, ()) == (-6, 0, -12, -6)
    assert "not zero-sum" in (rules(v=UnitValues(trick=3)).validate() or "")


def test_expected_sum_counts_the_cards_in_play() -> None:
    """K9: the 3-player cuts keep every scoring card, so NH is 8 hearts and NB 4 jacks."""
    r = PRESETS["king-3p-symmetric"]
    assert scoring.expected_sum(r, contract("NH", r)) == -16
    assert scoring.expected_sum(r, contract("NE", r)) == -116


# ---------------------------------------------------------------- schedules (§11.4)
@pytest.mark.parametrize(
    ("preset", "games"),
    [
        ("king-4p-classic", ["NT", "NH", "NB", "NG", "NK", "NL", "NE"] + ["HV"] * 8),
        ("king-4p-rozaliev", ["NT", "NB", "NG", "NH", "NL", "NK", "NE"] + ["HV"] * 8),
        ("king-4p-hv-eralash", ["NT", "NH", "NB", "NG", "NL", "NK", "NE"] + ["HV"] * 4 + ["PE"]),
        ("king-4p-short", ["NT", "NH", "NB", "NG", "NK", "NL"] + ["HV"] * 4),
        (
            "king-4p-symmetric",
            ["NT", "NB", "NG", "NH", "NK", "NL", "NE", "PT", "PB", "PG", "PH", "PK", "PL", "PE"],
        ),
        ("king-4p-trump", ["NT", "NB", "NG", "NH", "NK", "NL", "NE"] + ["TR"] * 4),
        ("king-4p-trading", ["NT", "NB", "NG", "NH", "NK", "NL", "NE"] + ["AU"] * 4),
        ("king-3p", ["NT", "NH", "NB", "NG", "NK", "NL", "NE"] + ["HV"] * 6),
        ("king-3p-short", ["NT", "NH", "NB", "NG", "NK", "NL"] + ["HV"] * 3),
        (
            "king-3p-symmetric",
            ["NT", "NG", "NB", "NH", "NK", "NL", "NE", "PT", "PB", "PG", "PH", "PK", "PL", "PE"],
        ),
        ("king-3p-rozaliev", ["NT", "NB", "NG", "NH", "NL", "NK", "NE"] + ["HV"] * 6),
    ],
)
def test_fixed_schedule_plays_the_deals_in_order(preset: str, games: list[str]) -> None:
    """king.md §11.4 (schedule, games, trumpDeal, hvCount, gamesAfter) and K11: deal k is dealt by
    (firstDealer + k - 1) mod N and each seat declares its share of the trump deals."""
    s = random_match(preset, seed=5)
    assert [row.game for row in s.sheet] == games
    n = len(s.seats)
    first = s.seats.index(s.sheet[0].dealer)
    assert [s.seats.index(row.dealer) for row in s.sheet] == [(first + k) % n for k in range(len(games))]
    declarers = [row.declarer for row in s.sheet if row.game in ("HV", "TR")]
    if declarers:
        assert len(set(declarers)) == n and all(
            declarers.count(x) == len(declarers) // n for x in set(declarers)
        )


def test_ordered_each_seat_orders_each_game_once() -> None:
    """king.md §11.4 king-4p-ordered: 56 deals, every seat orders its 14 games once."""
    s = random_match("king-4p-ordered", seed=4)
    assert len(s.sheet) == 56
    assert all(not r for r in s.remaining)
    assert sum(s.totals) == 0


def test_ordering_pass_and_forced_dealer() -> None:
    """king.md §12.3 ORDER / PASS_ORDER: left of the dealer orders or passes; the dealer must order."""
    s = scripted(PRESETS["king-4p-ordered"], [DEAL4], first_dealer=3)
    assert s.phase == "ordering" and s.to_act == 0
    for seat in ("p1", "p2", "p3"):
        s = act(s, seat, PassOrder())
    assert s.to_act == 3 and PassOrder() not in legal_commands(s, "p4")
    assert rejected(s, "p4", PassOrder()) == "must_order"
    assert rejected(s, "p4", ChooseContract(game="HV")) == "not_in_list"
    s = act(s, "p4", ChooseContract(game="PH"))
    assert s.contract is not None and s.contract.game == "PH" and s.contract.orderer == 3
    assert s.to_act == 0  # orderedLeader = leftOfDealer (§12.11)


def test_ordered_leader_orderer_lets_the_orderer_lead() -> None:
    """king.md §11.1 orderedLeader = orderer (C, 001:L92)."""
    r = rules("king-4p-ordered", ordered_leader="orderer")
    s = scripted(r, [DEAL4], first_dealer=3)
    s = act(s, "p1", PassOrder())
    s = act(s, "p2", ChooseContract(game="NT"))
    assert s.phase == "playing" and s.to_act == 1


def test_a_seat_with_an_empty_list_passes_automatically() -> None:
    """king.md §12.3 PASS_ORDER, Q21: an empty list passes; the duty falls to the last seat with games."""
    r = PRESETS["king-4p-ordered"]
    seats = GAME.seat_names(4)
    s = initial_state(r, seats, None)
    s = msgspec.structs.replace(
        s,
        remaining=((), ("NT",), ("NH",), ()),
        scripted=(tuple(tuple(h) for h in DEAL4),),
        scripted_first_dealer=3,
    )
    for seat in seats:
        s = act(s, seat, Ready())
    assert s.to_act == 1  # p1 passed automatically
    assert s.auction[0].seat == "p1" and s.auction[0].value == "automatic"
    s = act(s, "p2", PassOrder())
    assert s.to_act == 2 and rejected(s, "p3", PassOrder()) == "must_order"


# ---------------------------------------------------------------- hvalenki (§6.2)
def hv_state(**overrides):
    return scripted(one_deal("HV", **overrides), [DEAL4], first_dealer=3)


def test_peek_three_then_the_rest_after_the_declaration() -> None:
    """king.md §11.1 hvPeek = 3, §6.2 steps 1 and 5: 3 cards each, the rest after DECLARE."""
    s = hv_state()
    assert s.phase == "declaring" and s.to_act == 0
    assert [len(h) for h in s.hands] == [3, 3, 3, 3] and [len(p) for p in s.pending] == [5, 5, 5, 5]
    s = act(s, "p1", Declare(option="SUIT", suit="S"))
    assert [len(h) for h in s.hands] == [8] * 4 and s.contract.trump == "S"
    assert s.to_act == 0  # trumpLeader = declarer


def test_peek_all_deals_everything_first() -> None:
    """king.md §11.1 hvPeek = all."""
    s = hv_state(hv_peek="all")
    assert [len(h) for h in s.hands] == [8] * 4 and not any(s.pending)


def test_by_last_reveals_the_declarers_last_card() -> None:
    """king.md §6.3, K20: BY_LAST takes the suit of the declarer's last dealt card, shown to all."""
    s = hv_state()
    s = act(s, "p1", Declare(option="BY_LAST"))
    assert s.contract.by_last == "9S" and s.contract.trump == "S"
    from domain.games.king.view import view

    assert view(s, "p2").contract.by_last_card == "9S"


def test_hv_options_limit_the_declaration() -> None:
    """king.md §11.1 hvOptions: Rozaliev offers SUIT and BY_LAST only."""
    s = scripted(one_deal("HV", "king-4p-rozaliev"), [DEAL4], first_dealer=3)
    assert rejected(s, "p1", Declare(option="MISERE")) == "option_not_allowed"
    assert rejected(s, "p1", Declare(option="SUIT")) == "trump_required"
    assert rejected(s, "p1", Declare(option="BY_LAST", suit="S")) == "trump_not_allowed"
    assert {c.option for c in legal_commands(s, "p1")} == {"SUIT", "BY_LAST"}


def test_misere_has_no_trumps_and_reverses_ranks() -> None:
    """king.md §12.11, Q6: misère, no trumps, 7 high."""
    s = hv_state()
    s = act(s, "p1", Declare(option="MISERE"))
    assert s.contract.trump is None and s.contract.misere
    s = act(s, "p1", Play(card="10C"))
    s = act(s, "p2", Play(card="9D"))
    s = act(s, "p3", Play(card="AC"))
    s = act(s, "p4", Play(card="7C"))
    assert s.tricks[0].winner == "p4"


def test_raspis_scores_at_once() -> None:
    """king.md §6.2 step 3: RASPIS credits 2 tricks to every seat without play."""
    s = hv_state()
    s = act(s, "p1", Declare(option="RASPIS"))
    assert s.sheet[0].points == (6, 6, 6, 6) and s.phase == "finished"


def test_raspis_is_off_with_three_players() -> None:
    """Q7."""
    assert "Q7" in (rules("king-3p", hv_options=("SUIT", "RASPIS")).validate() or "")


def test_trump_leader_left_of_dealer() -> None:
    """king.md §11.1 trumpLeader: leftOfDealer leads the first trick even when another seat names trumps."""
    s = scripted(one_deal("HV", trump_leader="leftOfDealer", hv_buyout=True), [DEAL4], first_dealer=3)
    s = act(s, "p2", OfferBuyout(tricks=1))
    s = act(s, "p3", PassBuyout())
    s = act(s, "p4", PassBuyout())
    s = act(s, "p1", AcceptBuyout())
    s = act(s, "p2", Declare(option="SUIT", suit="D"))
    assert s.contract.declarer == 1 and s.to_act == 0


def test_buyout_protocol_and_k1_k11() -> None:
    """king.md §12.3 buy-out, Q8, K1 (BY_LAST is the buyer's last card), K11 (rotation unchanged)."""
    r = one_deal("HV", hv_buyout=True)
    r = msgspec.structs.replace(r, hv_count=2)
    s = scripted(r, [DEAL4, DEAL4], first_dealer=3)
    assert s.phase == "buyout" and s.to_act == 1  # left of the declarer p1
    assert rejected(s, "p1", PassBuyout()) == "not_your_turn"
    s = act(s, "p2", OfferBuyout(tricks=1))
    assert rejected(s, "p3", OfferBuyout(tricks=1)) == "buyout_too_low"
    s = act(s, "p3", OfferBuyout(tricks=2))
    s = act(s, "p4", PassBuyout())
    s = act(s, "p2", PassBuyout())
    assert s.phase == "buyout_answer" and s.to_act == 0
    s = act(s, "p1", AcceptBuyout())
    assert s.contract.declarer == 2 and s.contract.buyout == (2, 0, 2)
    s = act(s, "p3", Declare(option="BY_LAST"))
    assert s.contract.by_last == "QH" and s.contract.trump == "H"  # p3's last dealt card
    assert s.to_act == 2
    while s.phase == "playing":
        seat = s.seats[s.to_act]
        s = act(s, seat, Play(card=legal.legal_cards(s, s.to_act)[0]))
    row = s.sheet[0]
    assert row.points[2] == 3 * row.tricks[2] - 6 and row.points[0] == 3 * row.tricks[0] + 6
    for seat in s.seats:
        s = act(s, seat, Ready())
    assert s.dealer == 0  # K11: the deal passes left of the previous dealer, not to the buyer


def test_buyout_refused_and_all_pass() -> None:
    """king.md §12.3: REFUSE_BUYOUT keeps the declarer; no offer goes straight to DECLARING."""
    s = hv_state(hv_buyout=True)
    s = act(s, "p2", OfferBuyout(tricks=3))
    s = act(s, "p3", PassBuyout())
    s = act(s, "p4", PassBuyout())
    s = act(s, "p1", RefuseBuyout())
    assert s.phase == "declaring" and s.to_act == 0 and s.contract.buyout is None
    t = hv_state(hv_buyout=True)
    for seat in ("p2", "p3", "p4"):
        t = act(t, seat, PassBuyout())
    assert t.phase == "declaring" and t.to_act == 0


def test_k2_the_buyer_may_declare_raspis() -> None:
    """K2: RASPIS by the buyer, with the transfer."""
    s = hv_state(hv_buyout=True)
    s = act(s, "p2", OfferBuyout(tricks=2))
    s = act(s, "p3", PassBuyout())
    s = act(s, "p4", PassBuyout())
    s = act(s, "p1", AcceptBuyout())
    s = act(s, "p2", Declare(option="RASPIS"))
    assert s.sheet[0].points == (12, 0, 6, 6)


def test_trump_lead_restriction() -> None:
    """king.md §3.7c, K13, K15: only the declarer may lead trumps while holding other suits."""
    r = rules(trump_lead_restriction=True)
    c = contract("HV", r, trump="S", declarer=0)
    assert legal.legal_for(("AS", "7C"), (), c, r, 1) == ("7C",)
    assert legal.legal_for(("AS", "7C"), (), c, r, 0) == ("AS", "7C")
    assert legal.legal_for(("AS", "KS"), (), c, r, 1) == ("AS", "KS")
    assert legal.legal_for(("AS", "7C"), (), c, rules(), 1) == ("AS", "7C")


def test_must_trump_off_lets_a_void_seat_discard() -> None:
    """king.md §11.1 mustTrump."""
    c = contract("HV", trump="D", declarer=0)
    assert legal.legal_for(("7D", "9C"), ("KS",), c, rules(), 2) == ("7D",)
    assert legal.legal_for(("7D", "9C"), ("KS",), c, rules(must_trump=False), 2) == ("7D", "9C")


def test_k5_must_overtrump() -> None:
    """K5: a seat that trumps a trick already holding a trump must beat it when it can."""
    r = rules(must_overtrump=True)
    c = contract("HV", r, trump="D", declarer=0)
    assert legal.legal_for(("7D", "KD", "9C"), ("KS", "QD"), c, r, 2) == ("KD",)
    assert legal.legal_for(("7D", "8D"), ("KS", "QD"), c, r, 2) == ("7D", "8D")
    assert legal.legal_for(("7D", "KD"), ("9D", "QD"), c, r, 2) == ("KD",)
    assert legal.legal_for(("7D", "KD", "9C"), ("KS", "QD"), c, rules(), 2) == ("7D", "KD")


def test_tr_decline_is_by_the_last_card() -> None:
    """king.md §6.4, K13: DECLINE (choose_trump null) takes the suit of the declarer's last card."""
    s = scripted(one_deal("TR", "king-4p-trump"), [DEAL4], first_dealer=3)
    assert rejected(s, "p1", Declare(option="SUIT", suit="S")) == "wrong_phase"
    s = act(s, "p1", ChooseTrump(suit=None))
    assert s.contract.by_last == "9S" and s.contract.trump == "S" and s.to_act == 0
    assert "K13" in (rules("king-4p-trump", hv_options=("SUIT", "NO_TRUMP")).validate() or "")


def test_trading_auction_forced_dealer_k3() -> None:
    """king.md §6.5, §12.3 BID / PASS_BID / NAME_TRUMP, K3: three passes force the dealer to bid 1."""
    s = scripted(one_deal("AU", "king-4p-trading"), [DEAL4], first_dealer=3)
    assert s.phase == "auction" and s.to_act == 0
    for seat in ("p1", "p2", "p3"):
        s = act(s, seat, PassBid())
    assert s.to_act == 3 and legal_commands(s, "p4") == (Bid(tricks=1),)
    assert rejected(s, "p4", PassBid()) == "must_bid"
    assert rejected(s, "p4", Bid(tricks=2)) == "bid_too_low"
    s = act(s, "p4", Bid(tricks=1))
    assert s.phase == "naming" and s.to_act == 3
    assert rejected(s, "p4", ChooseTrump(suit=None)) == "trump_required"
    s = act(s, "p4", ChooseTrump(suit="S"))
    assert s.contract.declarer == 3 and s.contract.bid == 1 and s.to_act == 0  # left of dealer leads


def test_trading_auction_highest_bid_names_trumps() -> None:
    """king.md §6.5: bids rise, a pass is final, the auction ends after three passes."""
    s = scripted(one_deal("AU", "king-4p-trading"), [DEAL4], first_dealer=3)
    s = act(s, "p1", Bid(tricks=1))
    assert rejected(s, "p2", Bid(tricks=1)) == "bid_too_low"
    s = act(s, "p2", Bid(tricks=3))
    s = act(s, "p3", PassBid())
    s = act(s, "p4", PassBid())
    assert s.to_act == 0
    s = act(s, "p1", PassBid())
    assert s.phase == "naming" and s.to_act == 1


def test_king_discard_optional_mode() -> None:
    """king.md §11.1 kingDiscardMode = optional (001:L241): the void holder may keep K♥."""
    r = rules(king_discard_mode="optional")
    c = contract("NK", r)
    assert legal.legal_for(("KH", "9D", "8S"), ("10C",), c, rules(), 1) == ("KH",)
    assert legal.legal_for(("KH", "9D", "8S"), ("10C",), c, r, 1) == ("KH", "9D", "8S")
    # hearts led: K♥ is one of the hearts he may follow with
    assert legal.legal_for(("KH", "9H", "8S"), ("10H",), c, rules(), 1) == ("KH", "9H")


def test_king_discard_and_hearts_ban_only_in_their_games() -> None:
    """king.md §11.1 heartsLeadBan, kingDiscard: NT has neither duty."""
    c = contract("NT")
    assert legal.legal_for(("KH", "9D"), ("10C",), c, rules(), 1) == ("KH", "9D")
    assert legal.legal_for(("AH", "8C"), (), c, rules(), 1) == ("AH", "8C")


def test_early_end_off_plays_every_trick() -> None:
    """king.md §11.1 earlyEnd = false: NK goes on after K♥ is captured."""
    s = scripted(one_deal("NK", early_end=False), [DEAL4], first_dealer=3)
    for seat, card in (("p1", "10C"), ("p2", "KH"), ("p3", "AC"), ("p4", "7C")):
        s = act(s, seat, Play(card=card))
    assert s.phase == "playing" and not s.sheet


def test_compensation_and_zero_sum_report() -> None:
    """king.md §11.1 compensation, zeroSum, §9.3, K12: -4 each before deal 1; trading reports."""
    assert initial_state(PRESETS["king-atomic"], GAME.seat_names(3), None).totals == (-4, -4, -4)
    assert "K12" in (rules("king-3p-rozaliev", compensation_value=20).validate() or "")
    assert "trading" in (rules("king-4p-trading", zero_sum=True).validate() or "")
    s = random_match("king-4p-trading", seed=7)
    out = GAME.outcome(s)
    assert out is not None and s.balance == sum(s.totals) < 192
    assert "sum to" in out.reason


def test_k4_ties_share_the_better_rank() -> None:
    """K4: standard competition ranking."""
    assert scoring.competition_ranks((10, 10, 3, -23)) == (1, 1, 3, 4)
    assert scoring.competition_ranks((5, 7, 7, 7)) == (4, 1, 1, 1)


def test_k14_discards_score_to_the_discarder() -> None:
    """K14: an atomic seat's discards count as its own captures."""
    s = scripted(
        one_deal("NT", "king-atomic", compensation="none", compensation_value=0, games=("NT",)),
        [
            [
                ["AC", "KS", "7H", "7C", "8C", "9C", "10C", "JC", "QC", "KC"],
                ["8H", "9H", "JH", "QH", "KH", "AH", "7D", "9D", "10D", "JD"],
                ["QD", "KD", "AD", "7S", "8S", "9S", "10S", "JS", "QS", "AS"],
            ]
        ],
        first_dealer=2,
        talons=[["8D", "10H"]],
    )
    s = act(s, "p1", ChooseContract(game="NT"))
    from contracts.games.king import Discard

    s = act(s, "p1", Discard(cards=("10H", "KS")))
    assert s.discards[0] == ("10H", "KS")
    nh = msgspec.structs.replace(s, contract=contract("NH", s.rules))
    assert scoring.deal_points(nh)[0] == -2  # the discarded ♥10


def test_k8_timeout_auto_acts() -> None:
    """§12.3 TIMEOUT with K8: lowest legal card by C D H S and rank, BY_LAST in a hvalenka, pass."""
    s = hv_state()
    assert timeout_command(s, "p1") == Declare(option="BY_LAST")
    assert timeout_command(s, "p2") is None
    s = act(s, "p1", Declare(option="SUIT", suit="S"))
    assert timeout_command(s, "p1") == Play(card="8C")
    t = scripted(one_deal("AU", "king-4p-trading"), [DEAL4], first_dealer=3)
    assert timeout_command(t, "p1") == PassBid()
    for seat in ("p1", "p2", "p3"):
        t = act(t, seat, PassBid())
    assert timeout_command(t, "p4") == Bid(tricks=1)
    t = act(t, "p4", Bid(tricks=1))
    assert timeout_command(t, "p4") == ChooseTrump(suit="S")  # p4 holds five spades
