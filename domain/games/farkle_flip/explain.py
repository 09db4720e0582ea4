"""Farkle Flip in words for players (rules/thousand-and-farkle-flip.md §3): a ruleset's help and
why a match ended."""

from __future__ import annotations

from collections.abc import Mapping

from contracts.games.farkle_flip import FarkleFlipRuleset
from contracts.match import Outcome, RulesHelp

from .rules import scoring_note
from .state import FFState


def _pattern(p: object) -> str:
    name = str(getattr(p, "name", "")).replace("_", " ")
    faces = getattr(p, "face_values", {}) or {}
    if faces:
        return f"{name} ({', '.join(f'{f}s {v}' for f, v in faces.items())})"
    return f"{name} {getattr(p, 'value', '')}"


def rules_help(rs: FarkleFlipRuleset) -> RulesHelp:
    win = [
        f"Bank points until somebody reaches {rs.target}; then everybody else plays one last turn and "
        "the highest banked score wins.",
        f"Getting on the board: your first bank must be at least {rs.entry} points in one turn.",
    ]
    lose = [
        "Bust: drawing a Farkle card ends your turn; the combinations in the centre go back to your "
        "area as lost groups, and a card must be added to one before it can be locked again.",
        f"A Farkle card stays beside you and adds {rs.farkle_value} when you next bank.",
    ]
    if rs.entry_stop_policy == "FORFEIT":
        lose.append(
            f"Stopping before you are on the board with fewer than {rs.entry} points forfeits the centre."
        )
    else:
        lose.append(f"Until you are on the board you may not stop below {rs.entry} points.")
    lose.append("The game also ends when both piles stay empty for a full round of turns (FF3).")
    special = [
        "On your turn draw a card and place it in any player's area (cards there belong to nobody); "
        "lock a scoring combination from one area into the centre, then draw again or stop and bank "
        "the centre. Banked points are never lost.",
        "Scoring combinations: " + "; ".join(_pattern(p) for p in rs.patterns) + ".",
        scoring_note(rs),
    ]
    if rs.lock_requires_last_placed:
        special.append("Every lock must use the card placed last this turn (FF4).")
    return RulesHelp(
        game="farkle-flip",
        title="Farkle Flip",
        goal=f"Bank {rs.target} points by locking scoring combinations of cards, and stop before you bust.",
        win=tuple(win),
        lose=tuple(lose),
        special=tuple(special),
    )


def end_text(state: FFState, out: Outcome, names: Mapping[str, str]) -> str:
    banked = ", ".join(f"{names.get(s, s)} {b}" for s, b in zip(state.seats, state.banked, strict=False))
    if state.end_reason == "final_round":
        who = names.get(state.seats[state.trigger], "a player") if state.trigger >= 0 else "a player"
        return f"{who} reached {state.rules.target} and everyone else played a last turn (banked: {banked})."
    if state.end_reason == "piles_empty":
        return f"both piles stayed empty for a full round of turns (banked: {banked})."
    return f"{(out.reason or 'the game is over')} (banked: {banked})."
