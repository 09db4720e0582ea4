"""Draughts' rules and endings in words (English and Russian): the rules help of a ruleset, why a
game ended, whose turn it is, and the draw rules that will end the game soon."""

from __future__ import annotations

from collections.abc import Mapping

from contracts.games.draughts import DraughtsRuleset
from contracts.match import Outcome, RulesHelp
from domain.core.words import DEFAULT_LANG, Lang, Words

from .rules import BALANCE_KEYS
from .state import DraughtsState

WORDS = Words(
    en={
        "title": "Russian draughts",
        "goal": "Take all the other side's pieces or leave it without a move. White moves first.",
        "goal.giveaway": "Giveaway: lose all your pieces, or be left without a move, before the other side does. "
        "White moves first.",
        "win": "A side with no pieces, or no legal move, on its turn has lost.",
        "win.giveaway": "A side with no pieces, or no legal move, on its turn has won.",
        "move": "Men move one square diagonally forward; kings fly any distance along a diagonal.",
        "capture": "Capturing is compulsory, forwards and backwards, and a capture goes on to the end; "
        "the captured pieces come off only when the move ends (the Turkish strike).",
        "choice.free": "When there are several captures you choose any of them.",
        "choice.majority": "You must take the most pieces you can (men and kings count alike).",
        "crown.continue": "A man reaching the far rank in mid-capture becomes a king and goes on as a king.",
        "crown.end": "A man is crowned only where its move ends; in mid-capture it goes on as a man.",
        "notation": "Write a move as its squares: c3-d4, or every landing square of a capture, c3:e5:g3 "
        "(22-18, 22x15x24); the first and last squares with any landing squares between (c3:g3) are enough "
        "when they name one move, and a whole path always names its own move.",
        "repetition": "The third time the same position comes with the same side to move, it is a draw.",
        "three_kings": "Three kings (or more) against a lone king: a draw if the king is not taken by the "
        "strong side's {n}th move.",
        "main_road": "Three pieces with a king against a lone king on the main road a1-h8: a draw after {n} "
        "moves of the strong side.",
        "balance": "With a king on each side and no capture or crowning: a draw after {moves} moves each.",
        "balance.item": "{n} with {pieces} pieces",
        "kings_only": "{n} moves each with only kings moving and no capture: a draw.",
        "end.no_pieces": "{loser} has no pieces left.",
        "end.no_moves": "{loser} has no legal move.",
        "end.no_pieces.giveaway": "{winner} has no pieces left and wins the giveaway.",
        "end.no_moves.giveaway": "{winner} has no legal move and wins the giveaway.",
        "end.repetition": "Draw: the same position came three times.",
        "end.three_kings": "Draw: the three kings did not take the lone king in {n} moves.",
        "end.main_road": "Draw: the lone king held the main road for {n} moves.",
        "end.balance": "Draw: the balance of forces did not change.",
        "end.kings_only": "Draw: only kings moved for {n} moves each.",
        "turn": "{side} to move",
        "turn.capture": "{side} to move and must capture",
        "white": "White",
        "black": "Black",
        "warn.kings_only": "Draw by the kings-only rule in {n} more plies.",
        "warn.balance": "Draw by the balance rule in {n} more plies.",
        "warn.three_kings": "Draw unless the lone king is taken within {n} moves.",
        "warn.main_road": "Draw unless the king on the main road is taken within {n} moves.",
    },
    ru={
        "title": "Русские шашки",
        "goal": "Побейте все шашки соперника или лишите его хода. Первыми ходят белые.",
        "goal.giveaway": "Поддавки: раньше соперника отдайте все свои шашки или останьтесь без хода. "
        "Первыми ходят белые.",
        "win": "Сторона, у которой в свой ход нет шашек или нет хода, проиграла.",
        "win.giveaway": "Сторона, у которой в свой ход нет шашек или нет хода, выиграла.",
        "move": "Простые ходят на одно поле по диагонали вперёд; дамки — на любое расстояние по диагонали.",
        "capture": "Бить обязательно, вперёд и назад, и до конца; побитые шашки снимаются только после "
        "хода (турецкий удар).",
        "choice.free": "Из нескольких взятий можно выбрать любое.",
        "choice.majority": "Бить нужно наибольшее число шашек (простые и дамки считаются одинаково).",
        "crown.continue": "Простая, дошедшая до последнего ряда во время взятия, становится дамкой и бьёт дальше "
        "как дамка.",
        "crown.end": "Простая становится дамкой только там, где закончила ход; во время взятия бьёт дальше как "
        "простая.",
        "notation": "Ход записывается полями: c3-d4, а взятие — всеми полями, куда шашка встаёт: c3:e5:g3 "
        "(22-18, 22x15x24); достаточно первого и последнего поля с любыми промежуточными (c3:g3), если они "
        "называют один ход, а полный путь всегда называет свой ход.",
        "repetition": "Если одна и та же позиция при том же очередном ходе повторилась трижды — ничья.",
        "three_kings": "Три дамки (или больше) против одинокой дамки: ничья, если она не взята к {n}-му ходу "
        "сильнейшей стороны.",
        "main_road": "Три шашки с дамкой против одинокой дамки на большой дороге a1-h8: ничья через {n} ходов "
        "сильнейшей стороны.",
        "balance": "Если у обеих сторон есть дамки и не было ни взятия, ни превращения: ничья через {moves} ходов "
        "каждой стороны.",
        "balance.item": "{n} при {pieces} шашках",
        "kings_only": "{n} ходов каждой стороны только дамками и без взятий — ничья.",
        "end.no_pieces": "У стороны «{loser}» не осталось шашек.",
        "end.no_moves": "У стороны «{loser}» нет хода.",
        "end.no_pieces.giveaway": "У стороны «{winner}» не осталось шашек — она выиграла в поддавки.",
        "end.no_moves.giveaway": "У стороны «{winner}» нет хода — она выиграла в поддавки.",
        "end.repetition": "Ничья: позиция повторилась трижды.",
        "end.three_kings": "Ничья: три дамки не взяли одинокую дамку за {n} ходов.",
        "end.main_road": "Ничья: одинокая дамка удержала большую дорогу {n} ходов.",
        "end.balance": "Ничья: соотношение сил не менялось.",
        "end.kings_only": "Ничья: {n} ходов каждой стороны ходили только дамки.",
        "turn": "Ход: {side}",
        "turn.capture": "Ход: {side}, бить обязательно",
        "white": "белые",
        "black": "чёрные",
        "warn.kings_only": "Ничья по правилу хода дамками через {n} полуходов.",
        "warn.balance": "Ничья по правилу соотношения сил через {n} полуходов.",
        "warn.three_kings": "Ничья, если одинокая дамка не будет взята за {n} ходов.",
        "warn.main_road": "Ничья, если дамка на большой дороге не будет взята за {n} ходов.",
    },
)
_PIECES = {"2-3": "2-3", "4-5": "4-5", "6-7": "6-7"}


