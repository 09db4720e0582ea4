"""The deal and its checks (rules/king.md §3.3, §8.1, §11.4, §12.10; records.md "deals"):
a record's deal must be the ruleset's deck dealt as the rules deal, and the audit re-derives
every deal from the revealed seed, naming what differs."""

from __future__ import annotations

import hashlib

import msgspec

from contracts.envelope import Rejected
from contracts.games.king import RestDealt
from domain.games.king import GAME
from domain.games.king.deal import deal, initial_state, verify_chance
from domain.games.king.record import RECORD
from domain.games.king.rules import PRESETS
from tests.unit.king.helpers import DEAL4, one_deal, scripted

SEED = hashlib.sha256(b"deal checks").digest()


def _fresh(preset: str = "king-4p-classic", seed: bytes | None = None):
    r = PRESETS[preset]
    return initial_state(r, GAME.seat_names(r.players), seed)


def _refused(preset: str, entry: dict) -> str:
    out = RECORD.deal(_fresh(preset), entry)
    assert isinstance(out, Rejected) and out.code == "bad_action", out
    return out.detail


def test_a_record_deal_of_the_wrong_cards_is_named() -> None:
    """§12.10 card conservation: the 32-card deck exactly once."""
    hands = [list(h) for h in DEAL4]
    hands[3][0] = "AS"  # ♠A twice, ♣7 missing
    assert (
        _refused("king-4p-classic", {"hands": hands}) == "deal 1 does not hold the 32-card deck exactly once"
    )
    cut = [list(h) for h in DEAL4]
    assert _refused("king-3p", {"hands": cut[:3]}) == "deal 1 does not hold the 30-card deck exactly once"


def test_a_record_deal_with_uneven_hands_is_named() -> None:
    """§3.1: 8 cards each with four players."""
    hands = [list(h) for h in DEAL4]
    hands[1].append(hands[0].pop())
    assert _refused("king-4p-classic", {"hands": hands}) == "deal 1: seat 0 holds 7 cards, the rules deal 8"


def test_a_record_deal_without_the_talon_of_atomic_king_is_named() -> None:
    """§8.4: atomic King lays 2 cards aside as a talon."""
    deck = [c for h in DEAL4 for c in h if c not in ("7S", "8S")]
    hands = [deck[0:10], deck[10:20], deck[20:30]]
    # the 30 cards without the black sevens are not atomic King's 32-card deck: two short
    detail = _refused("king-atomic", {"hands": hands, "talon": []})
    assert detail == "deal 1 does not hold the 32-card deck exactly once"
    full = [c for h in DEAL4 for c in h]
    hands = [full[0:10], full[10:20], full[20:30]]
    talonless = [full[0:10], full[10:20], full[20:32]]
    assert _refused("king-atomic", {"hands": talonless, "talon": []}) == (
        "deal 1: seat 2 holds 12 cards, the rules deal 10"
    )
    ok = RECORD.deal(_fresh("king-atomic"), {"hands": hands, "talon": full[30:32]})
    assert not isinstance(ok, Rejected), ok


def test_a_record_without_a_further_deal_cannot_deal_it() -> None:
    """records.md: one deal entry per deal; live dealing is not used for a record's match."""
    s = _fresh()
    s = msgspec.structs.replace(
        s, scripted=(tuple(tuple(h) for h in DEAL4),), scripted_first_dealer=0, deal_no=1
    )
    assert deal(s) == "the record has no deal 2"


def test_without_the_server_seed_nothing_is_dealt() -> None:
    """ARCHITECTURE §4 / §12.10: deals come from rng_v1 on the server seed only."""
    assert deal(_fresh(seed=None)) == "the server seed is not available"
    dealt = deal(_fresh(seed=SEED))
    assert not isinstance(dealt, str) and dealt.deal_no == 1


