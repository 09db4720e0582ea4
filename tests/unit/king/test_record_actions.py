"""King's record actions (rules/records.md "Actions per game", names of rules/king.md §12.3):
every command written and read back by its name, and each malformed action refused with the typed
``bad_action`` error that says what was expected."""

from __future__ import annotations

from typing import Any

import pytest

from contracts.envelope import Rejected
from contracts.games.king import (
    AcceptBuyout,
    Bid,
    ChooseContract,
    ChooseTrump,
    Declare,
    Discard,
    OfferBuyout,
    PassBid,
    PassBuyout,
    PassOrder,
    Play,
    Ready,
    RefuseBuyout,
)
from domain.games.king import GAME
from domain.games.king.deal import initial_state
from domain.games.king.record import RECORD, format_action, parse_action
from domain.games.king.rules import PRESETS
from tests.unit.king.helpers import DEAL4, one_deal, scripted

CLASSIC = initial_state(PRESETS["king-4p-classic"], GAME.seat_names(4), None)
ATOMIC = initial_state(PRESETS["king-atomic"], GAME.seat_names(3), None)

WRITTEN = [
    (CLASSIC, ChooseContract(game="NH"), ["choose_contract", 1, "NH"]),
    (ATOMIC, ChooseContract(game="OT", trump="S"), ["choose_contract", 1, "OT", "S"]),
    (ATOMIC, ChooseContract(game="NK"), ["choose_contract", 1, "NK", None]),
    (CLASSIC, PassOrder(), ["pass_order", 1]),
    (CLASSIC, OfferBuyout(tricks=3), ["offer_buyout", 1, 3]),
    (CLASSIC, PassBuyout(), ["pass_buyout", 1]),
    (CLASSIC, AcceptBuyout(), ["accept_buyout", 1]),
    (CLASSIC, RefuseBuyout(), ["refuse_buyout", 1]),
    (CLASSIC, Declare(option="SUIT", suit="H"), ["declare", 1, "SUIT", "H"]),
    (CLASSIC, Declare(option="BY_LAST"), ["declare", 1, "BY_LAST", None]),
    (CLASSIC, ChooseTrump(suit="D"), ["choose_trump", 1, "D"]),
    (CLASSIC, ChooseTrump(suit=None), ["choose_trump", 1, None]),
    (CLASSIC, Bid(tricks=2), ["bid", 1, 2]),
    (CLASSIC, PassBid(), ["pass_bid", 1]),
    (CLASSIC, Discard(cards=("7C", "KS")), ["discard", 1, "7C", "KS"]),
    (CLASSIC, Play(card="10H"), ["play", 1, "10H"]),
]


@pytest.mark.parametrize(("state", "command", "action"), WRITTEN)
def test_every_command_is_written_by_its_rules_name_and_read_back(
    state: Any, command: Any, action: Any
) -> None:
    """records.md: ``[name, seat index, arguments...]`` with §12.3's names; reading the action
    gives the command again."""
    assert format_action(state, "p2", command) == action
    assert parse_action(state, "p2", action) == command


def bad(action: list[Any]) -> str:
    out = parse_action(CLASSIC, "p1", action)
    assert isinstance(out, Rejected), (action, out)
    assert out.code == "bad_action"
    return out.detail


def test_malformed_actions_are_refused_with_what_was_expected() -> None:
    """Bad input gets a typed {code, detail} error: ``bad_action`` and a detail saying what the
    action should have been."""
    assert "name" in bad([])
    assert "name" in bad([3, 0])
    assert "fly" in bad(["fly", 0])
    assert "1 argument" in bad(["play", 0])
    assert "1 argument" in bad(["play", 0, "QS", "KS"])
    assert "2 argument" in bad(["discard", 0, "QS"])
    assert "1-2 argument" in bad(["declare", 0])
    assert "card ids" in bad(["play", 0, 7])
    assert "card ids" in bad(["discard", 0, "QS", ""])
    assert "whole number" in bad(["bid", 0, "3"])
    assert "whole number" in bad(["offer_buyout", 0, True])
    assert "whole number" in bad(["offer_buyout", 0, 2.5])
    assert "NOPE" not in (detail := bad(["declare", 0, "NOPE"])) and "BY_LAST" in detail
    assert "C D H S" in bad(["declare", 0, "SUIT", "X"])
    assert "C D H S" in bad(["choose_trump", 0, "X"])
    assert "C D H S" in bad(["choose_contract", 0, "OT", "hearts"])
    detail = bad(["choose_contract", 0, "XX"])
    assert all(g in detail.split() for g in ("NT", "NE", "PE", "HV", "OT"))


def test_a_listed_ready_after_its_deal_changes_nothing() -> None:
    """records.md: a ``["ready", s]`` after the record's deal is accepted and changes nothing;
    between deals, with no deal entry left, it marks the seat ready as in live play."""
    s = scripted(one_deal("NT"), [DEAL4], first_dealer=3)
    during = parse_action(s, "p1", ["ready", 0])
    assert during == Ready() and RECORD.ignored(during)
    assert not RECORD.ignored(parse_action(CLASSIC, "p1", ["ready", 0]))
    assert format_action(CLASSIC, "p1", Ready()) == ["ready", 0]
