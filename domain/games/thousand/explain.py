"""1000 (Тысяча) in words for players, in English and Russian (rules/thousand-and-farkle-flip.md
§2.20; the Russian terms are the rules file's: торги, прикуп, марьяж, бочка, болт, самосвал,
золотой кон, втёмную, расписать): a ruleset's help and why a match ended."""

from __future__ import annotations

from collections.abc import Mapping

from contracts.games.thousand import ThousandRuleset
from contracts.match import Outcome, RulesHelp
from domain.core.words import DEFAULT_LANG, Lang, Words, seat_list

from .state import TState

SUITS = {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}

WORDS = Words(
    en={
        "title": "1000 (Тысяча)",
        "points": "points|points",
        "bolts": "bolt|bolts",
        "cost": "costs|cost",
        "players": "player|players",
        "deals": "deal|deals",
        "goal": "Reach {target} {points} first, by winning the auction and making your bid.",
        "win.deal": "Be the first to reach {target} {points}. Each deal one player wins the auction, takes "
        "the talon, gives one card to each opponent and must take at least the bid in card points (A 11, 10 10, "
        "K 4, Q 3, J 2, 9 0) plus marriages; made, the bid is added, failed, it is taken off.",
        "win.defenders": "The defenders score the card points of their own tricks, rounded to 5.",
        "lose.barrel": "The barrel: at {at} {points} or more you sit on the barrel and must make a bid of "
        "{required} or more within {deals} to win; otherwise you fall back.",
        "bolt.zero_points": "a deal with no points",
        "bolt.zero_tricks": "a deal with no tricks",
        "bolt.in_a_row": " in a row",
        "lose.bolts": "Bolts: {trigger} earns a bolt; {bolts}{in_a_row} {cost} {penalty} {points}.",
        "lose.samosval": "Dump truck: a score of exactly 555 or −555 after a deal becomes 0.",
        "lose.writeoff": "The declarer may write a hopeless deal off instead of playing it (it costs the bid).",
        "special.players": "{players}{sitout}; 24 cards, 9 to A in four suits.",
        "special.sitout": " (the dealer sits out and scores the talon)",
        "bidder.left_of_dealer": "the player left of the dealer",
        "bidder.dealer": "the dealer",
        "special.jumps": " (jumps allowed)",
        "special.max": ", at most {n}",
        "special.bidding": "Bidding starts at {forced} ({bidder} must bid it) and goes up in steps of "
        "{step}{jumps}{max}.",
        "special.ace_marriage": "; four aces {value}",
        "special.marriages": "Marriages (King and Queen of a suit, announced when you lead one of them): "
        "{marriages}; the announced suit becomes trumps{aces}.",
        "special.must_trump": "; void, you must trump",
        "special.must_overtake": "; you must take the trick when you can",
        "special.follow": "Follow suit when you can{trump}{overtake}.",
        "special.golden_kon": "The golden kon: the first deals score double.",
        "special.blind": "You may bid blind, without looking at your cards (doubled).",
        "end.barrel": "{winner} made the barrel bid and passed {target} (scores: {scores}).",
        "end.target": "{winner} reached {target} (scores: {scores}).",
        "end.over": "the match is over",
        "end.other": "{reason} (scores: {scores}).",
    },
    ru={
        "title": "Тысяча (1000)",
        "points": "очко|очка|очков",
        "bolts": "болт|болта|болтов",
        "cost": "стоит|стоят|стоят",
        "players": "игрок|игрока|игроков",
        "deals": "раздачу|раздачи|раздач",
        "goal": "Первым наберите {target} {points}, выигрывая торги и выполняя свой заказ.",
        "win.deal": "Первым наберите {target} {points}. В каждой раздаче один игрок выигрывает торги, берёт "
        "прикуп, отдаёт по карте каждому сопернику и должен набрать не меньше заказанного: очки карт в своих "
        "взятках (A 11, 10 10, K 4, Q 3, J 2, 9 0) плюс марьяжи; если заказ сыгран, он прибавляется к счёту, "
        "если нет — вычитается.",
        "win.defenders": "Остальные игроки записывают себе очки карт из своих взяток, округлённые до 5.",
        "lose.barrel": "Бочка: набрав {at} {points} или больше, вы садитесь на бочку и, чтобы выиграть, должны "
        "за {deals} сыграть заказ не меньше {required}; иначе вы слетаете с бочки.",
        "bolt.zero_points": "раздача без очков",
        "bolt.zero_tricks": "раздача без взяток",
        "bolt.in_a_row": " подряд",
        "lose.bolts": "Болты: {trigger} — это болт; {bolts}{in_a_row} {cost} {penalty} {points}.",
        "lose.samosval": "Самосвал: если после раздачи у вас ровно 555 или −555 очков, счёт обнуляется.",
        "lose.writeoff": "Разыгрывающий может расписать безнадёжную раздачу, не играя её (заказ при этом "
        "вычитается).",
        "special.players": "{players}{sitout}; 24 карты, от 9 до туза в четырёх мастях.",
        "special.sitout": " (сдающий не играет и записывает себе прикуп)",
        "bidder.left_of_dealer": "игрок слева от сдающего",
        "bidder.dealer": "сдающий",
        "special.jumps": " (можно перескакивать)",
        "special.max": ", не выше {n}",
        "special.bidding": "Торги начинаются с {forced} ({bidder} обязан заказать столько) и идут с шагом "
        "{step}{jumps}{max}.",
        "special.ace_marriage": "; тузовый марьяж (четыре туза) {value}",
        "special.marriages": "Марьяжи (король и дама одной масти, объявляются, когда вы ходите одной из этих "
        "карт): {marriages}; объявленная масть становится козырем{aces}.",
        "special.must_trump": "; если масти нет, нужно бить козырем",
        "special.must_overtake": "; если можете взять взятку, обязаны её взять",
        "special.follow": "Ходите в масть, если можете{trump}{overtake}.",
        "special.golden_kon": "Золотой кон: первые раздачи идут в двойном размере.",
        "special.blind": "Можно играть втёмную, заказывая, не глядя в карты (очки удваиваются).",
        "end.barrel": "игрок {winner} сыграл заказ на бочке и перешёл за {target} (счёт: {scores}).",
        "end.target": "игрок {winner} набрал {target} (счёт: {scores}).",
        "end.over": "партия окончена",
        "end.other": "{reason} (счёт: {scores}).",
    },
)


