"""1000's words for the table: a legal move's label and a line of the match log for each event
as a viewer may see it, in English and Russian (domain/core/words.py).  Card ids and seats stay as
the game writes them ("KH", "p2"); the page draws card ids with suit signs and seats by name."""

from __future__ import annotations

from typing import Any

from contracts.games.thousand import (
    AuctionOpened,
    Bid,
    BidMade,
    BlindAnswered,
    CardPlayed,
    CardsGiven,
    ClaimRedeal,
    ContractSet,
    DealDealt,
    DealScored,
    DeclareBlind,
    DeclarerChosen,
    DeclineBlind,
    GiveCards,
    HandKept,
    HandShown,
    KeepHand,
    Pass,
    Passed,
    Play,
    Ready,
    RedealClaimed,
    SeatReady,
    SetContract,
    TalonRevealed,
    TalonTaken,
    ThousandCommand,
    TrickTaken,
    WriteOff,
    WrittenOff,
)
from domain.core.cards import UNKNOWN
from domain.core.words import DEFAULT_LANG, Lang, Words

WORDS = Words(
    en={
        "ready": "Deal",
        "blind": "Play blind (120)",
        "look": "Look at my cards",
        "keep": "Keep my hand",
        "redeal": "Claim a redeal ({reason})",
        "pass": "Pass",
        "contract": "Contract {n}",
        "write_off": "Write off the deal",
        "gift": "{card} → {seat}",
        "face_up": " (face up)",
        "with_marriage": "{card} + marriage",
        "with_aces": "{card} + four aces",
        "ev.ready": "{seat} is ready",
        "ev.dealt": "deal {n} dealt by {dealer}",
        "ev.bids": "{seat} bids {n}",
        "ev.passes": "{seat} passes",
        "ev.declares": "{seat} declares at {n}",
        "ev.plays_contract": "{seat} plays {n}",
        "ev.plays": "{seat} plays {card}",
        "ev.plays_announce": "{seat} plays {card} ({announce} {value})",
        "ev.trick": "trick {n} to {seat} ({points})",
        "ev.scored": "deal {n}: {seat} {contract} {result}",
        "ev.redeal": "redeal ({reason})",
        "ev.blind": "{seat} plays blind",
        "ev.looks": "{seat} looks at the cards",
        "ev.shows": "{seat} shows the hand",
        "ev.keeps": "{seat} keeps the hand",
        "ev.auction": "auction opens at {n} ({seat})",
        "ev.talon": "the talon: {cards}",
        "ev.takes_talon": "{seat} takes the talon",
        "ev.gives": "{seat} gives {gifts}",
        "ev.gift": "{card} to {seat}",
        "ev.written_off": "{seat} writes the deal off ({n})",
        "result.made": "made",
        "result.failed": "failed",
        "result.written_off": "written off",
        "reason.weak": "weak hand",
        "reason.four_nines": "four nines",
        "reason.talon_low": "low talon",
        "reason.talon_nines": "nines in the talon",
        "ann.marriage": "marriage",
        "ann.aces": "ace marriage",
        "phase.after_pass_window": "after pass window",
        "phase.auction": "auction",
        "phase.blind_offer": "blind offer",
        "phase.contract": "contract",
        "phase.deal_over": "deal over",
        "phase.next_deal": "next deal",
        "phase.finished": "finished",
        "phase.passing": "passing",
        "phase.play": "play",
        "phase.pre_auction": "pre auction",
        "phase.redeal": "redeal",
        "phase.redeal_window": "redeal window",
        "phase.talon_open": "talon open",
        "phase.talon_step": "talon step",
        "phase.talon_window": "talon window",
        "phase.waiting": "waiting",
        "shown.aces": "four aces {value}",
        "shown.marriage": "{suit} marriage {value}",
    },
    ru={
        "ready": "Сдать",
        "blind": "Играть втёмную (120)",
        "look": "Посмотреть карты",
        "keep": "Оставить карты",
        "redeal": "Потребовать пересдачу ({reason})",
        "pass": "Пас",
        "contract": "Заказ {n}",
        "write_off": "Расписать раздачу",
        "gift": "{card} → {seat}",
        "face_up": " (открыто)",
        "with_marriage": "{card} + марьяж",
        "with_aces": "{card} + четыре туза",
        "ev.ready": "{seat} готов",
        "ev.dealt": "раздача {n}, сдаёт {dealer}",
        "ev.bids": "{seat} заказывает {n}",
        "ev.passes": "{seat}: пас",
        "ev.declares": "{seat} выигрывает торги на {n}",
        "ev.plays_contract": "{seat} играет {n}",
        "ev.plays": "{seat} ходит {card}",
        "ev.plays_announce": "{seat} ходит {card} ({announce} {value})",
        "ev.trick": "взятка {n} — игроку {seat} ({points})",
        "ev.scored": "раздача {n}: {seat} {contract} {result}",
        "ev.redeal": "пересдача ({reason})",
        "ev.blind": "{seat} играет втёмную",
        "ev.looks": "{seat} смотрит карты",
        "ev.shows": "{seat} открывает карты",
        "ev.keeps": "{seat} оставляет карты",
        "ev.auction": "торги открываются с {n} ({seat})",
        "ev.talon": "прикуп: {cards}",
        "ev.takes_talon": "{seat} берёт прикуп",
        "ev.gives": "{seat} отдаёт {gifts}",
        "ev.gift": "{card} игроку {seat}",
        "ev.written_off": "{seat} расписывает раздачу ({n})",
        "result.made": "сыграл",
        "result.failed": "не сыграл",
        "result.written_off": "расписал",
        "reason.weak": "мало очков на руке",
        "reason.four_nines": "четыре девятки",
        "reason.talon_low": "мало очков в прикупе",
        "reason.talon_nines": "девятки в прикупе",
        "ann.marriage": "марьяж",
        "ann.aces": "тузовый марьяж",
        "phase.after_pass_window": "после передачи карт",
        "phase.auction": "торги",
        "phase.blind_offer": "предложение играть втёмную",
        "phase.contract": "назначение игры",
        "phase.deal_over": "раздача окончена",
        "phase.next_deal": "следующая раздача",
        "phase.finished": "партия окончена",
        "phase.passing": "передача карт",
        "phase.play": "розыгрыш",
        "phase.pre_auction": "перед торгами",
        "phase.redeal": "пересдача",
        "phase.redeal_window": "можно потребовать пересдачу",
        "phase.talon_open": "прикуп открыт",
        "phase.talon_step": "прикуп",
        "phase.talon_window": "прикуп",
        "phase.waiting": "ожидание",
        "shown.aces": "четыре туза {value}",
        "shown.marriage": "марьяж {suit} {value}",
    },
)


