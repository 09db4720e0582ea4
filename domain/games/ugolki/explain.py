"""Ugolki in words for players, in English and Russian: a ruleset's help, why a game ended, and
the warnings before a rule-based loss (rules/ugolki.md §6).  Every sentence is derived from the
ruleset and the state, so clients show them and know no rules.  The Russian terms are the rules
file's («шашка», «дом», «темповое число», «вреднюги»)."""

from __future__ import annotations

from collections.abc import Mapping

from contracts.games.ugolki import UgolkiRuleset, UgolkiWarning
from contracts.match import Outcome, RulesHelp
from domain.core.words import DEFAULT_LANG, Lang, Words

from .geometry import geometry_for
from .state import BLACK, WHITE, UgolkiState

WORDS = Words(
    en={
        "title": "Ugolki (corners)",
        "side.0": "White",
        "side.1": "Black",
        "piece": "piece|pieces",
        "piece.acc": "piece|pieces",
        "move": "move|moves",
        "left": "left|left",
        "dirs.ORTH": "straight (along files and ranks)",
        "dirs.DIAG": "diagonally only",
        "dirs.ALL8": "in all eight directions",
        "leave_home.one": "a piece",
        "leave_home.more": "{pieces} or more",
        "leave_home.once": "checked once",
        "leave_home.every": "checked after every Black move from then on",
        "leave_home.rule": "Leave home in time (§6.2): a side that still has {still} in its own corner after "
        "Black's move {at} loses ({once}); if both sides do, it is a draw.",
        "long_game.tempo": "Long game (§6.4): after Black's move {n} the side with the lower tempo number (the "
        "pieces' total distance to the far corner, §7) wins; equal tempo is a draw.",
        "long_game.count": "Long game (§6.4): after Black's move {n} the side with more pieces in the opponent's "
        "corner wins; equal counts are a draw.",
        "move_cap.rule": "Move cap: after Black's move {n} the game is judged by tempo (the lower tempo number "
        "wins, equal is a draw).",
        "goal": "Move all {n} of your {pieces} from your corner into the opposite corner of the {b}x{b} board. "
        "White moves first.",
        "win.immediate": "The first side to fill the opposite corner wins.",
        "win.equalize": "Fill the opposite corner first. When White fills it, Black still plays one more move: "
        "if Black fills its corner with that move, the game is a draw (§6.1).",
        "return_home.rule": "No going back (§6.3): after your move {n}, ending a move in your own corner loses "
        "at once.",
        "repetition.rule": "Repetition (§6.5): the same position for the third time is a draw when both sides, "
        "or neither, still have pieces at home.",
        "passes.rule": "A side with no legal move passes; two passes in a row are a draw (§6.10).",
        "move.rule": "A turn moves one piece: a step to a neighbouring empty square {step}, or a jump {jump} "
        "over one adjacent piece, your own or the opponent's, to the empty square behind it; jumps may go on "
        "in the same turn. Nothing is captured.",
        "anti_lock.rule": "You may not cage an enemy piece with two of your pieces on each of its four sides "
        "(§6.7).",
        "mirror.first": "of White's first {n} moves",
        "mirror.all": "of White's moves",
        "mirror.rule": "Black may copy (mirror) at most {limit} {window} (§6.8).",
        "vrednyugi.rule": "Вреднюги (§6.9): once one side has left its corner completely, the other must move "
        "its pieces out of its own corner first.",
        "target_lock.rule": "A piece that has entered the target corner may not leave it again (§6.6).",
        "end.completion_draw": "both sides filled the opposite corner in the same number of moves.",
        "end.completion": "{side} filled the opposite corner first.",
        "end.leave_home_one": "a piece",
        "end.leave_home_more": "{pieces} or more",
        "end.leave_home_draw": "both sides still had {what} in their own corners after Black's move {n}.",
        "end.leave_home": "{side} still had {pieces} in its own corner after Black's move {n}.",
        "end.return_home": "{side} ended move {m} in its own corner, which loses after move {n}.",
        "end.rule_long_game": "the long-game rule",
        "end.rule_move_cap": "the move cap",
        "end.tempo": "after Black's move {n} {rule} judged the game by tempo (White {w}, Black {b})",
        "end.count": "after Black's move {n} the pieces in the opponent's corner were counted (White {w}, "
        "Black {b})",
        "end.equal": "{judged}: equal, a draw.",
        "end.lower_tempo": "{judged}: the lower tempo wins.",
        "end.more_pieces": "{judged}: more pieces win.",
        "end.repetition": "the same position arose for the third time.",
        "end.two_passes": "neither side had a legal move (two passes in a row).",
        "end.resigned": "{who} resigned.",
        "warn.may_stay": " (at most {n} may stay)",
        "warn.it": "it",
        "warn.all": "all {n}",
        "warn.leave_home": "{side}: {pieces} still at home{may_stay}, {moves} {left} to bring {what} out "
        "(checked after Black's move {check}).",
        "warn.return_home": "{side}: ending a move in your own corner now loses (after move {n}).",
        "warn.by_tempo": "the game is judged by tempo",
        "warn.by_count": "the game is judged by the count of pieces in the opponent's corner",
        "warn.by_cap": "the move cap ends the game, judged by tempo",
        "warn.judged": "After Black's move {at} {what}: {moves} {left}.",
    },
    ru={
        "title": "Уголки",
        "side.0": "белые",
        "side.1": "чёрные",
        "piece": "шашка|шашки|шашек",
        "piece.acc": "шашку|шашки|шашек",
        "move": "ход|хода|ходов",
        "left": "остался|осталось|осталось",
        "dirs.ORTH": "по прямой (по вертикалям и горизонталям)",
        "dirs.DIAG": "только по диагонали",
        "dirs.ALL8": "во всех восьми направлениях",
        "leave_home.one": "хотя бы одна шашка",
        "leave_home.more": "{pieces} или больше",
        "leave_home.once": "проверяется один раз",
        "leave_home.every": "проверяется после каждого хода чёрных начиная с этого",
        "leave_home.rule": "Вовремя выйти из дома (§6.2): сторона, у которой после {at}-го хода чёрных в своём "
        "углу ещё остаётся {still}, проигрывает ({once}); если так у обеих сторон — ничья.",
        "long_game.tempo": "Затянутая партия (§6.4): после {n}-го хода чёрных побеждает сторона с меньшим "
        "темповым числом (суммарное расстояние шашек до дальнего угла, §7); при равном темповом числе — ничья.",
        "long_game.count": "Затянутая партия (§6.4): после {n}-го хода чёрных побеждает сторона, у которой "
        "больше шашек в углу соперника; при равенстве — ничья.",
        "move_cap.rule": "Предел ходов: после {n}-го хода чёрных партию решает темповое число (побеждает "
        "меньшее, при равенстве — ничья).",
        "goal": "Переведите все {n} {pieces} из своего угла в противоположный угол доски {b}×{b}. "
        "Первыми ходят белые.",
        "win.immediate": "Побеждает сторона, первой заполнившая противоположный угол.",
        "win.equalize": "Заполните противоположный угол раньше соперника. Когда его заполняют белые, чёрные "
        "делают ещё один ход: если этим ходом чёрные заполняют свой угол, партия заканчивается вничью (§6.1).",
        "return_home.rule": "Без возврата (§6.3): после вашего {n}-го хода закончить ход в своём углу — "
        "немедленное поражение.",
        "repetition.rule": "Повторение (§6.5): позиция, возникшая в третий раз, — ничья, если шашки в доме "
        "остались у обеих сторон или ни у одной.",
        "passes.rule": "Сторона без допустимого хода пропускает ход; два пропуска подряд — ничья (§6.10).",
        "move.rule": "За ход передвигается одна шашка: шаг на соседнее свободное поле {step} или прыжок "
        "{jump} через одну соседнюю шашку, свою или чужую, на свободное поле за ней; прыжки можно продолжать "
        "в том же ходе. Шашки не рубят.",
        "anti_lock.rule": "Нельзя запирать шашку соперника, ставя по две свои шашки с каждой из четырёх её "
        "сторон (§6.7).",
        "mirror.first": "из первых {n} ходов белых",
        "mirror.all": "ходов белых",
        "mirror.rule": "Чёрные могут зеркально повторить не больше {limit} {window} (§6.8).",
        "vrednyugi.rule": "Вреднюги (§6.9): когда одна сторона полностью вывела шашки из своего угла, другая "
        "должна в первую очередь выводить шашки из своего.",
        "target_lock.rule": "Шашка, вошедшая в угол соперника, уже не может его покинуть (§6.6).",
        "end.completion_draw": "обе стороны заполнили противоположный угол за одинаковое число ходов.",
        "end.completion": "{side} первыми заполнили противоположный угол.",
        "end.leave_home_one": "хотя бы одну шашку",
        "end.leave_home_more": "{pieces} или больше",
        "end.leave_home_draw": "после {n}-го хода чёрных обе стороны всё ещё держали в своих углах {what}.",
        "end.leave_home": "после {n}-го хода чёрных {side} всё ещё держали в своём углу {pieces}.",
        "end.return_home": "{side} закончили свой {m}-й ход в своём углу, а после {n}-го хода это поражение.",
        "end.rule_long_game": "затянутой партии",
        "end.rule_move_cap": "предела ходов",
        "end.tempo": "после {n}-го хода чёрных по правилу {rule} партию решило темповое число (белые {w}, "
        "чёрные {b})",
        "end.count": "после {n}-го хода чёрных посчитали шашки в углу соперника (белые {w}, чёрные {b})",
        "end.equal": "{judged}: поровну, ничья.",
        "end.lower_tempo": "{judged}: побеждает меньшее темповое число.",
        "end.more_pieces": "{judged}: побеждает сторона, у которой их больше.",
        "end.repetition": "одна и та же позиция возникла в третий раз.",
        "end.two_passes": "ни у одной стороны не было допустимого хода (два пропуска подряд).",
        "end.resigned": "игрок {who} сдался.",
        "warn.may_stay": " (остаться могут не больше {n})",
        "warn.it": "её",
        "warn.all": "все {n}",
        "warn.leave_home": "{side}: дома ещё {pieces}{may_stay}; {left} {moves}, чтобы вывести {what} "
        "(проверка после {check}-го хода чёрных).",
        "warn.return_home": "{side}: теперь закончить ход в своём углу — поражение (после {n}-го хода).",
        "warn.by_tempo": "партию решит темповое число",
        "warn.by_count": "партию решит число шашек в углу соперника",
        "warn.by_cap": "партия закончится по пределу ходов, решит темповое число",
        "warn.judged": "После {at}-го хода чёрных {what}: {left} {moves}.",
    },
)