def _marriages(rs: ThousandRuleset) -> str:
    parts = [f"{SUITS[p[0]]} {p[1:]}" for p in rs.marriage_values.split("_")]
    return ", ".join(parts)


def rules_help(rs: ThousandRuleset, lang: Lang = DEFAULT_LANG) -> RulesHelp:
    say, word = WORDS.say, WORDS.word
    n = rs.players()
    win = [
        say(lang, "win.deal", target=rs.target, points=word(lang, "points", rs.target)),
        say(lang, "win.defenders"),
    ]
    lose: list[str] = []
    if rs.barrel_on:
        lose.append(
            say(
                lang,
                "lose.barrel",
                at=rs.barrel_at,
                points=word(lang, "points", rs.barrel_at),
                required=rs.required(),
                deals=WORDS.count(lang, "deals", rs.barrel_attempts),
            )
        )
    if rs.bolt_limit:
        penalty = rs.penalty(rs.bolt_penalty)
        lose.append(
            say(
                lang,
                "lose.bolts",
                trigger=say(lang, "bolt.zero_points" if rs.bolt_trigger == "zero_points" else "bolt.zero_tricks"),
                bolts=WORDS.count(lang, "bolts", rs.bolt_limit),
                in_a_row=say(lang, "bolt.in_a_row") if rs.bolt_mode == "consecutive" and rs.bolt_limit > 1 else "",
                cost=word(lang, "cost", rs.bolt_limit),
                penalty=penalty,
                points=word(lang, "points", penalty),
            )
        )
    if rs.samosval:
        lose.append(say(lang, "lose.samosval"))
    if rs.writeoff_allowed:
        lose.append(say(lang, "lose.writeoff"))
    bidder = "bidder.left_of_dealer" if rs.forced_bidder == "left_of_dealer" else "bidder.dealer"
    special = [
        say(
            lang,
            "special.players",
            players=WORDS.count(lang, "players", n),
            sitout=say(lang, "special.sitout") if rs.sitout_4p else "",
        ),
        say(
            lang,
            "special.bidding",
            forced=rs.forced_bid,
            bidder=say(lang, bidder),
            step=rs.bid_step,
            jumps=say(lang, "special.jumps") if rs.bid_jumps else "",
            max=say(lang, "special.max", n=rs.max_contract) if rs.max_contract else "",
        ),
        say(
            lang,
            "special.marriages",
            marriages=_marriages(rs),
            aces=say(lang, "special.ace_marriage", value=rs.ace_marriage_value) if rs.ace_marriage else "",
        ),
        say(
            lang,
            "special.follow",
            trump=say(lang, "special.must_trump") if rs.must_trump_when_void else "",
            overtake=say(lang, "special.must_overtake") if rs.must_overtake else "",
        ),
    ]
    if rs.golden_kon:
        special.append(say(lang, "special.golden_kon"))
    if rs.blind_on:
        special.append(say(lang, "special.blind"))
    return RulesHelp(
        game="thousand",
        title=say(lang, "title"),
        goal=say(lang, "goal", target=rs.target, points=word(lang, "points", rs.target)),
        win=tuple(win),
        lose=tuple(lose),
        special=tuple(special),
    )


def end_text(state: TState, out: Outcome, names: Mapping[str, str], lang: Lang = DEFAULT_LANG) -> str:
    scores = seat_list(state.seats, state.scores, names)
    winner = next((names.get(s, s) for s, r in zip(state.seats, out.ranks, strict=False) if r == 1), "")
    target = state.rules.target
    if out.reason == "barrel":
        return WORDS.say(lang, "end.barrel", winner=winner, target=target, scores=scores)
    if out.reason == "target":
        return WORDS.say(lang, "end.target", winner=winner, target=target, scores=scores)
    reason = (out.reason or WORDS.say(lang, "end.over")).replace("_", " ")
    return WORDS.say(lang, "end.other", reason=reason, scores=scores)