def side_name(side: int, lang: Lang = DEFAULT_LANG) -> str:
    return WORDS.say(lang, "white" if side == 0 else "black")


def rules_help(rs: DraughtsRuleset, lang: Lang = DEFAULT_LANG) -> RulesHelp:
    say = WORDS.say
    giveaway = rs.win_condition == "giveaway"
    lose = []
    if rs.draw_repetition is not None:
        lose.append(say(lang, "repetition"))
    if rs.draw_three_kings is not None:
        lose.append(say(lang, "three_kings", n=rs.draw_three_kings))
    if rs.draw_main_road is not None:
        lose.append(say(lang, "main_road", n=rs.draw_main_road))
    if rs.draw_balance:
        items = ", ".join(
            say(lang, "balance.item", n=rs.draw_balance[k], pieces=_PIECES[k])
            for k in BALANCE_KEYS
            if k in rs.draw_balance
        )
        lose.append(say(lang, "balance", moves=items))
    if rs.draw_kings_only is not None:
        lose.append(say(lang, "kings_only", n=rs.draw_kings_only))
    return RulesHelp(
        game="draughts",
        title=say(lang, "title"),
        goal=say(lang, "goal.giveaway" if giveaway else "goal"),
        win=(say(lang, "win.giveaway" if giveaway else "win"),),
        lose=tuple(lose),
        special=(
            say(lang, "move"),
            say(lang, "capture"),
            say(lang, "choice.majority" if rs.capture_choice == "majority" else "choice.free"),
            say(lang, "crown.end" if rs.promotion_in_capture == "only_at_end" else "crown.continue"),
            say(lang, "notation"),
        ),
    )


def end_text(state: DraughtsState, out: Outcome, names: Mapping[str, str], lang: Lang = DEFAULT_LANG) -> str:
    """Why the game ended, in ``lang`` (the match layer words resignations, clocks and agreements)."""
    say = WORDS.say
    rs = state.rules
    if out.reason in ("no_pieces", "no_moves"):
        winner = 0 if out.ranks[0] == 1 else 1
        stuck = state.pos.side
        if rs.win_condition == "giveaway":
            return say(
                lang,
                f"end.{out.reason}.giveaway",
                winner=names.get(state.seats[winner], side_name(winner, lang)),
            )
        return say(lang, f"end.{out.reason}", loser=names.get(state.seats[stuck], side_name(stuck, lang)))
    counts = {
        "three_kings": rs.draw_three_kings,
        "main_road": rs.draw_main_road,
        "kings_only": rs.draw_kings_only,
    }
    if out.reason in ("repetition", "balance", "three_kings", "main_road", "kings_only"):
        return say(lang, f"end.{out.reason}", n=counts.get(out.reason) or "")
    return out.reason


def status_text(state: DraughtsState, capture: bool, lang: Lang = DEFAULT_LANG) -> str:
    if state.result is not None:
        return end_text(state, state.result, {}, lang)
    return WORDS.say(lang, "turn.capture" if capture else "turn", side=side_name(state.pos.side, lang))


def warnings(state: DraughtsState, lang: Lang = DEFAULT_LANG) -> tuple[str, ...]:
    """The draw rules that will end the game within a few moves, in words."""
    from .rules import balance_limit

    rs, c, pos = state.rules, state.counts, state.pos
    out = []
    if (
        rs.draw_three_kings is not None
        and c.three_kings is not None
        and rs.draw_three_kings - c.three_kings <= 5
    ):
        out.append(WORDS.say(lang, "warn.three_kings", n=rs.draw_three_kings - c.three_kings))
    if rs.draw_main_road is not None and c.main_road is not None:
        out.append(WORDS.say(lang, "warn.main_road", n=rs.draw_main_road - c.main_road))
    if pos.kings[0] and pos.kings[1]:
        limit = balance_limit(rs, pos.occupied().bit_count())
        if limit is not None and 2 * limit - c.stable <= 10:
            out.append(WORDS.say(lang, "warn.balance", n=2 * limit - c.stable))
    if rs.draw_kings_only is not None and 2 * rs.draw_kings_only - c.kings_only <= 10:
        out.append(WORDS.say(lang, "warn.kings_only", n=2 * rs.draw_kings_only - c.kings_only))
    return tuple(out) if state.result is None else ()
