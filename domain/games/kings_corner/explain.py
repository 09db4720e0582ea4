"""Kings in the Corner in words for players, in English and Russian (rules/kings-corner.md §4.1;
the Russian terms are seed 003's «Короли в углах»: колода, крест, угол, стопка, штрафные очки,
раунд, партия, выбывает): a ruleset's help and why a match ended."""

from __future__ import annotations

from collections.abc import Mapping

from contracts.games.kings_corner import KingsCornerRuleset
from contracts.match import Outcome, RulesHelp
from domain.core.words import DEFAULT_LANG, Lang, Words, seat_list

from .state import KCState

WORDS = Words(
    en={
        "title": "Kings in the Corner",
        "rounds": "round|rounds",
        "cards": "card|cards",
        "points": "point|points",
        "jokers": "joker|jokers",
        "stand": "stands|stand",
        "build.down_alt_colour": "down in alternating colours (a red 9 on a black 10)",
        "build.down_in_suit": "down in the same suit",
        "build.up_in_suit": "up in the same suit",
        "draw.start": "at the start of your turn",
        "draw.end": "at the end of your turn",
        "draw.start_if_stuck": "at the start of your turn when you cannot play",
        "draw.until_playable": "until you can play, while the stock lasts",
        "points.K10_O1": "a King left in hand costs 10, any other card 1",
        "points.COUNT": "every card left in hand costs 1",
        "points.A25_F10_PIP": "an Ace left in hand costs 25, a face card 10, other cards their number",
        "points.A50_TF10_P5": "an Ace left in hand costs 50, 10 to King 10, 2 to 9 5",
        "points.F10_6T10_5_A5_1": "a face card left in hand costs 10, 6 to 10 5, Ace to 5 1",
        "points.A25_TF10_P5": "an Ace left in hand costs 25, 10 to King 10, 2 to 9 5",
        "points.ROBINSON": "cards left in hand cost their number (Jack 11, Queen 12, King 13)",
        "match.single_round": "The match is one round: the first player out of cards wins it.",
        "match.lowest_penalty": "the lowest penalty total",
        "match.highest_balance": "the highest balance",
        "match.fixed_rounds": "The match is {rounds}; {best} after the last round wins.",
        "match.reach_or_exceed": "reaches or passes {value}",
        "match.exceed": "passes {value}",
        "match.target": "The match ends after the round in which a penalty total {compare}; the lowest total "
        "wins.",
        "match.elimination": "A player whose penalty total reaches {value} drops out; the last player left "
        "wins.",
        "goal": "Be the first to play every card from your hand onto the piles around the stock.",
        "win.go_out": "Go out: play every card in your hand onto the piles around the stock to win the round.",
        "win.penalty": "At the end of a round the others score penalty points: {points}.",
        "win.chips": "chips",
        "win.pool": "a pool",
        "win.settlement": "Played for {what}: ante {ante}, {idle} per idle turn; the player going out collects "
        "{per_card} per card and {per_king} per King left.",
        "win.tie": "A tie for first place plays another round.",
        "lose.blocked": "A round ends blocked when the stock is empty and nobody can play: everybody then "
        "scores the cards left in hand.",
        "lose.resign": "Resigning leaves the match: you rank last, and the others play on (D3).",
        "lose.kings_enforce": "A King must be played to a corner at the first chance.",
        "lose.kings_penalty3": "A King not played to a corner at the first chance costs 3 points.",
        "special.draw": "Draw {cards} {when}; with the stock empty nobody draws.",
        "special.build": "The cross piles build {cross}; the corner piles start with a King and build {corner}.",
        "special.empty_except_king": "An empty cross pile takes any card except a King.",
        "special.empty_any": "An empty cross pile takes any card.",
        "special.move_pile": "A whole pile may move onto another pile when its bottom card fits there.",
        "special.king_pile": "A pile starting with a King may move into an empty corner.",
        "special.run": "A run of cards from your hand may be played onto a pile in one move.",
        "special.after_stock": "You may go out only once the stock is empty.",
        "special.draw3": "Going out while a cross pile is empty makes you draw 3 cards instead.",
        "special.two_decks": "Two decks are shuffled together.",
        "special.jokers": "{jokers} {stand} in for any card; a joker left in hand costs {penalty}.",
        "special.first_turn_out": "Going out on your first turn adds {value} to your penalty.",
        "special.corner_ace": "Completing a corner pile King down to Ace takes {points} off.",
        "end.penalty_totals": "penalty totals",
        "end.balances": "balances",
        "end.a_player": "a player",
        "end.nobody": "nobody",
        "end.resigned": "{who} resigned, leaving {left} ({word}: {totals}).",
        "end.single_round": "the one round is over",
        "end.fixed_rounds": "all {rounds} are played",
        "end.target": "a total reached {value}",
        "end.elimination": "only one player is left in",
        "end.lowest": "lowest",
        "end.highest": "highest",
        "end.over": "{reason}; the {best} total wins ({word}: {totals}).",
    },
    ru={
        "title": "Короли в углах",
        "rounds": "раунд|раунда|раундов",
        "cards": "карту|карты|карт",
        "points": "очко|очка|очков",
        "jokers": "джокер|джокера|джокеров",
        "stand": "заменяет|заменяют|заменяют",
        "build.down_alt_colour": "по убыванию, чередуя цвета (красную девятку на чёрную десятку)",
        "build.down_in_suit": "по убыванию в одной масти",
        "build.up_in_suit": "по возрастанию в одной масти",
        "draw.start": "в начале хода",
        "draw.end": "в конце хода",
        "draw.start_if_stuck": "в начале хода, если нечего выложить",
        "draw.until_playable": "до тех пор, пока не сможете выложить карту, если в колоде ещё есть карты",
        "points.K10_O1": "король, оставшийся на руке, стоит 10, любая другая карта — 1",
        "points.COUNT": "каждая карта, оставшаяся на руке, стоит 1",
        "points.A25_F10_PIP": "туз, оставшийся на руке, стоит 25, картинка — 10, остальные карты — по "
        "номиналу",
        "points.A50_TF10_P5": "туз, оставшийся на руке, стоит 50, от 10 до короля — 10, от 2 до 9 — 5",
        "points.F10_6T10_5_A5_1": "картинка, оставшаяся на руке, стоит 10, от 6 до 10 — 5, от туза до 5 — 1",
        "points.A25_TF10_P5": "туз, оставшийся на руке, стоит 25, от 10 до короля — 10, от 2 до 9 — 5",
        "points.ROBINSON": "карты, оставшиеся на руке, стоят свой номинал (валет 11, дама 12, король 13)",
        "match.single_round": "Партия — один раунд: побеждает тот, кто первым остался без карт.",
        "match.lowest_penalty": "наименьшая сумма штрафных очков",
        "match.highest_balance": "наибольший баланс",
        "match.fixed_rounds": "Партия — {rounds}; после последнего раунда побеждает {best}.",
        "match.reach_or_exceed": "достигает {value} или превышает",
        "match.exceed": "превышает {value}",
        "match.target": "Партия заканчивается после раунда, в котором чья-то сумма штрафных очков {compare}; "
        "побеждает наименьшая сумма.",
        "match.elimination": "Игрок, чья сумма штрафных очков достигает {value}, выбывает; побеждает последний "
        "оставшийся.",
        "goal": "Первым выложите все карты с руки на стопки вокруг колоды.",
        "win.go_out": "Останьтесь без карт: чтобы выиграть раунд, выложите все карты с руки на стопки вокруг "
        "колоды.",
        "win.penalty": "В конце раунда остальные получают штрафные очки: {points}.",
        "win.chips": "фишки",
        "win.pool": "общий банк",
        "win.settlement": "Игра на {what}: ставка {ante}, {idle} за каждый ход без выкладывания; тот, кто "
        "остался без карт, получает по {per_card} за каждую карту и по {per_king} за каждого короля на руках "
        "у соперников.",
        "win.tie": "При равенстве за первое место играется ещё один раунд.",
        "lose.blocked": "Раунд заканчивается, если колода пуста и никто не может выложить карту: тогда все "
        "получают очки за карты, оставшиеся на руке.",
        "lose.resign": "Сдавшийся выходит из партии и занимает последнее место, остальные играют дальше (D3).",
        "lose.kings_enforce": "Короля нужно выложить в угол при первой возможности.",
        "lose.kings_penalty3": "Король, не выложенный в угол при первой возможности, стоит 3 штрафных очка.",
        "special.draw": "Берите из колоды {cards} {when}; когда колода пуста, никто не добирает.",
        "special.build": "На стопки креста карты кладут {cross}; стопки в углах начинаются с короля, и на них "
        "кладут {corner}.",
        "special.empty_except_king": "На свободное место креста можно положить любую карту, кроме короля.",
        "special.empty_any": "На свободное место креста можно положить любую карту.",
        "special.move_pile": "Целую стопку можно перенести на другую, если её нижняя карта туда подходит.",
        "special.king_pile": "Стопку, начинающуюся с короля, можно перенести в свободный угол.",
        "special.run": "Последовательность карт с руки можно выложить на стопку за один раз.",
        "special.after_stock": "Остаться без карт можно только после того, как колода опустеет.",
        "special.draw3": "Если вы остаётесь без карт, когда в кресте есть свободное место, вместо этого вы "
        "берёте 3 карты.",
        "special.two_decks": "Две колоды перемешиваются вместе.",
        "special.jokers": "{jokers} {stand} любую карту; джокер, оставшийся на руке, стоит {penalty}.",
        "special.first_turn_out": "Если вы остались без карт за первый же ход, к вашим штрафным очкам "
        "прибавляется {value}.",
        "special.corner_ace": "Собранная угловая стопка от короля до туза снимает {points}.",
        "end.penalty_totals": "штрафные очки",
        "end.balances": "баланс",
        "end.a_player": "игрок",
        "end.nobody": "никого",
        "end.resigned": "сдались: {who}; в игре остались: {left} ({word}: {totals}).",
        "end.single_round": "единственный раунд сыгран",
        "end.fixed_rounds": "сыграны все {rounds}",
        "end.target": "чья-то сумма достигла {value}",
        "end.elimination": "в игре остался один игрок",
        "end.lowest": "наименьшая",
        "end.highest": "наибольшая",
        "end.over": "{reason}; побеждает {best} сумма ({word}: {totals}).",
    },
)


