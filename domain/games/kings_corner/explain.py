"""Kings in the Corner in words for players (rules/kings-corner.md §4.1): a ruleset's help and why
a match ended."""

from __future__ import annotations

from collections.abc import Mapping

from contracts.games.kings_corner import KingsCornerRuleset
from contracts.match import Outcome, RulesHelp

from .state import KCState

BUILD = {
    "down_alt_colour": "down in alternating colours (a red 9 on a black 10)",
    "down_in_suit": "down in the same suit",
    "up_in_suit": "up in the same suit",
}
DRAW = {
    "start": "at the start of your turn",
    "end": "at the end of your turn",
    "start_if_stuck": "at the start of your turn when you cannot play",
    "until_playable": "until you can play, while the stock lasts",
}
POINTS = {
    "K10_O1": "a King left in hand costs 10, any other card 1",
    "COUNT": "every card left in hand costs 1",
    "A25_F10_PIP": "an Ace left in hand costs 25, a face card 10, other cards their number",
    "A50_TF10_P5": "an Ace left in hand costs 50, 10 to King 10, 2 to 9 5",
    "F10_6T10_5_A5_1": "a face card left in hand costs 10, 6 to 10 5, Ace to 5 1",
    "A25_TF10_P5": "an Ace left in hand costs 25, 10 to King 10, 2 to 9 5",
    "ROBINSON": "cards left in hand cost their number (Jack 11, Queen 12, King 13)",
}


def _match_end(rs: KingsCornerRuleset) -> str:
    v = rs.match_end_value
    lower = rs.winner == "lowest_total"
    if rs.match_end == "single_round":
        return "The match is one round: the first player out of cards wins it."
    if rs.match_end == "fixed_rounds":
        best = "the lowest penalty total" if lower else "the highest balance"
        return f"The match is {v} round{'s' if v != 1 else ''}; {best} after the last round wins."
    if rs.match_end == "target":
        cmp = "reaches or passes" if rs.target_compare == "reach_or_exceed" else "passes"
        return f"The match ends after the round in which a penalty total {cmp} {v}; the lowest total wins."
    return f"A player whose penalty total reaches {v} drops out; the last player left wins."


def rules_help(rs: KingsCornerRuleset) -> RulesHelp:
    win = [
        "Go out: play every card in your hand onto the piles around the stock to win the round.",
        _match_end(rs),
    ]
    if rs.settlement == "penalty":
        win.append(f"At the end of a round the others score penalty points: {POINTS[rs.scoring_table]}.")
    else:
        win.append(
            f"Played for {'chips' if rs.settlement == 'chips' else 'a pool'}: ante {rs.ante}, {rs.idle_fee} "
            f"per idle turn; the player going out collects {rs.per_card} per card and {rs.per_king} per King left."
        )
    if rs.tie_policy == "extra_round" and rs.match_end != "elimination":
        win.append("A tie for first place plays another round.")
    lose = [
        "A round ends blocked when the stock is empty and nobody can play: everybody then scores the "
        "cards left in hand.",
        "Resigning leaves the match: you rank last, and the others play on (D3).",
    ]
    if rs.mandatory_kings == "enforce":
        lose.append("A King must be played to a corner at the first chance.")
    elif rs.mandatory_kings == "penalty3":
        lose.append("A King not played to a corner at the first chance costs 3 points.")
    special = [
        f"Draw {rs.draw_count} card{'s' if rs.draw_count > 1 else ''} {DRAW[rs.draw_timing]}; "
        f"with the stock empty nobody draws.",
        f"The cross piles build {BUILD[rs.cross_build]}; the corner piles start with a King and build "
        f"{BUILD[rs.corner_build]}.",
        "An empty cross pile takes any card except a King."
        if rs.empty_cross_accepts == "any_except_king"
        else "An empty cross pile takes any card.",
        "A whole pile may move onto another pile when its bottom card fits there.",
    ]
    if rs.king_pile_to_corner:
        special.append("A pile starting with a King may move into an empty corner.")
    if rs.run_play_action:
        special.append("A run of cards from your hand may be played onto a pile in one move.")
    if rs.going_out == "after_stock_exhausted":
        special.append("You may go out only once the stock is empty.")
    elif rs.going_out == "draw3_if_open_cross":
        special.append("Going out while a cross pile is empty makes you draw 3 cards instead.")
    if rs.decks == 2:
        special.append("Two decks are shuffled together.")
    if rs.jokers:
        special.append(
            f"{rs.jokers} jokers stand in for any card; a joker left in hand costs {rs.joker_penalty}."
        )
    if rs.first_turn_out_adjust:
        special.append(f"Going out on your first turn adds {rs.first_turn_out_adjust} to your penalty.")
    if rs.corner_ace_bonus:
        special.append(f"Completing a corner pile King down to Ace takes {rs.corner_ace_bonus} points off.")
    return RulesHelp(
        game="kings-corner",
        title="Kings in the Corner",
        goal="Be the first to play every card from your hand onto the piles around the stock.",
        win=tuple(win),
        lose=tuple(lose),
        special=tuple(special),
    )


def end_text(state: KCState, out: Outcome, names: Mapping[str, str]) -> str:
    """Why the match ended, with the final totals ("3 rounds played; totals: ann 4, bob 12")."""
    rs = state.ruleset
    seats = state.seats
    totals = ", ".join(f"{names.get(s, s)} {t}" for s, t in zip(seats, state.totals, strict=False))
    word = "penalty totals" if rs.settlement == "penalty" else "balances"
    if out.reason == "resignation":
        gone = [names.get(s, s) for s, r in zip(seats, state.resigned, strict=False) if r]
        left = [names.get(s, s) for s, r in zip(seats, state.resigned, strict=False) if not r]
        who = ", ".join(gone) or "a player"
        return f"{who} resigned, leaving {', '.join(left) or 'nobody'} ({word}: {totals})."
    best = "lowest" if rs.winner == "lowest_total" else "highest"
    reason = {
        "single_round": "the one round is over",
        "fixed_rounds": f"all {rs.match_end_value} rounds are played",
        "target": f"a total reached {rs.match_end_value}",
        "elimination": "only one player is left in",
    }[rs.match_end]
    return f"{reason}; the {best} total wins ({word}: {totals})."
