"""King's words in English and Russian: the games' names (the Russian ones as rules/king.md §4
gives them), what each game costs, and the sentences of the rules help and end reason
(domain/core/words.py)."""

from __future__ import annotations

from typing import Any

from contracts.games.king import KingRuleset
from domain.core.words import DEFAULT_LANG, Lang, Words

from . import scoring
from .rules import GAME_NAMES

GAME_NAMES_RU: dict[str, str] = {
    "NT": "Не брать взяток",
    "NH": "Не брать червей",
    "NB": "Не брать мальчиков",
    "NG": "Не брать девочек",
    "NK": "Не брать Кинга",
    "NL": "Не брать двух последних",
    "NE": "Ералаш на минус",
    "PT": "Брать взятки",
    "PB": "Брать мальчиков",
    "PG": "Брать девочек",
    "PH": "Брать червей",
    "PK": "Брать Кинга",
    "PL": "Брать 2 последние",
    "PE": "Ералаш на плюс",
    "HV": "Хвалёнка",
    "TR": "Игра с козырем",
    "AU": "Кинг с торговлей",
    "OT": "Отыгрыш",
}

WORDS = Words(
    en={
        "title": "King (Кинг)",
        "deals": "deal|deals",
        "games": "game|games",
        "players": "player|players",
        "cards": "card|cards",
        "unit.trick": "trick",
        "unit.heart": "heart",
        "unit.boy": "boy",
        "unit.girl": "queen",
        "unit.king": "K♥",
        "unit.last": "last-two trick",
        "cost.hv": "+{value} per trick (deal total {total})",
        "cost.au": "+{value} per trick; the declarer scores only the tricks above his bid",
        "cost.all": "every category at once: {each}",
        "cost.king": "{sign}{value} for K♥",
        "cost.unit": "{sign}{value} per {unit}",
        "cost.total": " (deal total {total})",
        "trump_deal.HV": "hvalenki (the declarer names trumps or another option, every trick scores)",
        "trump_deal.TR": "trump deals (every trick scores)",
        "trump_deal.AU": "auctioned trump deals (the high bidder names trumps)",
        "trump_deal.OT": "otyigrysh deals (every trick scores)",
        "goal": "Score the most points over a fixed series of deals, each played as a different game.",
        "plan.after": ", and {games} after them",
        "plan.fixed": "{deals} in a fixed order: {games}, then {hv} of {what}{after}.",
        "plan.ordered": "{deals}: every player in turn orders each game of the list once, and {hv} of {what}.",
        "win.total": "Score the highest total after the last deal. Each deal has its own game: in the negative "
        "ones you avoid taking what the game names, in the positive ones you take tricks.",
        "lose.games": "The games and what they cost: {listed}; {trump_name}: {trump_cost}.",
        "lose.early_end": "A negative deal ends early once nothing it counts is left to take.",
        "special.talon": ", a {n}-card talon",
        "special.deal": "{players}, {cards} each{talon}. Follow suit when you can.",
        "special.overtrump": " and overtrump.",
        "special.trump_end": ".",
        "special.must_trump": "Void in the led suit in a trump deal, you must trump{end}",
        "special.hearts_lead_ban": "No leading hearts while you hold another suit in: {games}.",
        "special.must": "must",
        "special.may": "may",
        "special.king_discard": "A player void in the led suit {mode} discard the King of hearts in: {games}.",
        "special.trump_lead": "Only the declarer may lead trumps.",
        "special.hv_buyout": "The other players may buy the right to declare a hvalenka.",
        "special.zero_sum": "Every deal's points add up to a fixed total (the score sheet checks each row).",
        "special.not_zero_sum": "The points do not add up to a fixed total (not zero-sum).",
        "special.compensation": "Every player starts with {value} points of compensation.",
        "end.all_played": "all {deals} played; the highest total wins (totals: {totals}).",
        "end.aborted": "the match was aborted when {who} abandoned it, after {played} of {deals}; nobody is "
        "ranked (totals: {totals}).",
    },
    ru={
        "title": "Кинг",
        "deals": "сдача|сдачи|сдач",
        "games": "игра|игры|игр",
        "players": "игрок|игрока|игроков",
        "cards": "карта|карты|карт",
        "unit.trick": "взятку",
        "unit.heart": "черву",
        "unit.boy": "мальчика",
        "unit.girl": "девочку",
        "unit.king": "K♥",
        "unit.last": "каждую из двух последних взяток",
        "cost.hv": "+{value} за взятку (всего за сдачу {total})",
        "cost.au": "+{value} за взятку; выигравший торговлю получает только за взятки сверх своего заказа",
        "cost.all": "всё сразу: {each}",
        "cost.king": "{sign}{value} за K♥",
        "cost.unit": "{sign}{value} за {unit}",
        "cost.total": " (всего за сдачу {total})",
        "trump_deal.HV": "хвалёнки (объявляющий называет козырь или другой вариант, очки приносит каждая "
        "взятка)",
        "trump_deal.TR": "игры с козырем (очки приносит каждая взятка)",
        "trump_deal.AU": "игры с торговлей (козырь называет выигравший торговлю)",
        "trump_deal.OT": "отыгрыш (очки приносит каждая взятка)",
        "goal": "Наберите больше всех очков за заданную серию сдач, в каждой из которых играется своя игра.",
        "plan.after": ", и ещё {games} после них",
        "plan.fixed": "{deals} в заданном порядке: {games}, затем {hv} — {what}{after}.",
        "plan.ordered": "{deals}: каждый игрок по очереди один раз заказывает каждую игру из списка, и ещё "
        "{hv} — {what}.",
        "win.total": "Наберите больше всех очков к концу последней сдачи. В каждой сдаче своя игра: в "
        "минусовых нужно не брать того, что названо в игре, в плюсовых — брать взятки.",
        "lose.games": "Игры и их цена: {listed}; {trump_name}: {trump_cost}.",
        "lose.early_end": "Минусовая сдача заканчивается досрочно, когда брать уже нечего из того, что в ней "
        "считается.",
        "special.talon": ", в прикупе {n}",
        "special.deal": "{players}, у каждого {cards}{talon}. Ходите в масть, если можете.",
        "special.overtrump": " и перебивать старшим козырем.",
        "special.trump_end": ".",
        "special.must_trump": "В козырной сдаче, если нет масти хода, нужно бить козырем{end}",
        "special.hearts_lead_ban": "Нельзя ходить с червей, пока есть другие масти, в играх: {games}.",
        "special.must": "обязан",
        "special.may": "может",
        "special.king_discard": "Игрок, у которого нет масти хода, {mode} сбросить Кинга (K♥) в играх: "
        "{games}.",
        "special.trump_lead": "Ходить с козыря может только объявляющий.",
        "special.hv_buyout": "Другие игроки могут перекупить право объявить хвалёнку.",
        "special.zero_sum": "Очки каждой сдачи в сумме дают постоянное число (запись проверяет каждую строку).",
        "special.not_zero_sum": "Сумма очков за сдачу не постоянна (игра не с нулевой суммой).",
        "special.compensation": "Каждому игроку в начале записывается компенсация: {value}.",
        "end.all_played": "сыграны все {deals}; побеждает наибольшая сумма (итоги: {totals}).",
        "end.aborted": "партия прервана: игрок {who} её покинул после {played} из {deals}; места не "
        "присуждаются (итоги: {totals}).",
    },
)


