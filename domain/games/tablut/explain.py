"""Tablut's rules and endings in words (English and Russian): the rules help of a ruleset, why a
game ended, whose turn it is, the check, and what will end the game soon."""

from __future__ import annotations

from collections.abc import Mapping

from contracts.games.tablut import TablutRuleset
from contracts.match import Outcome, RulesHelp
from domain.core.words import DEFAULT_LANG, Lang, Words

from .board import ATTACKERS, KING, NAMES
from .state import TablutState

WORDS = Words(
    en={
        "title": "Tablut",
        "goal": "The defenders bring the king to {where}; the attackers capture him first. The attackers move "
        "first.",
        "where.corner": "a corner square",
        "where.edge": "any edge square",
        "win": "The defenders win when the king reaches {where}; the attackers win when they capture him.",
        "move": "Every piece, the king too, moves like a chess rook: along a rank or a file, over empty squares "
        "only.",
        "capture": "A piece is taken when an enemy moves so that it stands between that enemy and another "
        "hostile square on one line; moving between two enemies is safe.",
        "throne": "Only the king may stop on the throne e5{back}; {pass}{hostile}",
        "throne.back": " and come back to it",
        "throne.noback": " and, once he has left it, not even he",
        "throne.pass": "the others may cross it while it is empty",
        "throne.nopass": "nobody may cross it",
        "throne.hostile": ", and the empty throne is hostile to every piece.",
        "throne.friendly": ".",
        "corners": "Only the king may enter a corner; a corner is hostile to every piece.",
        "king.armed": "The king is armed: he captures like any other piece.",
        "king.unarmed": "The king is unarmed: he never helps to capture.",
        "king.strong": "The king is captured when attackers (or a corner or the empty throne) close every side of "
        "him: four in the open, three at the edge.",
        "king.weak": "The king is captured like any other piece, between an attacker and a hostile square.",
        "king.linnaeus": "On the throne the king is captured by four attackers, beside it by three, elsewhere by "
        "two like any piece.",
        "linnaean": "With the king on the throne and three attackers beside it, a defender on the fourth side is "
        "taken against the throne.",
        "no_moves.loss": "A side with no legal move loses.",
        "no_moves.draw": "A side with no legal move draws.",
        "repetition.draw3": "The third time a position comes with the same side to move, the game is drawn.",
        "repetition.loss3": "Whoever makes a position come for the third time loses.",
        "move_cap": "After the defenders' {n}th move the game is drawn.",
        "check": "A king who could reach an escape square next move is in check (shown, not said).",
        "notation": "Write a move as from-to, e.g. e2-c2; the captures may follow, e1-e4xd4xf4.",
        "end.escape": "The king escaped to {square}: the defenders win.",
        "end.king_captured": "The king was captured: the attackers win.",
        "end.no_moves.loss": "The {side} have no legal move and lose.",
        "end.no_moves.draw": "The {side} have no legal move: a draw.",
        "end.repetition.draw": "A draw: the position came for the third time.",
        "end.repetition.loss": "The {side} made the position come for the third time and lose.",
        "end.move_cap": "A draw: the defenders have made their {n} moves.",
        "turn": "The {side} to move",
        "turn.check": "The {side} to move; the king is in check ({ways})",
        "way": "way out|ways out",
        "attackers": "attackers",
        "defenders": "defenders",
        "warn.move_cap": "The game is drawn after {n} more moves of the defenders.",
        "warn.repetition": "This position has come twice: a third time ends the game.",
    },
    ru={
        "title": "Таблут",
        "goal": "Защитники ведут короля {where}; нападающие стараются взять его раньше. Первыми ходят "
        "нападающие.",
        "where.corner": "в угловое поле",
        "where.edge": "на любое поле края доски",
        "win": "Защитники выигрывают, когда король доходит {where}; нападающие — когда берут короля.",
        "move": "Все фигуры, и король тоже, ходят как ладья: по горизонтали или вертикали, только через пустые "
        "поля.",
        "capture": "Фигура взята, когда противник ходит так, что она оказывается зажатой между ним и другим "
        "враждебным полем на одной линии; встать между двумя противниками можно безопасно.",
        "throne": "Вставать на трон e5 может только король{back}; {pass}{hostile}",
        "throne.back": ", и он может вернуться на него",
        "throne.noback": ", а покинув его, и он не возвращается",
        "throne.pass": "остальные могут проходить через пустой трон",
        "throne.nopass": "проходить через трон нельзя никому",
        "throne.hostile": ", а пустой трон враждебен всем фигурам.",
        "throne.friendly": ".",
        "corners": "В угол может встать только король; угол враждебен всем фигурам.",
        "king.armed": "Король вооружён: он берёт фигуры, как все.",
        "king.unarmed": "Король безоружен: он никогда не участвует во взятии.",
        "king.strong": "Король взят, когда нападающие (или угол, или пустой трон) закрывают все его стороны: "
        "четыре в поле, три у края.",
        "king.weak": "Короля берут как любую фигуру — между нападающим и враждебным полем.",
        "king.linnaeus": "На троне короля берут четверо нападающих, рядом с троном — трое, в остальных местах — "
        "двое, как любую фигуру.",
        "linnaean": "Когда король на троне, а рядом с троном трое нападающих, защитник на четвёртой стороне "
        "берётся о трон.",
        "no_moves.loss": "Сторона, у которой нет хода, проигрывает.",
        "no_moves.draw": "Если у стороны нет хода — ничья.",
        "repetition.draw3": "Если позиция при том же очередном ходе повторилась трижды — ничья.",
        "repetition.loss3": "Кто повторил позицию в третий раз, тот проиграл.",
        "move_cap": "После {n}-го хода защитников — ничья.",
        "check": "Если король может следующим ходом уйти, ему «шах» (это показывается, говорить не нужно).",
        "notation": "Ход записывается как откуда-куда, например e2-c2; можно добавить взятия: e1-e4xd4xf4.",
        "end.escape": "Король ушёл на {square}: победа защитников.",
        "end.king_captured": "Король взят: победа нападающих.",
        "end.no_moves.loss": "У стороны «{side}» нет хода — она проиграла.",
        "end.no_moves.draw": "У стороны «{side}» нет хода — ничья.",
        "end.repetition.draw": "Ничья: позиция повторилась трижды.",
        "end.repetition.loss": "Сторона «{side}» повторила позицию в третий раз и проиграла.",
        "end.move_cap": "Ничья: защитники сделали свои {n} ходов.",
        "turn": "Ход: {side}",
        "turn.check": "Ход: {side}; королю шах ({ways} к уходу)",
        "way": "путь|пути|путей",
        "attackers": "нападающие",
        "defenders": "защитники",
        "warn.move_cap": "Ничья через {n} ходов защитников.",
        "warn.repetition": "Эта позиция была уже дважды: третий раз закончит игру.",
    },
)