def _code(lang: Lang, prefix: str, code: str) -> str:
    """A code of the game (a result, a redeal's reason, an announcement) in ``lang``."""
    return WORDS.code(lang, prefix, code)


def result_text(result: str, lang: Lang = DEFAULT_LANG) -> str:
    """A deal's result on the score sheet in ``lang`` ("made", «сыграл»)."""
    return _code(lang, "result", result)


def phase_text(phase: str, lang: Lang = DEFAULT_LANG) -> str:
    """The phase of the deal in ``lang`` ("auction", «торги»)."""
    return _code(lang, "phase", phase)


SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def announcement_text(kind: str, value: int, lang: Lang = DEFAULT_LANG) -> str:
    """An announcement as the table shows it: "four aces 200", "♥ marriage 100" («марьяж ♥ 100»)."""
    if kind == "aces":
        return WORDS.say(lang, "shown.aces", value=value)
    return WORDS.say(lang, "shown.marriage", suit=SUIT_SIGNS.get(kind, kind), value=value)


def _card(card: str) -> str:
    return "?" if card == UNKNOWN else card


def describe(cmd: ThousandCommand, lang: Lang = DEFAULT_LANG) -> str:
    """A legal move in words: "Deal", "105", "Pass", "Contract 120", "KH + marriage",
    "QS → p2, 9H → p3"."""
    say = WORDS.say
    if isinstance(cmd, Ready):
        return say(lang, "ready")
    if isinstance(cmd, DeclareBlind):
        return say(lang, "blind")
    if isinstance(cmd, DeclineBlind):
        return say(lang, "look")
    if isinstance(cmd, KeepHand):
        return say(lang, "keep")
    if isinstance(cmd, ClaimRedeal):
        return say(lang, "redeal", reason=_code(lang, "reason", cmd.reason))
    if isinstance(cmd, Bid):
        return str(cmd.amount)
    if isinstance(cmd, Pass):
        return say(lang, "pass")
    if isinstance(cmd, SetContract):
        return say(lang, "contract", n=cmd.amount)
    if isinstance(cmd, WriteOff):
        return say(lang, "write_off")
    if isinstance(cmd, GiveCards):
        gifts = ", ".join(say(lang, "gift", card=c, seat=s) for s, c in sorted(cmd.gifts.items()))
        return gifts + (say(lang, "face_up") if cmd.face_up else "")
    assert isinstance(cmd, Play)
    if cmd.announce == "marriage":
        return say(lang, "with_marriage", card=cmd.card)
    if cmd.announce == "aces":
        return say(lang, "with_aces", card=cmd.card)
    return cmd.card