def game_name(game: str, lang: Lang = DEFAULT_LANG) -> str:
    return GAME_NAMES_RU[game] if lang == "ru" else GAME_NAMES[game]


def game_cost(r: KingRuleset, game: str, c: Any = None, lang: Lang = DEFAULT_LANG) -> str:
    """What a game of ruleset ``r`` costs; with the deal's contract ``c``, also the deal's total."""
    say = WORDS.say
    if game in ("HV", "TR", "OT"):
        return say(lang, "cost.hv", value=r.hv_trick, total=r.hv_trick * r.hand_size)
    if game == "AU":
        return say(lang, "cost.au", value=r.hv_trick)
    sign = "-" if game.startswith("N") else "+"
    total = scoring.expected_sum(r, c) if c is not None and c.game == game else None
    cats = scoring.CATEGORIES[game[1]]

    def per(k: str) -> str:
        return say(lang, "cost.unit", sign=sign, value=getattr(r.v, k), unit=say(lang, f"unit.{k}"))

    if len(cats) > 1:
        text = say(lang, "cost.all", each=", ".join(per(k) for k in cats))
    elif cats[0] == "king":
        text = say(lang, "cost.king", sign=sign, value=r.v.king)
    else:
        text = per(cats[0])
    return text + (say(lang, "cost.total", total=total) if total is not None else "")


