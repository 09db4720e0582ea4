"""A finished match's result and why it ended, in words (English and Russian)."""

from __future__ import annotations

from typing import Any

from contracts.matchmaking import is_computer_player
from domain.core.decider import Decider
from domain.core.match.state import MatchState
from domain.core.words import DEFAULT_LANG, Lang, Words, joined, seat_word


def strength_level(game: Decider[Any, Any, Any, Any, Any], bot: str) -> str:
    """A computer player's strength as the lobby names it: the game lists its bots weakest first,
    so the first is "beginner", the last of three or more "strong", any other "casual"."""
    bots = list(game.bots or {})
    i = bots.index(bot) if bot in bots else 0
    if i == 0:
        return "beginner"
    return "strong" if i == len(bots) - 1 and len(bots) >= 3 else "casual"


def strength_in_words(game: Decider[Any, Any, Any, Any, Any], bot: str, lang: Lang = DEFAULT_LANG) -> str:
    """A computer player's strength in ``lang``: "casual", «любитель»."""
    return WORDS.say(lang, f"strength.{strength_level(game, bot)}")


def player_in_words(
    game: Decider[Any, Any, Any, Any, Any] | None, player: str, lang: Lang = DEFAULT_LANG
) -> str:
    """How people are told a player: the name, or for a computer player matchmaking seated (its id
    ``bot:<game>:<n>``, playing the game's default strength) "computer (casual)" in ``lang``."""
    if game is None or not is_computer_player(player):
        return player
    return WORDS.say(lang, "computer", strength=strength_in_words(game, game.default_bot, lang))


def seat_names_in_words(
    state: MatchState, lang: Lang = DEFAULT_LANG, game: Decider[Any, Any, Any, Any, Any] | None = None
) -> dict[str, str]:
    """Seat -> how a sentence in ``lang`` names it: the player's name (with ``game``, a computer
    player matchmaking seated by its strength, :func:`player_in_words`), with the seat (in words:
    "ann (белые)") when they differ."""
    created = state.created
    return {
        s: seat_word(lang, s)
        if not p or p == s
        else f"{player_in_words(game, p, lang)} ({seat_word(lang, s)})"
        for s, p in zip(created.seats, created.players, strict=True)
    }


WORDS = Words(
    en={
        "head.helper": "Game over",
        "head.draw": "Draw",
        "head.wins": "{who} wins",
        "head.share": "{who} share first place",
        "resigned.one": "{who} resigned.",
        "resigned.many": "{who} resigned.",
        "timeout.one": "{who} ran out of time.",
        "timeout.many": "{who} ran out of time.",
        "abandoned.one": "{who} stopped playing (no move in time).",
        "abandoned.many": "{who} stopped playing (no move in time).",
        "abandoned.nobody": "nobody moved for too long.",
        "draw_agreed.two": "both sides agreed to a draw.",
        "draw_agreed.all": "every player agreed to a draw.",
        "over": "the match is over.",
        "sentence": "{head}: {why}",
        "computer": "computer ({strength})",
        "strength.beginner": "beginner",
        "strength.casual": "casual",
        "strength.strong": "strong",
    },
    ru={
        "head.helper": "Игра окончена",
        "head.draw": "Ничья",
        "head.wins": "Побеждает {who}",
        "head.share": "{who} делят первое место",
        "resigned.one": "игрок {who} сдался.",
        "resigned.many": "игроки {who} сдались.",
        "timeout.one": "у игрока {who} кончилось время.",
        "timeout.many": "у игроков {who} кончилось время.",
        "abandoned.one": "игрок {who} перестал играть (не сделал ход вовремя).",
        "abandoned.many": "игроки {who} перестали играть (не сделали ход вовремя).",
        "abandoned.nobody": "слишком долго никто не делал ход.",
        "draw_agreed.two": "обе стороны согласились на ничью.",
        "draw_agreed.all": "все игроки согласились на ничью.",
        "over": "партия окончена.",
        "sentence": "{head}: {why}",
        "computer": "компьютер ({strength})",
        "strength.beginner": "новичок",
        "strength.casual": "любитель",
        "strength.strong": "сильный",
    },
)


def outcome_text(
    game: Decider[Any, Any, Any, Any, Any], state: MatchState, lang: Lang = DEFAULT_LANG
) -> str | None:
    """A finished match's result and why it ended, as one sentence for people in ``lang``; None
    while it runs.

    The match layer words its own endings (resignation, timeout, abandonment, an agreed draw);
    every other reason is the game's ``end_text`` (the reason code as it is without one)."""
    out = state.outcome
    if out is None:
        return None
    seats = state.created.seats
    names = seat_names_in_words(state, lang, game)
    best = min(out.ranks) if out.ranks else 1
    winners = [names[s] for s, r in zip(seats, out.ranks, strict=False) if r == best]
    worst = [names[s] for s, r in zip(seats, out.ranks, strict=False) if r != best]
    say = WORDS.say
    if game.helper or not out.ranks:  # a table helper judges nobody (Kings Cup), nor does an
        head = say(lang, "head.helper")  # outcome without ranks (King's K16: an aborted match)
    elif out.draw:
        head = say(lang, "head.draw")
    else:
        head = say(lang, "head.wins" if len(winners) == 1 else "head.share", who=joined(lang, winners))
    reason = out.reason
    number = "one" if len(worst) == 1 else "many"
    if reason == "resignation" and game.resign is None and worst:
        why = say(lang, f"resigned.{number}", who=joined(lang, worst))
    elif reason == "timeout" and worst:
        why = say(lang, f"timeout.{number}", who=joined(lang, worst))
    elif reason == "abandoned":
        why = (
            say(lang, f"abandoned.{number}", who=joined(lang, worst))
            if worst
            else say(lang, "abandoned.nobody")
        )
    elif reason == "draw agreed":
        why = say(lang, "draw_agreed.two" if len(seats) == 2 else "draw_agreed.all")
    elif game.end_text is not None:
        why = game.end_text(state.game_state, out, names, lang)
    else:
        why = f"{reason.replace('_', ' ')}." if reason else say(lang, "over")
    return say(lang, "sentence", head=head, why=why)