def _side(lang: Lang, side: int, capital: bool = False) -> str:
    word = WORDS.say(lang, f"side.{side}")
    return word[:1].upper() + word[1:] if capital else word


def leave_home_check(rs: UgolkiRuleset) -> int | None:
    """Black's move number after which the leave-home rule (§6.2) is first checked; None: no rule.
    STAGE(N) and CONT(>=N) check after Black's N-th move, CONT(>N) after Black's (N+1)-th."""
    if rs.leave_home == "none":
        return None
    return rs.leave_home_moves + (1 if rs.leave_home == "CONT_GT" else 0)


def _leave_home_rule(rs: UgolkiRuleset, lang: Lang) -> str:
    k = rs.leave_home_threshold
    say = WORDS.say
    still = (
        say(lang, "leave_home.one") if k == 1 else say(lang, "leave_home.more", pieces=WORDS.count(lang, "piece", k))
    )
    once = say(lang, "leave_home.once" if rs.leave_home == "STAGE" else "leave_home.every")
    return say(lang, "leave_home.rule", still=still, at=leave_home_check(rs), once=once)


def _judgement(rs: UgolkiRuleset, lang: Lang) -> list[str]:
    out = []
    if rs.long_game == "TEMPO":
        out.append(WORDS.say(lang, "long_game.tempo", n=rs.long_game_moves))
    elif rs.long_game == "COUNT":
        out.append(WORDS.say(lang, "long_game.count", n=rs.long_game_moves))
    if rs.move_cap is not None and (rs.long_game == "none" or rs.move_cap < rs.long_game_moves):
        out.append(WORDS.say(lang, "move_cap.rule", n=rs.move_cap))
    return out


