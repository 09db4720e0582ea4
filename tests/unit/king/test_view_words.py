"""The table's words in King's view (rules/king.md §12.9), in the language asked: the auction's
entries, the phase and the deal's lead and discard restrictions, so the page only draws them; a
seat's view names no card it may not see."""

from __future__ import annotations

import re

from contracts.games.king import (
    AcceptBuyout,
    Bid,
    Declare,
    OfferBuyout,
    PassBid,
    PassBuyout,
    RefuseBuyout,
)
from domain.games.king import GAME
from domain.games.king.queries import hidden
from domain.games.king.view import view
from tests.unit.king.helpers import DEAL4, act, one_deal, scripted

CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


def _texts(s, seat, lang):
    return [(e.seat, e.text) for e in view(s, seat, lang).auction]


def test_auction_entries_are_in_words_in_both_languages() -> None:
    t = scripted(one_deal("AU", "king-4p-trading"), [DEAL4], first_dealer=3)
    t = act(t, "p1", Bid(tricks=2))
    t = act(t, "p2", PassBid())
    assert _texts(t, "p3", "en") == [("p1", "bid 2"), ("p2", "pass")]
    assert _texts(t, "p3", "ru") == [("p1", "заказ 2"), ("p2", "пас")]
    for answer, en, ru in (
        (AcceptBuyout(), "accept (3)", "уступает (3)"),
        (RefuseBuyout(), "refuse", "оставить себе"),
    ):
        s = scripted(one_deal("HV", hv_buyout=True), [DEAL4], first_dealer=3)
        s = act(s, "p2", OfferBuyout(tricks=3))
        s = act(s, "p3", PassBuyout())
        s = act(s, "p4", PassBuyout())
        s = act(s, "p1", answer)
        assert _texts(s, "p2", "en") == [("p2", "buy for 3"), ("p3", "pass"), ("p4", "pass"), ("p1", en)]
        assert _texts(s, "p2", "ru") == [
            ("p2", "перекупить за 3"),
            ("p3", "пас"),
            ("p4", "пас"),
            ("p1", ru),
        ]
    h = scripted(one_deal("HV"), [DEAL4], first_dealer=3)
    for declared, en, ru in (
        (Declare(option="SUIT", suit="D"), "trumps ♦", "козырь ♦"),
        (Declare(option="NO_TRUMP"), "no trumps", "бескозырка"),
        (Declare(option="MISERE"), "misère", "мизер"),
    ):
        s = act(h, "p1", declared)
        assert _texts(s, "p2", "en") == [("p1", en)]
        assert _texts(s, "p2", "ru") == [("p1", ru)]
    # The codes stay beside the words.
    entry = view(act(h, "p1", Declare(option="NO_TRUMP")), "p2", "ru").auction[0]
    assert (entry.action, entry.value) == ("declare", "NO_TRUMP")


def test_the_phase_is_in_words_in_both_languages() -> None:
    t = scripted(one_deal("AU", "king-4p-trading"), [DEAL4], first_dealer=3)
    assert view(t, "p1").phase == "auction"
    assert view(t, "p1", "en").phase_text == "trading auction"
    assert view(t, "p1", "ru").phase_text == "торговля"
    n = scripted(one_deal("NT"), [DEAL4], first_dealer=3)
    assert (view(n, None, "en").phase_text, view(n, None, "ru").phase_text) == ("playing", "розыгрыш")


def test_the_deals_restrictions_are_in_words_in_both_languages() -> None:
    s = scripted(one_deal("NH"), [DEAL4], first_dealer=3)
    c_en, c_ru = view(s, "p1", "en").contract, view(s, "p1", "ru").contract
    assert c_en is not None and c_ru is not None
    assert c_en.hearts_lead_ban and "no hearts lead while you hold another suit" in c_en.notes
    assert "нельзя ходить с червей, пока есть другие масти" in c_ru.notes
    assert (
        len(c_en.notes)
        == len(c_ru.notes)
        == c_en.hearts_lead_ban + c_en.king_discard + c_en.trump_lead_restriction
    )
    assert all(CYRILLIC.search(note) for note in c_ru.notes)
    plain = view(scripted(one_deal("PT"), [DEAL4], first_dealer=3), "p1", "ru").contract
    assert plain is not None and plain.notes == ()


def test_the_words_name_no_hidden_card() -> None:
    s = scripted(one_deal("HV", hv_buyout=True), [DEAL4], first_dealer=3)
    s = act(s, "p2", OfferBuyout(tricks=3))
    for seat in (*s.seats, None):
        secret = hidden(s, seat) if seat else {c for h in s.hands for c in h}
        for lang in ("en", "ru"):
            v = view(s, seat, lang)
            words = [v.phase_text, *(e.text for e in v.auction), *(v.contract.notes if v.contract else ())]
            assert not any(card in w.split() for w in words for card in secret)
    assert GAME.view_in is not None
