"""What a seat sees at a Kings Cup table: everything but the order of the cards around the cup."""

from __future__ import annotations

import msgspec

from contracts.games.kings_cup import (
    CardRule,
    ChooseSeat,
    CupDealt,
    DrawCard,
    DrawnCard,
    KingsCupCommand,
    KingsCupEvent,
    KingsCupView,
    MakeRule,
    Ready,
    StandingRule,
)
from domain.core import cards
from domain.core.words import DEFAULT_LANG, Lang
from domain.games.kings_cup.phases import to_move
from domain.games.kings_cup.rules import card_words, made_rule_words, notice_words
from domain.games.kings_cup.state import CupState, rank_of
from domain.games.kings_cup.words import result_text


def describe(cmd: KingsCupCommand) -> str:
    if isinstance(cmd, DrawCard):
        return "draw"
    if isinstance(cmd, ChooseSeat):
        return f"choose {cmd.seat}"
    if isinstance(cmd, MakeRule):
        return f"cancel rule {cmd.cancel}" if cmd.cancel is not None and not cmd.text else f"rule: {cmd.text}"
    assert isinstance(cmd, Ready)
    return "ready"


def drinks_with(state: CupState) -> dict[str, tuple[str, ...]]:
    """Mate chains (king.md §15.1, source H): when a seat drinks, its mates drink, and theirs."""
    out: dict[str, tuple[str, ...]] = {}
    for i, seat in enumerate(state.seats):
        seen: list[int] = []
        todo = [m for s, m in state.mates if s == i]
        while todo:
            j = todo.pop(0)
            if j != i and j not in seen:
                seen.append(j)
                todo.extend(m for s, m in state.mates if s == j)
        if seen:
            out[seat] = tuple(state.seats[j] for j in seen)
    return out


def _drawn(state: CupState, i: int, card: str, lang: Lang = DEFAULT_LANG) -> DrawnCard:
    rank = rank_of(card)
    title, text = card_words(rank, state.rules.card_rules[rank], lang)
    return DrawnCard(seat=state.seats[i], card=card, title=title, text=text)


def view(state: CupState, viewer: str | None, lang: Lang = DEFAULT_LANG) -> KingsCupView:
    """The table for ``viewer``; how it ended in ``lang``."""
    seats = state.seats
    mates: dict[str, tuple[str, ...]] = {}
    for s, m in state.mates:
        mates[seats[s]] = (*mates.get(seats[s], ()), seats[m])
    return KingsCupView(
        status=state.status,
        helper=True,
        notice=notice_words(state.rules.notice, lang),
        rule_set=state.rules.rule_set,
        card_rules={
            rank: CardRule(title=t, text=x, effect=rule.effect)
            for rank, rule in state.rules.card_rules.items()
            for t, x in [card_words(rank, rule, lang)]
        },
        current=seats[state.current] if state.status == "playing" else None,
        to_move=tuple(s for s in seats if s in to_move(state)),
        ready=tuple(s for s, r in zip(seats, state.ready, strict=True) if r),
        cards_left=len(state.cup),
        kings=state.kings,
        cup=min(state.kings, 3),
        last=_drawn(state, *state.drawn[-1], lang) if state.drawn else None,
        awaiting=state.awaiting,
        question_master=seats[state.question_master] if state.question_master >= 0 else None,
        mates=mates,
        drinks_with=drinks_with(state),
        rules=tuple(StandingRule(seat=seats[s], text=made_rule_words(t, lang)) for s, t in state.made),
        drawn=tuple(_drawn(state, i, c, lang) for i, c in state.drawn),
        result=state.end_reason or None,
        result_text=result_text(state.status, state.end_reason, lang),
    )


def redact(event: KingsCupEvent, viewer: str | None) -> KingsCupEvent | None:
    if isinstance(event, CupDealt):
        return msgspec.structs.replace(event, order=(cards.UNKNOWN,) * len(event.order))
    return event


def hidden(state: CupState, seat: str) -> frozenset[str]:
    """The cards still around the cup are hidden from everybody (their order is the game)."""
    return frozenset(c for c in state.cup if c != cards.UNKNOWN)