def rules_help(rs: UgolkiRuleset, lang: Lang = DEFAULT_LANG) -> RulesHelp:
    say = WORDS.say
    geo = geometry_for(rs)
    pieces = geo.homes[WHITE].bit_count()
    goal = say(lang, "goal", n=pieces, pieces=WORDS.word(lang, "piece.acc", pieces), b=rs.board)
    win = [say(lang, "win.immediate" if rs.completion == "IMMEDIATE" else "win.equalize")]
    lose: list[str] = []
    if rs.leave_home != "none":
        lose.append(_leave_home_rule(rs, lang))
    if rs.return_home_loss_after is not None:
        lose.append(say(lang, "return_home.rule", n=rs.return_home_loss_after))
    lose += _judgement(rs, lang)
    if rs.repetition != "none":
        lose.append(say(lang, "repetition.rule"))
    lose.append(say(lang, "passes.rule"))
    special = [
        say(lang, "move.rule", step=say(lang, f"dirs.{rs.step_dirs}"), jump=say(lang, f"dirs.{rs.jump_dirs}"))
    ]
    if rs.anti_lock != "none" and rs.step_dirs == rs.jump_dirs == "ORTH":  # §6.7: off with diagonal moves
        special.append(say(lang, "anti_lock.rule"))
    if rs.mirror_limit is not None:
        window = say(lang, "mirror.first", n=rs.mirror_window) if rs.mirror_window else say(lang, "mirror.all")
        special.append(say(lang, "mirror.rule", limit=rs.mirror_limit, window=window))
    if rs.vrednyugi:
        special.append(say(lang, "vrednyugi.rule"))
    if rs.target_home_lock:
        special.append(say(lang, "target_lock.rule"))
    return RulesHelp(
        game="ugolki",
        title=say(lang, "title"),
        goal=goal,
        win=tuple(win),
        lose=tuple(lose),
        special=tuple(special),
    )