def test_k11_the_deal_passes_to_the_left_every_deal() -> None:
    """§11.4 / K11: the dealer of deal n is the first dealer plus n - 1, clockwise."""
    s = _fresh(seed=SEED)
    first = deal(s)
    assert not isinstance(first, str)
    start = s.seats.index(first.dealer)
    later = msgspec.structs.replace(s, deal_no=5, first_dealer=start)
    fifth = deal(later)
    assert not isinstance(fifth, str)
    assert fifth.dealer == s.seats[(start + 5) % 4] and fifth.deal_no == 6


def test_the_audit_names_a_tampered_deal_and_a_tampered_rest() -> None:
    """§12.10 shuffle: re-deriving the deal from the revealed seed finds any change."""
    s = _fresh(seed=SEED)
    dealt = deal(s)
    assert not isinstance(dealt, str)
    assert verify_chance(s, dealt) is None
    hands = list(dealt.hands)
    hands[0], hands[1] = hands[1], hands[0]
    problem = verify_chance(s, msgspec.structs.replace(dealt, hands=tuple(hands)))
    assert problem is not None and "deal 1" in problem
    assert verify_chance(_fresh(seed=None), dealt) == "deal 1: the server seed is not available"
    pending = ((), (), (), ())
    held = msgspec.structs.replace(s, pending=(("7C",), (), (), ()))
    assert verify_chance(held, RestDealt(seats=s.seats, cards=pending, shown=None)) == (
        "deal 0: the rest dealt is not the cards the shuffle fixed"
    )
    assert verify_chance(held, RestDealt(seats=s.seats, cards=held.pending, shown=None)) is None


def test_a_record_deal_of_atomic_king_for_four_gives_the_dealer_no_cards() -> None:
    """§8.4 / K10: with four players the dealer sits out and is dealt nothing (10 each to the
    other three, 2 to the talon)."""
    r = msgspec.structs.replace(PRESETS["king-atomic"], players=4, sit_out_dealer=True)
    assert r.validate() is None
    s = initial_state(r, GAME.seat_names(4), None)
    full = [c for h in DEAL4 for c in h]
    # first_dealer 3: p4 deals and sits out
    ok = RECORD.deal(
        s, {"hands": [full[0:10], full[10:20], full[20:30], []], "talon": full[30:32], "first_dealer": 3}
    )
    assert not isinstance(ok, Rejected), ok
    dealt_to_dealer = RECORD.deal(
        s, {"hands": [full[0:10], full[10:20], [], full[20:30]], "talon": full[30:32], "first_dealer": 3}
    )
    assert isinstance(dealt_to_dealer, Rejected)
    assert dealt_to_dealer.detail == "deal 1: seat 2 holds 0 cards, the rules deal 10"
    five = RECORD.deal(
        s,
        {
            "hands": [full[0:10], full[10:20], full[20:25], full[25:30]],
            "talon": full[30:32],
            "first_dealer": 3,
        },
    )
    assert isinstance(five, Rejected) and five.detail == "deal 1: seat 2 holds 5 cards, the rules deal 10"


def test_the_first_dealer_is_chosen_by_lot() -> None:
    """§3.3 [rec]: the server picks the first dealer uniformly at random (rng_v1 on the seed):
    over 24 seeds every seat deals first at least once, and the same seed picks the same seat."""
    firsts = []
    for k in range(24):
        seed = hashlib.sha256(b"first dealer %d" % k).digest()
        dealt = deal(_fresh(seed=seed))
        again = deal(_fresh(seed=seed))
        assert not isinstance(dealt, str) and not isinstance(again, str)
        assert dealt.dealer == again.dealer
        firsts.append(dealt.dealer)
    assert set(firsts) == {"p1", "p2", "p3", "p4"}


def test_king_with_trump_deals_three_cards_before_trumps_are_named() -> None:
    """§3.3: in the hvalenki and in F's King with trump each player first gets 3 cards; the rest
    is dealt after the declaration."""
    s = scripted(one_deal("TR", "king-4p-trump"), [DEAL4], first_dealer=3)
    assert s.phase == "declaring"
    assert [len(h) for h in s.hands] == [3, 3, 3, 3] and [len(p) for p in s.pending] == [5, 5, 5, 5]
    assert s.hands[0] == tuple(DEAL4[0][:3])
