"""1000 (Тысяча) in words for players (rules/thousand-and-farkle-flip.md §2.20): a ruleset's help
and why a match ended."""

from __future__ import annotations

from collections.abc import Mapping

from contracts.games.thousand import ThousandRuleset
from contracts.match import Outcome, RulesHelp

from .state import TState

SUITS = {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}


def _marriages(rs: ThousandRuleset) -> str:
    parts = [f"{SUITS[p[0]]} {p[1:]}" for p in rs.marriage_values.split("_")]
    return ", ".join(parts)


def rules_help(rs: ThousandRuleset) -> RulesHelp:
    n = rs.players()
    win = [
        f"Be the first to reach {rs.target} points. Each deal one player wins the auction, takes the "
        "talon, gives one card to each opponent and must take at least the bid in card points "
        "(A 11, 10 10, K 4, Q 3, J 2, 9 0) plus marriages; made, the bid is added, failed, it is "
        "taken off.",
        "The defenders score the card points of their own tricks, rounded to 5.",
    ]
    lose: list[str] = []
    if rs.barrel_on:
        lose.append(
            f"The barrel: at {rs.barrel_at} points or more you sit on the barrel and must make a bid of "
            f"{rs.required()} or more within {rs.barrel_attempts} deals to win; otherwise you fall back."
        )
    if rs.bolt_limit:
        trigger = "a deal with no points" if rs.bolt_trigger == "zero_points" else "a deal with no tricks"
        lose.append(
            f"Bolts: {trigger} earns a bolt; {rs.bolt_limit} bolts{' in a row' if rs.bolt_mode == 'consecutive' else ''} cost {rs.penalty(rs.bolt_penalty)} points."
        )
    if rs.samosval:
        lose.append("Самосвал: landing on exactly 555 points sets your score to 0.")
    if rs.writeoff_allowed:
        lose.append("The declarer may write a hopeless deal off instead of playing it (it costs the bid).")
    special = [
        f"{n} players{' (the dealer sits out and scores the talon)' if rs.sitout_4p else ''}; 24 cards, "
        "9 to A in four suits.",
        f"Bidding starts at {rs.forced_bid} ({'the player left of the dealer' if rs.forced_bidder == 'left_of_dealer' else 'the dealer'} "
        f"must bid it) and goes up in steps of {rs.bid_step}"
        + (" (jumps allowed)" if rs.bid_jumps else "")
        + (f", at most {rs.max_contract}" if rs.max_contract else "")
        + ".",
        f"Marriages (King and Queen of a suit, announced when you lead one of them): {_marriages(rs)}; the "
        "announced suit becomes trumps"
        + (f"; four aces {rs.ace_marriage_value}" if rs.ace_marriage else "")
        + ".",
        "Follow suit when you can"
        + ("; void, you must trump" if rs.must_trump_when_void else "")
        + ("; you must take the trick when you can" if rs.must_overtake else "")
        + ".",
    ]
    if rs.golden_kon:
        special.append("The golden kon: the first deals score double.")
    if rs.blind_on:
        special.append("You may bid blind, without looking at your cards (doubled).")
    return RulesHelp(
        game="thousand",
        title="1000 (Тысяча)",
        goal=f"Reach {rs.target} points first, by winning the auction and making your bid.",
        win=tuple(win),
        lose=tuple(lose),
        special=tuple(special),
    )


def end_text(state: TState, out: Outcome, names: Mapping[str, str]) -> str:
    scores = ", ".join(f"{names.get(s, s)} {x}" for s, x in zip(state.seats, state.scores, strict=False))
    winner = next((names.get(s, s) for s, r in zip(state.seats, out.ranks, strict=False) if r == 1), "")
    if out.reason == "barrel":
        return f"{winner} made the barrel bid and passed {state.rules.target} (scores: {scores})."
    if out.reason == "target":
        return f"{winner} reached {state.rules.target} (scores: {scores})."
    return f"{(out.reason or 'the match is over').replace('_', ' ')} (scores: {scores})."