def _at_home(state: UgolkiState, side: int) -> int:
    own = state.white if side == WHITE else state.black
    return (own & state.geo.homes[side]).bit_count()


def end_text(state: UgolkiState, out: Outcome, names: Mapping[str, str], lang: Lang = DEFAULT_LANG) -> str:
    """Why the game ended, e.g. "White still had 1 piece in its own corner after Black's move 40"."""
    say = WORDS.say
    rs = state.ruleset
    loser = None if out.draw else (BLACK if out.ranks[0] == 1 else WHITE)
    winner = None if loser is None else 1 - loser
    black_moves = state.moves_made[1]
    reason = out.reason
    if reason == "completion":
        if out.draw:
            return say(lang, "end.completion_draw")
        return say(lang, "end.completion", side=_side(lang, winner or 0))
    if reason == "leave_home":
        if out.draw:
            k = rs.leave_home_threshold
            what = (
                say(lang, "end.leave_home_one")
                if k == 1
                else say(lang, "end.leave_home_more", pieces=WORDS.count(lang, "piece.acc", k))
            )
            return say(lang, "end.leave_home_draw", what=what, n=black_moves)
        n = _at_home(state, loser or 0)
        return say(
            lang,
            "end.leave_home",
            side=_side(lang, loser or 0),
            pieces=WORDS.count(lang, "piece.acc", n),
            n=black_moves,
        )
    if reason == "return_home":
        side = loser or 0
        return say(
            lang,
            "end.return_home",
            side=_side(lang, side),
            m=state.moves_made[side],
            n=rs.return_home_loss_after,
        )
    if reason in ("long_game_tempo", "move_cap"):
        tw, tb = (int(x) for x in out.scores) if len(out.scores) == 2 else (0, 0)
        rule = say(lang, "end.rule_long_game" if reason == "long_game_tempo" else "end.rule_move_cap")
        judged = say(lang, "end.tempo", n=black_moves, rule=rule, w=tw, b=tb)
        return say(lang, "end.equal" if out.draw else "end.lower_tempo", judged=judged)
    if reason == "long_game_count":
        cw, cb = (int(x) for x in out.scores) if len(out.scores) == 2 else (0, 0)
        judged = say(lang, "end.count", n=black_moves, w=cw, b=cb)
        return say(lang, "end.equal" if out.draw else "end.more_pieces", judged=judged)
    if reason == "repetition":
        return say(lang, "end.repetition")
    if reason == "two_passes":
        return say(lang, "end.two_passes")
    if reason == "resignation" and loser is not None:
        return say(lang, "end.resigned", who=names.get(state.seats[loser], _side(lang, loser, True)))
    return reason.replace("_", " ") + "."


