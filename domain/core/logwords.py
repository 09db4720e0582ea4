"""The match log in words: a line for each event as one viewer may see it, in English or Russian.

The match layer's own events (a resignation, a draw offer, a timeout...) read the same for every
game; a game's events are the game's ``Decider.event_text``, given the state before the event and
the viewer, which computes its line from the event as redacted for that viewer.  Lines are computed
when a log is viewed and never stored (the log stays as recorded)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from contracts.match import (
    DrawAccepted,
    DrawDeclined,
    DrawOffered,
    MatchAbandoned,
    MatchCreated,
    MatchEnded,
    Resigned,
    SeatAbandoned,
    SeatHandedToBot,
    ServerSeedRevealed,
    TimedOut,
)
from domain.core import match as match_layer
from domain.core.decider import Decider
from domain.core.words import DEFAULT_LANG, Lang, Words, joined

WORDS = Words(
    en={
        "created": "match created ({preset})",
        "over": "match over",
        "resigns": "{seat} resigns",
        "offers_draw": "{seat} offers a draw",
        "accepts_draw": "{seat} accepts the draw",
        "declines_draw": "{seat} declines the draw",
        "timed_out": "{seat} ran out of time",
        "abandoned": "{seat} stopped playing (no move in time)",
        "match_abandoned": "nobody moved for too long: {seats}",
        "handed_to_bot": "a computer player ({strength}) takes over {seat}",
        "seed_revealed": "the server seed is revealed",
    },
    ru={
        "created": "партия создана ({preset})",
        "over": "партия окончена",
        "resigns": "{seat} сдаётся",
        "offers_draw": "{seat} предлагает ничью",
        "accepts_draw": "{seat} соглашается на ничью",
        "declines_draw": "{seat} отклоняет ничью",
        "timed_out": "у {seat} кончилось время",
        "abandoned": "{seat} перестал играть (нет хода вовремя)",
        "match_abandoned": "слишком долго никто не ходил: {seats}",
        "handed_to_bot": "место {seat} занимает компьютер ({strength})",
        "seed_revealed": "серверное зерно раскрыто",
    },
)


# The match layer's events that say what one seat did (or what befell it): their words.
_SEAT_EVENTS: dict[type[Any], str] = {
    Resigned: "resigns",
    DrawOffered: "offers_draw",
    DrawAccepted: "accepts_draw",
    DrawDeclined: "declines_draw",
    TimedOut: "timed_out",
    SeatAbandoned: "abandoned",
}


def match_event_text(
    event: Any, lang: Lang = DEFAULT_LANG, game: Decider[Any, Any, Any, Any, Any] | None = None
) -> str | None:
    """The line of one of the match layer's events; None for a game's event.  With ``game`` the
    created match's preset is said by its title in ``lang``, else by its name."""
    say = WORDS.say
    seat_words = _SEAT_EVENTS.get(type(event))
    if seat_words is not None:
        return say(lang, seat_words, seat=event.seat)
    if isinstance(event, MatchCreated):
        return say(lang, "created", preset=game.preset_title(event.preset, lang) if game else event.preset)
    if isinstance(event, MatchEnded):
        return say(lang, "over")
    if isinstance(event, MatchAbandoned):
        return say(lang, "match_abandoned", seats=joined(lang, list(event.idle_seats)))
    if isinstance(event, SeatHandedToBot):
        strength = match_layer.strength_in_words(game, event.strength, lang) if game else event.strength
        return say(lang, "handed_to_bot", seat=event.seat, strength=strength)
    if isinstance(event, ServerSeedRevealed):
        return say(lang, "seed_revealed")
    return None


def event_text(
    game: Decider[Any, Any, Any, Any, Any],
    before: match_layer.MatchState | None,
    event: Any,
    viewer: str | None,
    lang: Lang = DEFAULT_LANG,
) -> str | None:
    """The line of ``event`` (as stored) for ``viewer`` in ``lang``, given the match state before
    it; None when the viewer sees no such event or the event has no line."""
    if match_layer.is_match_event(event):
        return match_event_text(event, lang, game)
    if game.event_text is None or before is None:
        return None
    return game.event_text(before.game_state, event, viewer, lang)


def decision_texts(
    game: Decider[Any, Any, Any, Any, Any],
    before: match_layer.MatchState | None,
    events: Iterable[Any],
    viewer: str | None,
    lang: Lang = DEFAULT_LANG,
) -> list[str | None]:
    """The lines of one decision's events (as stored) for ``viewer``, one for each event the viewer
    is shown (``match_layer.redact`` not None), in order; ``before`` is the state before the
    decision."""
    state = before
    texts: list[str | None] = []
    for event in events:
        if match_layer.redact(game, event, viewer) is not None:
            texts.append(event_text(game, state, event, viewer, lang))
        state = match_layer.evolve(game, state, event)
    return texts
