"""What a computer player sends, from what a client is shown.

Perfect-information games: the game's own bot (``Decider.bots``) on the client's fold of the
public events.  Hidden-information games: a choice among the legal commands listed in the seat's
own view, so a bot knows exactly what a person in that seat would know.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgspec

from domain.games import registry
from services.cli.demo import PublicFold

KC_SLOTS = frozenset({"N", "E", "S", "W", "NE", "SE", "SW", "NW"})
KC_CORNERS = frozenset({"NE", "SE", "SW", "NW"})
RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def parse_kings_corner(text: str) -> dict[str, Any]:
    """A Kings in the Corner command from its short notation ("QS>N", "9H,8S>E", "E>N", "N>>NE",
    "RJ=5H>W", "draw", "end", "ready"), as JSON for the API."""
    if text == "ready":
        return {"type": "kc_ready.v1"}
    if text == "draw":
        return {"type": "kc_draw.v1"}
    if text == "end":
        return {"type": "kc_end_turn.v1"}
    if ">>" in text:
        src, dst = text.split(">>", 1)
        return {"type": "kc_move_king_pile.v1", "from_slot": src, "to_slot": dst}
    src, dst = text.split(">", 1)
    if src in KC_SLOTS:
        return {"type": "kc_move_pile.v1", "from_slot": src, "to_slot": dst}
    if "," in src:
        return {"type": "kc_play_run.v1", "cards": src.split(","), "slot": dst}
    card, _, as_card = src.partition("=")
    command: dict[str, Any] = {"type": "kc_play_card.v1", "card": card, "slot": dst}
    if as_card:
        command["as_card"] = as_card
    return command


def card_rank(card: str) -> int:
    """Rank of a card id ("10H" -> 10, "QS2" -> 12); jokers 0."""
    if card in ("RJ", "BJ") or card.startswith(("RJ", "BJ")):
        return 0
    head = card[:2] if card.startswith("10") else card[:1]
    return RANKS.get(head) or int(head)


def kings_corner_score(text: str, view: dict[str, Any]) -> float:
    """Kings to the corners, merge piles, build on piles, high cards to empty spaces; then draw or end."""
    game = view.get("game_view") or {}
    layout: dict[str, list[str]] = game.get("layout") or {}
    if text == "ready":
        return 100
    if text == "draw":
        return 10
    if text == "end":
        return 0
    if ">>" in text:
        return 85
    src, dst = text.split(">", 1)
    if src in KC_SLOTS:
        return 80
    if game.get("pending_card"):
        return 95
    cards = src.split(",")
    first = cards[0].split("=")[0]
    if card_rank(first) == 0:
        return 20  # a joker: keep it while anything else can be played
    if card_rank(first) == 13 and dst in KC_CORNERS and not layout.get(dst):
        return 90
    if layout.get(dst):
        return 70 + len(cards) + card_rank(first) / 20
    return 40 + card_rank(first) / 20


LegalParser = Callable[[str], dict[str, Any]]
LegalScore = Callable[[str, dict[str, Any]], float]
VIEW_PLAYERS: dict[str, tuple[LegalParser, LegalScore]] = {
    "kings-corner": (parse_kings_corner, kings_corner_score),
    "ugolki": (lambda text: {"type": "move_piece.v1", "path": text.split("-")}, lambda text, view: 0.0),
}


def view_choice(game: str, view: dict[str, Any], strength: str, rng: random.Random) -> dict[str, Any]:
    legal: list[str] = list((view.get("game_view") or {}).get("legal") or ())
    if not legal:
        return {"type": "resign.v1"}
    parse, score = VIEW_PLAYERS[game]
    if strength == "random":
        return parse(rng.choice(legal))
    best = max(score(x, view) for x in legal)
    return parse(rng.choice([x for x in legal if score(x, view) == best]))


def choose(
    game: str, fold: PublicFold, view: dict[str, Any], seat: str, strength: str, rng: random.Random
) -> dict[str, Any]:
    decider = registry.get(game)
    if decider.meta.hidden_info or fold.state is None:
        return view_choice(game, view, strength, rng)
    bots = decider.bots or {}
    bot = bots.get(strength) or bots["random"]
    return msgspec.to_builtins(bot(fold.state.game_state, seat, rng))  # type: ignore[no-any-return]