def warnings(state: UgolkiState, lang: Lang = DEFAULT_LANG) -> tuple[UgolkiWarning, ...]:
    """What will end the game by rule soon: the leave-home countdown per side with pieces still at
    home, the return-home ban once in force, and the long-game judgement or move cap."""
    if state.result is not None:
        return ()
    say = WORDS.say
    rs = state.ruleset
    made = state.moves_made
    out: list[UgolkiWarning] = []
    check = leave_home_check(rs)
    if check is not None and (rs.leave_home != "STAGE" or made[BLACK] < check):
        for side in (WHITE, BLACK):
            home = _at_home(state, side)
            must_leave = home - rs.leave_home_threshold + 1
            if must_leave <= 0:
                continue
            left = max(check - made[side], 0)
            may_stay = (
                say(lang, "warn.may_stay", n=rs.leave_home_threshold - 1) if rs.leave_home_threshold > 1 else ""
            )
            text = say(
                lang,
                "warn.leave_home",
                side=_side(lang, side, True),
                pieces=WORDS.count(lang, "piece", home),
                may_stay=may_stay,
                moves=WORDS.count(lang, "move", left),
                left=WORDS.word(lang, "left", left),
                what=say(lang, "warn.it")
                if must_leave == 1
                else say(lang, "warn.all", n=must_leave)
                if must_leave == home
                else str(must_leave),
                check=check,
            )
            out.append(
                UgolkiWarning(
                    seat=state.seats[side],
                    rule="leave_home",
                    moves_left=left,
                    urgent=left <= max(must_leave + 4, 10),
                    text=text,
                )
            )
    n = rs.return_home_loss_after
    if n is not None:
        for side in (WHITE, BLACK):
            if made[side] >= n:
                out.append(
                    UgolkiWarning(
                        seat=state.seats[side],
                        rule="return_home",
                        moves_left=0,
                        urgent=False,
                        text=say(lang, "warn.return_home", side=_side(lang, side, True), n=n),
                    )
                )
    judged: list[tuple[int, str, str]] = []
    if rs.long_game != "none":
        key = "warn.by_tempo" if rs.long_game == "TEMPO" else "warn.by_count"
        judged.append((rs.long_game_moves, "long_game", say(lang, key)))
    if rs.move_cap is not None:
        judged.append((rs.move_cap, "move_cap", say(lang, "warn.by_cap")))
    if judged:
        at, rule, what = min(judged)
        left = at - made[BLACK]
        if left > 0:
            out.append(
                UgolkiWarning(
                    seat=None,
                    rule=rule,
                    moves_left=left,
                    urgent=left <= 10,
                    text=say(
                        lang,
                        "warn.judged",
                        at=at,
                        what=what,
                        moves=WORDS.count(lang, "move", left),
                        left=WORDS.word(lang, "left", left),
                    ),
                )
            )
    return tuple(out)