def line(e: Any, lang: Lang = DEFAULT_LANG) -> str | None:
    """The log line of an event as its viewer sees it, from the event as redacted for its viewer
    (a card it may not see is written "?"). ``e`` is already redacted
    for that viewer (``Decider.event_text`` is ``words.redacted_lines(redact, line)``)."""
    say = WORDS.say
    if e is None:
        return None
    if isinstance(e, SeatReady):
        return say(lang, "ev.ready", seat=e.seat)
    if isinstance(e, DealDealt):
        return say(lang, "ev.dealt", n=e.deal_no + 1, dealer=e.dealer)
    if isinstance(e, BidMade):
        return say(lang, "ev.bids", seat=e.seat, n=e.amount)
    if isinstance(e, Passed):
        return say(lang, "ev.passes", seat=e.seat)
    if isinstance(e, DeclarerChosen):
        return say(lang, "ev.declares", seat=e.seat, n=e.bid)
    if isinstance(e, ContractSet):
        return say(lang, "ev.plays_contract", seat=e.declarer, n=e.amount)
    if isinstance(e, CardPlayed):
        if e.announce != "none":
            announce = _code(lang, "ann", e.announce)
            return say(lang, "ev.plays_announce", seat=e.seat, card=e.card, announce=announce, value=e.value)
        return say(lang, "ev.plays", seat=e.seat, card=e.card)
    if isinstance(e, TrickTaken):
        return say(lang, "ev.trick", n=e.trick_no, seat=e.winner, points=e.points)
    if isinstance(e, DealScored):
        result = _code(lang, "result", e.result)
        return say(lang, "ev.scored", n=e.deal_no, seat=e.declarer, contract=e.contract, result=result)
    if isinstance(e, RedealClaimed):
        return say(lang, "ev.redeal", reason=_code(lang, "reason", e.reason))
    if isinstance(e, BlindAnswered):
        return say(lang, "ev.blind" if e.blind else "ev.looks", seat=e.seat)
    if isinstance(e, HandShown):
        return say(lang, "ev.shows", seat=e.seat)
    if isinstance(e, HandKept):
        return say(lang, "ev.keeps", seat=e.seat)
    if isinstance(e, AuctionOpened):
        return say(lang, "ev.auction", n=e.standing_bid, seat=e.high_seat)
    if isinstance(e, TalonRevealed):
        return say(lang, "ev.talon", cards=" ".join(_card(c) for c in e.cards))
    if isinstance(e, TalonTaken):
        return say(lang, "ev.takes_talon", seat=e.declarer)
    if isinstance(e, CardsGiven):
        gifts = ", ".join(
            say(lang, "ev.gift", card=_card(c), seat=s) for s, c in zip(e.to, e.cards, strict=True)
        )
        return say(lang, "ev.gives", seat=e.declarer, gifts=gifts)
    if isinstance(e, WrittenOff):
        return say(lang, "ev.written_off", seat=e.declarer, n=e.amount)
    return None