def side_name(side: int, lang: Lang = DEFAULT_LANG) -> str:
    return WORDS.say(lang, "attackers" if side == ATTACKERS else "defenders")


def rules_help(rs: TablutRuleset, lang: Lang = DEFAULT_LANG) -> RulesHelp:
    say = WORDS.say
    where = say(lang, f"where.{rs.escape}")
    special = [
        say(lang, "move"),
        say(lang, "capture"),
        say(
            lang,
            "throne",
            back=say(lang, "throne.back" if rs.king_may_return else "throne.noback"),
            **{"pass": say(lang, "throne.pass" if rs.throne_pass == "all" else "throne.nopass")},
            hostile=say(lang, "throne.hostile" if rs.throne_empty_hostile else "throne.friendly"),
        ),
    ]
    if rs.corners == "special":
        special.append(say(lang, "corners"))
    special.append(say(lang, "king.armed" if rs.king_armed else "king.unarmed"))
    special.append(say(lang, f"king.{rs.king_capture}"))
    if rs.linnaean_capture:
        special.append(say(lang, "linnaean"))
    special += [say(lang, "check"), say(lang, "notation")]
    lose = [say(lang, f"no_moves.{rs.no_moves}")]
    if rs.repetition != "off":
        lose.append(say(lang, f"repetition.{rs.repetition}"))
    if rs.move_cap:
        lose.append(say(lang, "move_cap", n=rs.move_cap))
    return RulesHelp(
        game="tablut",
        title=say(lang, "title"),
        goal=say(lang, "goal", where=where),
        win=(say(lang, "win", where=where),),
        lose=tuple(lose),
        special=tuple(special),
    )


def end_text(state: TablutState, out: Outcome, names: Mapping[str, str], lang: Lang = DEFAULT_LANG) -> str:
    """Why the game ended, in ``lang`` (the match layer words resignations, clocks and agreements)."""
    say = WORDS.say
    last = state.history[-1] if state.history else None
    if out.reason == "escape":
        square = NAMES[last.to] if last is not None else NAMES[state.board.find(KING)]
        return say(lang, "end.escape", square=square)
    if out.reason == "king_captured":
        return say(lang, "end.king_captured")
    if out.reason == "no_moves":
        return say(lang, f"end.no_moves.{state.rules.no_moves}", side=side_name(state.side, lang))
    if out.reason == "repetition":
        if out.draw:
            return say(lang, "end.repetition.draw")
        return say(lang, "end.repetition.loss", side=side_name(1 - state.side, lang))
    if out.reason == "move_cap":
        return say(lang, "end.move_cap", n=state.rules.move_cap)
    return out.reason


def status_text(state: TablutState, lang: Lang = DEFAULT_LANG) -> str:
    if state.result is not None:
        return end_text(state, state.result, {}, lang)
    last = state.history[-1] if state.history else None
    if last is not None and last.check:
        ways = WORDS.count(lang, "way", last.routes)
        return WORDS.say(lang, "turn.check", side=side_name(state.side, lang), ways=ways)
    return WORDS.say(lang, "turn", side=side_name(state.side, lang))


def warnings(state: TablutState, lang: Lang = DEFAULT_LANG) -> tuple[str, ...]:
    if state.result is not None:
        return ()
    rs = state.rules
    out = []
    if rs.move_cap and rs.move_cap - state.defenders_moves <= 10:
        out.append(WORDS.say(lang, "warn.move_cap", n=rs.move_cap - state.defenders_moves))
    if rs.repetition != "off" and state.seen.get(state.key, 0) == 2:
        out.append(WORDS.say(lang, "warn.repetition"))
    return tuple(out)