def _match_end(rs: KingsCornerRuleset, lang: Lang) -> str:
    say = WORDS.say
    v = rs.match_end_value
    lower = rs.winner == "lowest_total"
    if rs.match_end == "single_round":
        return say(lang, "match.single_round")
    if rs.match_end == "fixed_rounds":
        best = say(lang, "match.lowest_penalty" if lower else "match.highest_balance")
        return say(lang, "match.fixed_rounds", rounds=WORDS.count(lang, "rounds", v), best=best)
    if rs.match_end == "target":
        key = "match.reach_or_exceed" if rs.target_compare == "reach_or_exceed" else "match.exceed"
        return say(lang, "match.target", compare=say(lang, key, value=v))
    return say(lang, "match.elimination", value=v)


def rules_help(rs: KingsCornerRuleset, lang: Lang = DEFAULT_LANG) -> RulesHelp:
    say = WORDS.say
    win = [say(lang, "win.go_out"), _match_end(rs, lang)]
    if rs.settlement == "penalty":
        win.append(say(lang, "win.penalty", points=say(lang, f"points.{rs.scoring_table}")))
    else:
        win.append(
            say(
                lang,
                "win.settlement",
                what=say(lang, "win.chips" if rs.settlement == "chips" else "win.pool"),
                ante=rs.ante,
                idle=rs.idle_fee,
                per_card=rs.per_card,
                per_king=rs.per_king,
            )
        )
    if rs.tie_policy == "extra_round" and rs.match_end != "elimination":
        win.append(say(lang, "win.tie"))
    lose = [say(lang, "lose.blocked"), say(lang, "lose.resign")]
    if rs.mandatory_kings == "enforce":
        lose.append(say(lang, "lose.kings_enforce"))
    elif rs.mandatory_kings == "penalty3":
        lose.append(say(lang, "lose.kings_penalty3"))
    special = [
        say(
            lang,
            "special.draw",
            cards=WORDS.count(lang, "cards", rs.draw_count),
            when=say(lang, f"draw.{rs.draw_timing}"),
        ),
        say(
            lang,
            "special.build",
            cross=say(lang, f"build.{rs.cross_build}"),
            corner=say(lang, f"build.{rs.corner_build}"),
        ),
        say(
            lang,
            "special.empty_except_king"
            if rs.empty_cross_accepts == "any_except_king"
            else "special.empty_any",
        ),
        say(lang, "special.move_pile"),
    ]
    if rs.king_pile_to_corner:
        special.append(say(lang, "special.king_pile"))
    if rs.run_play_action:
        special.append(say(lang, "special.run"))
    if rs.going_out == "after_stock_exhausted":
        special.append(say(lang, "special.after_stock"))
    elif rs.going_out == "draw3_if_open_cross":
        special.append(say(lang, "special.draw3"))
    if rs.decks == 2:
        special.append(say(lang, "special.two_decks"))
    if rs.jokers:
        special.append(
            say(
                lang,
                "special.jokers",
                jokers=WORDS.count(lang, "jokers", rs.jokers),
                stand=WORDS.word(lang, "stand", rs.jokers),
                penalty=rs.joker_penalty,
            )
        )
    if rs.first_turn_out_adjust:
        special.append(say(lang, "special.first_turn_out", value=rs.first_turn_out_adjust))
    if rs.corner_ace_bonus:
        special.append(
            say(lang, "special.corner_ace", points=WORDS.count(lang, "points", rs.corner_ace_bonus))
        )
    return RulesHelp(
        game="kings-corner",
        title=say(lang, "title"),
        goal=say(lang, "goal"),
        win=tuple(win),
        lose=tuple(lose),
        special=tuple(special),
    )


