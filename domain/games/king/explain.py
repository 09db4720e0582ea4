"""King (Кинг) in words for players (rules/king.md §11.1): a ruleset's help and why a match
ended."""

from __future__ import annotations

from collections.abc import Mapping

from contracts.games.king import KingRuleset, schedule_deals
from contracts.match import Outcome, RulesHelp

from .rules import GAME_NAMES
from .state import KingState
from .view import game_cost

TRUMP_DEAL = {
    "HV": "hvalenki (the declarer names trumps or another option, every trick scores)",
    "TR": "trump deals (every trick scores)",
    "AU": "auctioned trump deals (the high bidder names trumps)",
    "OT": "otyigrysh deals (every trick scores)",
}


def rules_help(r: KingRuleset) -> RulesHelp:
    deals = schedule_deals(r)
    games = [g for g in dict.fromkeys((*r.games, *r.games_after))]
    listed = "; ".join(f"{GAME_NAMES[g]} ({game_cost(r, g)})" for g in games)
    if r.schedule == "fixed":
        plan = (
            f"{len(deals)} deals in a fixed order: {len(r.games)} games, then {r.hv_count} "
            f"{TRUMP_DEAL[r.trump_deal]}"
            + (f", then {len(r.games_after)} more" if r.games_after else "")
            + "."
        )
    else:
        plan = (
            f"{len(deals)} deals: every player in turn orders each game of the list once, and "
            f"{r.hv_count} {TRUMP_DEAL[r.trump_deal]}."
        )
    win = [
        "Score the highest total after the last deal. Each deal has its own game: in the negative ones "
        "you avoid taking what the game names, in the positive ones you take tricks.",
        plan,
    ]
    lose = [
        f"The games and what they cost: {listed}; {GAME_NAMES[r.trump_deal]}: {game_cost(r, r.trump_deal)}."
    ]
    if r.early_end:
        lose.append("A negative deal ends early once nothing it counts is left to take.")
    special = [
        f"{r.players} players, {r.hand_size} cards each"
        + (f", a {r.talon_size}-card talon" if r.talon_size else "")
        + ". Follow suit when you can.",
    ]
    if r.must_trump:
        special.append(
            "Void in the led suit in a trump deal, you must trump"
            + (" and overtrump." if r.must_overtrump else ".")
        )
    if r.hearts_lead_ban:
        special.append(
            "No leading hearts while you hold another suit in: "
            + ", ".join(GAME_NAMES[g] for g in r.hearts_lead_ban)
            + "."
        )
    if r.king_discard:
        mode = "must" if r.king_discard_mode == "mandatory" else "may"
        special.append(
            f"A player void in the led suit {mode} discard the King of hearts in: "
            + ", ".join(GAME_NAMES[g] for g in r.king_discard)
            + "."
        )
    if r.trump_lead_restriction:
        special.append("Only the declarer may lead trumps.")
    if r.hv_buyout:
        special.append("The other players may buy the right to declare a hvalenka.")
    if r.zero_sum:
        special.append("Every deal's points add up to a fixed total (the score sheet checks each row).")
    else:
        special.append("The points do not add up to a fixed total (not zero-sum).")
    if r.compensation != "none":
        special.append(f"Every player starts with {r.compensation_value} points of compensation.")
    return RulesHelp(
        game="king",
        title="King (Кинг)",
        goal="Score the most points over a fixed series of deals, each played as a different game.",
        win=tuple(win),
        lose=tuple(lose),
        special=tuple(special),
    )


def end_text(state: KingState, out: Outcome, names: Mapping[str, str]) -> str:
    totals = ", ".join(f"{names.get(s, s)} {t}" for s, t in zip(state.seats, state.totals, strict=False))
    played = len(schedule_deals(state.rules))
    return f"all {played} deals played; the highest total wins (totals: {totals})."
