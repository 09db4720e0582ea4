"""The ruleset checks of kings-corner-1, as they stood before Decision D6 tightened them (the
contract's ``KingsCornerRuleset.validate`` is kings-corner-2's): a match created under
kings-corner-1 re-decides its creation with these."""

from __future__ import annotations

from contracts.games.kings_corner import KingsCornerRuleset


def ruleset_problem(r: KingsCornerRuleset) -> str | None:
    if r.decks not in (1, 2):
        return "decks must be 1 or 2"
    if r.jokers not in (0, 2):
        return "jokers must be 0 or 2"
    if r.hand_size < 1 or r.draw_count not in (1, 2):
        return "hand_size must be >= 1 and draw_count 1 or 2"
    if not 2 <= r.min_players <= r.max_players:
        return "players must be a range min..max with min >= 2"
    if r.match_end_value < 1 and r.match_end != "single_round":
        return "match_end_value must be >= 1"
    if r.settlement != "penalty" and r.match_end in ("target", "elimination"):
        return "chips and pool ledgers end after a fixed number of rounds"
    if r.settlement != "penalty" and r.winner != "highest_balance":
        return "chips and pool ledgers need winner = highest_balance"
    if r.settlement == "penalty" and r.winner != "lowest_total":
        return "penalty points need winner = lowest_total"
    if not r.optional_play and r.draw_timing != "until_playable":
        return "optional_play = false is used only with draw_timing = until_playable"
    return seats_problem(r, r.max_players)


def seats_problem(r: KingsCornerRuleset, n: int) -> str | None:
    """The deck must hold every hand, the cross and the auto-refill reserve (§5.3 step 1)."""
    if not r.min_players <= n <= r.max_players:
        return f"this ruleset takes {r.min_players}-{r.max_players} players, got {n}"
    reserve = 4 * r.decks if r.setup_cross_kings == "auto_corner_refill_from_stock" else 0
    cards = 52 * r.decks + r.jokers
    if cards < r.hand_size * n + 4 + reserve:
        return f"{cards} cards cannot deal {r.hand_size} to {n} players plus the cross"
    return None