# The table's words: a legal move's label and a line of the match log for each event.  Games keep
# their ids ("NH"), card ids stay as ids ("QS"; the page draws suit signs), suits are signs.
SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

TABLE_WORDS = Words(
    en={
        "mv.ready": "ready",
        "mv.order": "order {game}",
        "mv.pass": "pass",
        "mv.buy_for": "buy for {n}",
        "mv.accept": "accept",
        "mv.refuse": "refuse",
        "mv.trumps": "trumps {suit}",
        "mv.no_trump": "no trumps",
        "mv.by_last": "by the last",
        "mv.misere": "misère",
        "mv.raspis": "raspis",
        "mv.decline": "decline (by the last)",
        "mv.bid": "bid {n}",
        "mv.discard": "discard {cards}",
        "mv.pass_auto": "pass (automatic)",
        "mv.accepted": "accept ({n})",
        "phase.waiting": "waiting for every seat to be ready",
        "phase.ordering": "ordering a game",
        "phase.buyout": "buy-out offers",
        "phase.buyout_answer": "the declarer answers the best offer",
        "phase.declaring": "the declarer names the contract",
        "phase.auction": "trading auction",
        "phase.naming": "the high bidder names trumps",
        "phase.discard": "the orderer discards two cards",
        "phase.playing": "playing",
        "phase.scored": "deal scored — ready for the next one",
        "phase.finished": "match over",
        "note.hearts_lead_ban": "no hearts lead while you hold another suit",
        "note.king_discard": "void holder of K♥ must discard it",
        "note.trump_lead": "only the declarer leads trumps",
        "ev.ready": "{seat} is ready",
        "ev.dealt": "deal {n}, dealer {dealer}",
        "ev.dealt_game": "deal {n} ({game}), dealer {dealer}",
        "ev.ordered": "{seat} orders {game}",
        "ev.passes": "{seat} passes",
        "ev.talon": "talon {cards} to {seat}",
        "ev.buyout_offered": "{seat} offers {n} for the declaration",
        "ev.sells": "{seat} sells the declaration",
        "ev.keeps": "{seat} keeps the declaration",
        "ev.declared": "{seat} declares {option}",
        "ev.bids": "{seat} bids {n}",
        "ev.discarded": "{seat} discards two cards",
        "ev.plays": "{seat} plays {card}",
        "ev.trick": "trick {n} to {seat}",
        "ev.scored": "deal {n} ({game}): {points}",
        "ev.rest": "the rest of the deal",
        "ev.rest_shown": "the rest of the deal, the last card {card}",
        "ev.final": "final totals {totals}",
    },
    ru={
        "mv.ready": "готов",
        "mv.order": "заказать {game}",
        "mv.pass": "пас",
        "mv.buy_for": "перекупить за {n}",
        "mv.accept": "уступить",
        "mv.refuse": "оставить себе",
        "mv.trumps": "козырь {suit}",
        "mv.no_trump": "бескозырка",
        "mv.by_last": "по последней",
        "mv.misere": "мизер",
        "mv.raspis": "роспись",
        "mv.decline": "отказаться (по последней)",
        "mv.bid": "заказ {n}",
        "mv.discard": "снести {cards}",
        "mv.pass_auto": "пас (автоматически)",
        "mv.accepted": "уступает ({n})",
        "phase.waiting": "ждём готовности всех игроков",
        "phase.ordering": "заказ игры",
        "phase.buyout": "предложения перекупить",
        "phase.buyout_answer": "объявляющий отвечает на лучшее предложение",
        "phase.declaring": "объявляющий называет игру",
        "phase.auction": "торговля",
        "phase.naming": "выигравший торговлю называет козырь",
        "phase.discard": "заказавший сносит две карты",
        "phase.playing": "розыгрыш",
        "phase.scored": "сдача записана — готовы к следующей",
        "phase.finished": "партия окончена",
        "note.hearts_lead_ban": "нельзя ходить с червей, пока есть другие масти",
        "note.king_discard": "у кого нет масти хода, обязан сбросить K♥",
        "note.trump_lead": "с козыря ходит только объявляющий",
        "ev.ready": "{seat} готов",
        "ev.dealt": "сдача {n}, сдаёт {dealer}",
        "ev.dealt_game": "сдача {n} ({game}), сдаёт {dealer}",
        "ev.ordered": "{seat} заказывает {game}",
        "ev.passes": "{seat}: пас",
        "ev.talon": "прикуп {cards} — игроку {seat}",
        "ev.buyout_offered": "{seat} предлагает {n} за право объявить",
        "ev.sells": "{seat} уступает право объявить",
        "ev.keeps": "{seat} оставляет право объявить за собой",
        "ev.declared": "{seat} объявляет {option}",
        "ev.bids": "{seat} заказывает {n}",
        "ev.discarded": "{seat} сносит две карты",
        "ev.plays": "{seat} ходит {card}",
        "ev.trick": "взятка {n} — игроку {seat}",
        "ev.scored": "сдача {n} ({game}): {points}",
        "ev.rest": "остаток сдачи",
        "ev.rest_shown": "остаток сдачи, последняя карта {card}",
        "ev.final": "итоговые суммы {totals}",
    },
)

