"""Scoring of a round and the end of the match (rules/kings-corner.md §5.6 Scoring, §5.7).

``score_round(state, winner)`` is the ``RoundEnded`` event of the round in ``state``: each active
seat's penalty points (point table, jokers, Klepek's first-turn adjustment, the corner-ace
bonus), the chips or pool settlement, and whether the match is over with the places.
"""

from __future__ import annotations

from contracts.games.kings_corner import RoundEnded, SeatResult
from domain.core import cards
from domain.core.cardgame import scoring as kernel
from domain.games.kings_corner.state import FACTS, KCState
from domain.games.kings_corner.v1.rules import POINTS


def score_round(s: KCState, winner: int | None) -> RoundEnded:
    ruleset = s.ruleset
    active = s.active()
    table = POINTS[ruleset.scoring_table]
    totals = list(s.totals)
    pot = s.pot
    points: dict[int, int] = {}
    change: dict[int, int] = {j: 0 for j in active}
    for j in active:
        hand = s.hands[j]
        p = sum(ruleset.joker_penalty if FACTS[c].joker else table[cards.parse(c).rank] for c in hand)
        if j == winner and s.first_turn[j]:
            p += ruleset.first_turn_out_adjust
        if s.ace_completions[j]:
            # [decision] the bonus never takes a round below 0, so totals never fall and a
            # target match always ends (with -5 per corner, random play drifted below zero forever)
            p = max(0, p - ruleset.corner_ace_bonus * s.ace_completions[j]) if p > 0 else p
        points[j] = p
    if ruleset.settlement == "penalty":
        for j in active:
            totals[j] += points[j]
    else:
        dues = {
            j: sum(ruleset.per_king if FACTS[c].rank == 13 else ruleset.per_card for c in s.hands[j])
            for j in active
        }
        if ruleset.settlement == "chips":
            if winner is not None:
                take = pot + sum(dues[j] for j in active if j != winner)
                for j in active:
                    change[j] = take if j == winner else -dues[j]
                pot = 0
        else:  # pool: everyone pays in; the winner takes the pool
            for j in active:
                change[j] = -dues[j]
                pot += dues[j]
            if winner is not None:
                change[winner] += pot
                pot = 0
        for j in active:
            totals[j] += change[j]
    # match end (§5.7)
    round_no = s.round_no
    over, eliminated = kernel.match_over(
        ruleset.match_end,
        ruleset.match_end_value,
        round_no,
        totals,
        active,
        strict=ruleset.target_compare == "strictly_exceed",
    )
    reason = {
        "single_round": "single round",
        "fixed_rounds": f"{ruleset.match_end_value} rounds played",
        "target": f"a total reached {ruleset.match_end_value}",
        "elimination": "one player left",
    }[ruleset.match_end]
    ranks: tuple[int, ...] = ()
    if over:
        out_round = tuple(r or (round_no if j in eliminated else 0) for j, r in enumerate(s.out_round))
        ranks = kernel.standings(totals, out_round, lower_is_better=ruleset.winner == "lowest_total")
        if ruleset.tie_policy == "extra_round" and ruleset.match_end != "elimination" and ranks.count(1) > 1:
            over, ranks = False, ()
    if not over:
        reason = ""
    results = tuple(
        SeatResult(
            seat=s.seats[j],
            hand=cards.sorted_cards(s.hands[j]),
            points=points[j],
            balance_change=change[j],
            total=totals[j],
            eliminated=j in eliminated,
        )
        for j in active
    )
    return RoundEnded(
        round_no=round_no,
        result="won" if winner is not None else "blocked",
        winner=s.seats[winner] if winner is not None else None,
        seats=results,
        pot_carried=pot,
        match_over=over,
        ranks=ranks,
        reason=reason,
    )
