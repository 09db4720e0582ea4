"""Computer players as clients: a client's own fold of the decisions the API shows it, and the
command the game's bot chooses from it (used by the bots service and ``gamehall demo``)."""

from __future__ import annotations

import random
from typing import Any

import msgspec

from contracts.codecs import codec
from contracts.match import MatchCreated
from domain.core import match as match_layer
from domain.core.matchlog import Folded, fold_decision
from domain.games import registry


class PublicFold:
    """A client's own fold of the events the API shows it (for computer players)."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.decider = registry.get(game)
        self.state: match_layer.MatchState | None = None
        self.seq = 0
        self.events = 0
        self._decoder = codec(game).event_decoder

    def apply(self, decisions: list[dict[str, Any]]) -> None:
        for decision in decisions:
            if decision["seq"] <= self.seq:
                continue
            events = [self._decoder.decode(msgspec.json.encode(raw)) for raw in decision["events"]]
            if events and isinstance(events[0], MatchCreated):
                # the rules version the match is played under (an older one for an old match)
                self.decider = registry.get(self.game, events[0].rules_version)
            folded = fold_decision(
                self.decider,
                Folded(state=self.state, seq=self.seq),
                decision["seq"],
                events,
                at=decision.get("recorded_at"),
                seat=decision.get("seat"),
            )
            self.state, self.seq = folded.state, folded.seq
            self.events += len(events)


def choose_command(
    game: str, fold: PublicFold, seat: str, strength: str, rng: random.Random
) -> dict[str, Any]:
    """A computer player's command from what this client was shown.

    ``fold`` holds the events as the API showed them to this seat (redacted for it in games
    with hidden cards), so a computer player never sees another seat's hand."""
    decider = fold.decider
    bots = decider.bots or {}
    bot = bots.get(strength) or bots.get("random")
    assert fold.state is not None
    if bot is not None:
        command = bot(fold.state.game_state, seat, rng)
    else:
        legal = decider.legal_commands(fold.state.game_state, seat)
        command = legal[rng.randrange(len(legal))]
    return msgspec.to_builtins(command)  # type: ignore[no-any-return]


def draw_answer(fold: PublicFold, seat: str) -> dict[str, Any]:
    """A computer player's answer to another seat's draw offer (docs/api.md "Draw offers"): the
    game's ``Decider.draw_answer`` decides (Ugolki accepts when it is behind in the race home,
    rules/ugolki.md §7); a game without one declines and plays on."""
    state = fold.state
    answer = fold.decider.draw_answer
    if state is not None and answer is not None and answer(state.game_state, seat):
        return {"type": "accept_draw.v1"}
    return {"type": "decline_draw.v1"}