_OPTIONS = {"NO_TRUMP": "mv.no_trump", "BY_LAST": "mv.by_last", "MISERE": "mv.misere", "RASPIS": "mv.raspis"}


def _suit(suit: str | None) -> str:
    return SUIT_SIGNS.get(suit or "", suit or "")


def _option(lang: Lang, option: str | None, suit: str | None) -> str:
    """A hvalenka's option (DECLARE, rules/king.md §12.3) in ``lang``."""
    if option == "SUIT" or (not option and suit):
        return TABLE_WORDS.say(lang, "mv.trumps", suit=_suit(suit))
    key = _OPTIONS.get(option or "")
    return TABLE_WORDS.say(lang, key) if key else str(option or "")


def _game(game: str, suit: str | None) -> str:
    return f"{game} {_suit(suit)}" if suit else game


def describe(cmd: Any, lang: Lang = DEFAULT_LANG) -> str:
    """A legal move in words: "QS", "order NH", "trumps ♠", "by the last", "bid 3", "discard AC KS"."""
    from contracts.games import king as k

    say = TABLE_WORDS.say
    if isinstance(cmd, k.Play):
        return cmd.card
    if isinstance(cmd, k.Ready):
        return say(lang, "mv.ready")
    if isinstance(cmd, k.ChooseContract):
        return say(lang, "mv.order", game=_game(cmd.game, cmd.trump))
    if isinstance(cmd, k.PassOrder | k.PassBuyout | k.PassBid):
        return say(lang, "mv.pass")
    if isinstance(cmd, k.OfferBuyout):
        return say(lang, "mv.buy_for", n=cmd.tricks)
    if isinstance(cmd, k.AcceptBuyout):
        return say(lang, "mv.accept")
    if isinstance(cmd, k.RefuseBuyout):
        return say(lang, "mv.refuse")
    if isinstance(cmd, k.Declare):
        return _option(lang, cmd.option, cmd.suit)
    if isinstance(cmd, k.ChooseTrump):
        return say(lang, "mv.trumps", suit=_suit(cmd.suit)) if cmd.suit else say(lang, "mv.decline")
    if isinstance(cmd, k.Bid):
        return say(lang, "mv.bid", n=cmd.tricks)
    assert isinstance(cmd, k.Discard)
    return say(lang, "mv.discard", cards=" ".join(cmd.cards))