def end_text(state: KCState, out: Outcome, names: Mapping[str, str], lang: Lang = DEFAULT_LANG) -> str:
    """Why the match ended, with the final totals ("3 rounds played; totals: ann 4, bob 12")."""
    say = WORDS.say
    rs = state.ruleset
    seats = state.seats
    totals = seat_list(seats, state.totals, names)
    word = say(lang, "end.penalty_totals" if rs.settlement == "penalty" else "end.balances")
    if out.reason == "resignation":
        gone = [names.get(s, s) for s, r in zip(seats, state.resigned, strict=False) if r]
        left = [names.get(s, s) for s, r in zip(seats, state.resigned, strict=False) if not r]
        return say(
            lang,
            "end.resigned",
            who=", ".join(gone) or say(lang, "end.a_player"),
            left=", ".join(left) or say(lang, "end.nobody"),
            word=word,
            totals=totals,
        )
    best = say(lang, "end.lowest" if rs.winner == "lowest_total" else "end.highest")
    v = rs.match_end_value
    reason = {
        "single_round": say(lang, "end.single_round"),
        "fixed_rounds": say(lang, "end.fixed_rounds", rounds=WORDS.count(lang, "rounds", v)),
        "target": say(lang, "end.target", value=v),
        "elimination": say(lang, "end.elimination"),
    }[rs.match_end]
    return say(lang, "end.over", reason=reason, best=best, word=word, totals=totals)
