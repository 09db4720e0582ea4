"""Kings Cup in words (rules/king.md §15.1): a table helper's help and how the game ended."""

from __future__ import annotations

from collections.abc import Mapping

from contracts.games.kings_cup import KingsCupRuleset
from contracts.match import Outcome, RulesHelp

from .engine import CupState


def rules_help(rs: KingsCupRuleset) -> RulesHelp:
    end = (
        "The player who draws the fourth King ends the game."
        if rs.end == "fourth_king"
        else "The game ends when every card has been drawn."
    )
    kings = (
        "A King's rule stands until the next King replaces it."
        if rs.king_rules == "replace"
        else f"Kings' rules add up (at most {rs.max_rules}; the oldest lapses), and a King may cancel one."
    )
    return RulesHelp(
        game="kings-cup",
        title="Kings Cup",
        goal="A table helper: take turns drawing a card from around the cup and do what its rule says. "
        "Nobody wins or loses, and nothing is rated.",
        win=(end,),
        lose=(),
        special=(
            kings,
            *(f"{rank}: {rule.title} — {rule.text}" for rank, rule in rs.card_rules.items()),
        ),
    )


def end_text(state: CupState, out: Outcome, names: Mapping[str, str]) -> str:
    if state.end_reason == "fourth_king":
        return f"{names.get(state.seats[state.ended_by], 'a player')} drew the fourth King."
    return "every card has been drawn."