def auction_text(action: str, value: str, lang: Lang = DEFAULT_LANG) -> str:
    """One entry of the deal's auction (rules/king.md §12.9) in words: "order NH", "pass (automatic)",
    "buy for 2", "accept (2)", "trumps ♠", "bid 3"; game ids and card ids stay as the game writes them."""
    say = TABLE_WORDS.say
    if action == "order":
        return say(lang, "mv.order", game=value)
    if action == "pass_order":
        return say(lang, "mv.pass_auto" if value == "automatic" else "mv.pass")
    if action in ("pass_buyout", "pass_bid"):
        return say(lang, "mv.pass")
    if action == "offer_buyout":
        return say(lang, "mv.buy_for", n=value)
    if action == "accept":
        return say(lang, "mv.accepted", n=value)
    if action == "refuse":
        return say(lang, "mv.refuse")
    if action == "bid":
        return say(lang, "mv.bid", n=value)
    if action == "declare":
        option, _, suit = value.partition(" ")
        if option == "SUIT" and suit in SUIT_SIGNS:
            return _option(lang, option, suit)
        if option in _OPTIONS and not suit:
            return _option(lang, option, None)
        return value
    return f"{action} {value}" if value else action


def phase_text(phase: str, lang: Lang = DEFAULT_LANG) -> str:
    """The phase of the deal in words ("trading auction", «торговля»); an unknown phase as its id."""
    key = f"phase.{phase}"
    return TABLE_WORDS.say(lang, key) if key in TABLE_WORDS.table[lang] else phase


def contract_notes(
    hearts_lead_ban: bool, king_discard: bool, trump_lead: bool, lang: Lang = DEFAULT_LANG
) -> tuple[str, ...]:
    """The deal's lead and discard restrictions in words, in the order the table lists them."""
    flags = (
        ("note.hearts_lead_ban", hearts_lead_ban),
        ("note.king_discard", king_discard),
        ("note.trump_lead", trump_lead),
    )
    return tuple(TABLE_WORDS.say(lang, key) for key, on in flags if on)


def line(e: Any, lang: Lang = DEFAULT_LANG) -> str | None:
    """The log line of an event as a viewer sees it (already redacted for that viewer, rules/king.md
    §12.9: another seat's discards have no cards in it); None without one."""
    from contracts.games import king as k

    say = TABLE_WORDS.say
    if e is None:
        return None
    if isinstance(e, k.SeatReady):
        return say(lang, "ev.ready", seat=e.seat)
    if isinstance(e, k.Dealt):
        if e.game:
            return say(lang, "ev.dealt_game", n=e.deal_no, game=e.game, dealer=e.dealer)
        return say(lang, "ev.dealt", n=e.deal_no, dealer=e.dealer)
    if isinstance(e, k.ContractChosen):
        return say(lang, "ev.ordered", seat=e.seat, game=_game(e.game, e.trump))
    if isinstance(e, k.OrderPassed | k.BuyoutPassed | k.BidPassed):
        return say(lang, "ev.passes", seat=e.seat)
    if isinstance(e, k.TalonShown):
        return say(lang, "ev.talon", cards=" ".join(e.cards), seat=e.seat)
    if isinstance(e, k.BuyoutOffered):
        return say(lang, "ev.buyout_offered", seat=e.seat, n=e.tricks)
    if isinstance(e, k.BuyoutDecided):
        return say(lang, "ev.sells" if e.accepted else "ev.keeps", seat=e.seat)
    if isinstance(e, k.Declared):
        option = _option(lang, e.option, e.trump) + (f" ({e.last_card})" if e.last_card else "")
        return say(lang, "ev.declared", seat=e.seat, option=option)
    if isinstance(e, k.BidMade):
        return say(lang, "ev.bids", seat=e.seat, n=e.tricks)
    if isinstance(e, k.Discarded):
        return say(lang, "ev.discarded", seat=e.seat)
    if isinstance(e, k.CardPlayed):
        return say(lang, "ev.plays", seat=e.seat, card=e.card)
    if isinstance(e, k.TrickTaken):
        return say(lang, "ev.trick", n=e.trick_no, seat=e.winner)
    if isinstance(e, k.DealScored):
        points = " ".join(str(p) for p in e.row.points)
        return say(lang, "ev.scored", n=e.row.deal_no, game=e.row.game, points=points)
    if isinstance(e, k.RestDealt):
        return say(lang, "ev.rest_shown", card=e.shown) if e.shown else say(lang, "ev.rest")
    if isinstance(e, k.MatchScored):
        return say(lang, "ev.final", totals=" ".join(str(t) for t in e.totals))
    return None
