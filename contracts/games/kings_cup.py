"""Kings Cup table helper: ruleset, commands, events, view and rejection codes (rules/king.md §15.1).

A party game played with physical drinks.  The server only facilitates: it shuffles the cards
around the cup, reveals each drawn card with the active rule set's text for it, keeps the standing
roles (question master, mates, the rules made with Kings) and ends the game on the fourth King (or
when the cards run out).  It judges nothing and it is never rated.  Card ids are those of
``domain.core.cards`` ("KS", "10H").
"""

from __future__ import annotations

from typing import Literal

import msgspec

from contracts.games import GameContract, Sentence

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

# What a card does beyond showing its text: pick a seat ("you drink"), pick a mate (chained,
# one-directional), become question master until the next such card, make a rule (Kings).
Effect = Literal["none", "choose_seat", "mate", "question_master", "new_rule"]


class CardRule(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    title: str
    text: str
    effect: Effect = "none"


class KingsCupRuleset(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    rule_set: str = "neutral"  # the name of the card texts shown
    card_rules: dict[str, CardRule] = {}  # rank -> rule, every rank A..K
    end: Literal["fourth_king", "deck_out"] = "fourth_king"  # source G / source I
    king_rules: Literal["replace", "accumulate"] = (
        "replace"  # G and I: the next King replaces; H: rules add up
    )
    max_rules: int = 8  # accumulate: the oldest rule lapses beyond this many
    max_rule_length: int = 200
    min_players: int = 2
    max_players: int = 12
    notice: str = (
        "Drink responsibly or not at all: water and soft drinks work as well. "
        "Play only if you are of legal drinking age; anyone may pass."
    )

    def validate(self) -> str | None:
        missing = [r for r in RANKS if r not in self.card_rules]
        if missing:
            return f"card_rules: no rule for {', '.join(missing)}"
        unknown = sorted(set(self.card_rules) - set(RANKS))
        if unknown:
            return f"card_rules: unknown rank(s) {unknown}"
        if any(not r.title.strip() or not r.text.strip() for r in self.card_rules.values()):
            return "card_rules: every rule needs a title and a text"
        if self.card_rules["K"].effect != "new_rule":
            return "card_rules: the King makes a rule (its effect must be new_rule)"
        if not 2 <= self.min_players <= self.max_players <= 20:
            return "players must be a range min..max within 2..20"
        if self.max_rules < 1 or self.max_rule_length < 1:
            return "max_rules and max_rule_length must be >= 1"
        return None

    def check_seats(self, n: int) -> str | None:
        if not self.min_players <= n <= self.max_players:
            return f"this ruleset takes {self.min_players}-{self.max_players} players, got {n}"
        return None


# ---------------------------------------------------------------- commands
class Ready(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="kcup_ready.v1"):
    """Ready to start: carries the seat's client seed (rng_v1); the cards are spread after the last one."""

    client_seed: str = ""


class DrawCard(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="kcup_draw.v1"):
    """Draw the next card from around the cup."""


class ChooseSeat(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="kcup_choose.v1"):
    """Answer a card that picks a seat (``choose_seat``: who drinks; ``mate``: your mate)."""

    seat: str


class MakeRule(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="kcup_rule.v1"):
    """Answer a King: the rule's text; with ``king_rules = accumulate`` it may cancel one rule
    (its index in the view's ``rules``) instead of or as well as adding one (text may be empty then)."""

    text: str
    cancel: int | None = None


KingsCupCommand = Ready | DrawCard | ChooseSeat | MakeRule


# ---------------------------------------------------------------- events
class SeatReady(msgspec.Struct, frozen=True, kw_only=True, tag="kcup_seat_ready.v1"):
    seat: str
    client_seed: str = ""


class CupDealt(msgspec.Struct, frozen=True, kw_only=True, tag="kcup_dealt.v1"):
    """The cards spread face down around the cup (rng_v1 label ``cup``); the order is hidden."""

    order: tuple[str, ...]  # draw order (hidden: "??")
    size: int
    first_seat: str  # rng_v1 label ``first``


class CardDrawn(msgspec.Struct, frozen=True, kw_only=True, tag="kcup_card_drawn.v1"):
    seat: str
    card: str
    rank: str
    title: str
    text: str
    effect: str
    kings: int  # Kings drawn so far, this one included


class SeatChosen(msgspec.Struct, frozen=True, kw_only=True, tag="kcup_seat_chosen.v1"):
    seat: str
    target: str
    effect: str  # choose_seat or mate


class RuleMade(msgspec.Struct, frozen=True, kw_only=True, tag="kcup_rule_made.v1"):
    seat: str
    text: str
    cancelled: str | None = None  # the text of a rule it cancels or replaces
    # accumulate: the index of the cancelled rule among the standing rules (two standing rules may
    # have the same text; only this one lapses).  None in events recorded before this field.
    cancelled_index: int | None = None


class TurnPassed(msgspec.Struct, frozen=True, kw_only=True, tag="kcup_turn_passed.v1"):
    seat: str
    next_seat: str


class CupEnded(msgspec.Struct, frozen=True, kw_only=True, tag="kcup_ended.v1"):
    reason: Literal["fourth_king", "deck_out"]
    seat: str  # who drew the last card (the fourth King: the cup is theirs)


KingsCupEvent = SeatReady | CupDealt | CardDrawn | SeatChosen | RuleMade | TurnPassed | CupEnded


# ---------------------------------------------------------------- view
class DrawnCard(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    card: str
    title: str
    text: str


class StandingRule(msgspec.Struct, frozen=True, kw_only=True):
    seat: str  # who made it
    text: str


class KingsCupView(msgspec.Struct, frozen=True, kw_only=True):
    status: Literal["waiting", "playing", "finished"]
    helper: bool  # a table helper: nothing is judged or rated
    notice: str
    rule_set: str
    card_rules: dict[str, CardRule]
    current: str | None
    to_move: tuple[str, ...]
    ready: tuple[str, ...]
    cards_left: int  # face down around the cup (the order is hidden)
    kings: int
    cup: int  # Kings poured into the cup so far (the fourth King takes it)
    last: DrawnCard | None
    awaiting: str | None  # choose_seat, mate or new_rule: what the drawer still has to answer
    question_master: str | None
    mates: dict[str, tuple[str, ...]]  # seat -> its mates (one-directional)
    drinks_with: dict[str, tuple[str, ...]]  # seat -> every seat that drinks with it (mate chains)
    rules: tuple[StandingRule, ...]
    drawn: tuple[DrawnCard, ...]
    result: str | None = None
    result_text: str = ""  # at the end, how it ended in words, in the view's language


# Every code the game's decide may answer, with its sentence in English and Russian (the page
# says a refusal with it: GET /api/games).
KINGS_CUP_REJECTIONS: dict[str, Sentence] = {
    "malformed": Sentence("The request is not well formed.", "Запрос составлен неверно."),
    "not_your_turn": Sentence("It is not your turn.", "Сейчас не ваш ход."),
    "invalid_seats": Sentence(
        "This number of players does not fit these rules.", "Такое число игроков не подходит к этим правилам."
    ),
    "seed_unavailable": Sentence(
        "The deal cannot be made yet: try again.", "Раздать пока нельзя: попробуйте ещё раз."
    ),
    "not_dealing": Sentence(
        "The next deal is not being prepared now.", "Следующая раздача сейчас не готовится."
    ),
    "already_ready": Sentence("You have already said you are ready.", "Вы уже сообщили о готовности."),
    "client_seed_too_long": Sentence("The seed you sent is too long.", "Присланное зерно слишком длинное."),
    "game_not_active": Sentence("The game is not in play.", "Игра сейчас не идёт."),
    "answer_first": Sentence("Answer the pending question first.", "Сначала ответьте на заданный вопрос."),
    "nothing_to_answer": Sentence("There is nothing to answer.", "Отвечать не на что."),
    "no_such_seat": Sentence("There is no such player at this table.", "За этим столом нет такого игрока."),
    "rule_too_long": Sentence("The rule is too long.", "Правило слишком длинное."),
    "empty_rule": Sentence("Write the rule first.", "Сначала напишите правило."),
    "no_such_rule": Sentence("There is no such rule.", "Такого правила нет."),
}
KINGS_CUP_REJECTION_CODES: tuple[str, ...] = tuple(KINGS_CUP_REJECTIONS)

CONTRACT = GameContract(
    name="kings-cup",
    command_type=KingsCupCommand,
    event_type=KingsCupEvent,
    view_type=KingsCupView,
    ruleset_type=KingsCupRuleset,
    rejections=KINGS_CUP_REJECTIONS,
)
