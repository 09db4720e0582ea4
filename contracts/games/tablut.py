"""Tablut: ruleset, commands, events, view and rejection codes.

The ruleset holds every parameter of ``rules/tablut.md`` §10.1 by its name and values there
(Decision T1); the presets ``tablut-seed``, ``tablut-edge``, ``tablut-armed``, ``tablut-weak-king``
and ``tablut-linnaeus`` are values of it (``domain.games.tablut.rules``).  Seat 0 plays the
attackers, seat 1 the defenders and the king (§0).  Squares are ``a1`` ... ``i9`` (§9.1).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from contracts.games import GameContract, Sentence


class TablutRuleset(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    escape: Literal["corner", "edge"] = "corner"  # §8.1
    corners: Literal["special", "none"] = "special"  # M2, §6.3, §7
    king_armed: bool = False  # §6.2-§6.3
    king_capture: Literal["strong", "weak", "linnaeus"] = "strong"  # §7.1-§7.3
    throne_pass: Literal["all", "none"] = "all"  # M4
    king_may_return: bool = True  # M3
    throne_empty_hostile: bool = True  # §6.3, §7
    linnaean_capture: bool = False  # §6.3 item 4
    no_moves: Literal["loss", "draw"] = "loss"  # §8.3
    repetition: Literal["draw3", "loss3", "off"] = "draw3"  # §8.4
    move_cap: Annotated[int, msgspec.Meta(ge=0)] = 200  # §8.5: moves per side, 0 = off (T5)
    first: Literal["attackers"] = "attackers"  # C4


class TablutMove(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="tablut_move.v1"):
    """A move in the text of §9.2: ``e2-c2``, optionally with its captures (``e1-e4xd4xf4``) and a
    ``+`` / ``++`` suffix, which is ignored."""

    move: str


class PieceMoved(msgspec.Struct, frozen=True, kw_only=True, tag="tablut_moved.v1"):
    """A move as the referee recorded it: the squares, the captured squares in canonical order (the
    king's included, T3), and for a defenders' move that does not end the game whether it gives
    check and how many escape squares the king could then reach (§8.7, T7)."""

    seat: str
    origin: str = msgspec.field(name="from")
    to: str
    captured: tuple[str, ...] = ()
    check: bool = False
    routes: int = 0


TablutCommand = TablutMove
TablutEvent = PieceMoved


class TablutPlay(msgspec.Struct, frozen=True, kw_only=True):
    """One move, for a board to draw: its canonical text, its squares and what it takes."""

    move: str
    origin: str = msgspec.field(name="from")
    to: str
    captured: tuple[str, ...] = ()


class TablutView(msgspec.Struct, frozen=True, kw_only=True):
    # square (a1 ... i9) -> "t" attacker, "T" defender, "K" the king
    pieces: dict[str, str]
    to_move: str | None  # the seat to move, None when the game is over
    side_to_move: Literal["attackers", "defenders"]
    # The viewer's legal moves when it is to move, in canonical text (§9.2).
    plays: tuple[TablutPlay, ...] = ()
    throne: str = "e5"
    corners: tuple[str, ...] = ()  # the corners when they are special squares (M2)
    escape_squares: tuple[str, ...] = ()  # where the king escapes (§8.1)
    # The escape squares the king could reach with one move in this position (his routes, §8.7).
    king_routes: tuple[str, ...] = ()
    check: bool = False  # the last move was a defenders' move giving check (§8.7)
    routes: int = 0
    last_move: TablutPlay | None = None
    history: tuple[str, ...] = ()  # every move in canonical text with its + / ++ suffix
    position: str  # the position string of §9.3
    repetition: int = 1  # occurrences of the current position (§8.4)
    defenders_moves: int = 0  # the defenders' moves so far (the move cap counts them, §8.5)
    result: str | None = None  # the end reason (§9.4) once the game is over
    status_text: str = ""  # whose turn, or how the game ended, in the language asked
    warnings: tuple[str, ...] = ()  # the move cap or a repetition that will end the game soon


TABLUT_REJECTIONS: dict[str, Sentence] = {
    "malformed": Sentence("The request is not well formed.", "Запрос составлен неверно."),
    "game_over": Sentence("The game is over.", "Игра окончена."),
    "not_your_turn": Sentence("It is not your turn.", "Сейчас не ваш ход."),
    "bad_notation": Sentence(
        "The move is not written as from-to, e.g. e2-c2 (§9.2).",
        "Ход записан не в виде откуда-куда, например e2-c2 (§9.2).",
    ),
    "no_piece": Sentence("You have no piece on that square.", "На этом поле нет вашей фигуры."),
    "not_a_line": Sentence(
        "A piece moves along a rank or a file only.", "Фигура ходит только по горизонтали или вертикали."
    ),
    "occupied": Sentence("That square is taken.", "Это поле занято."),
    "blocked": Sentence("A piece stands in the way.", "На пути стоит фигура."),
    "restricted_square": Sentence(
        "That piece may not go to the throne or a corner, or cross the throne, here.",
        "Этой фигуре нельзя вставать на трон или в угол (или проходить через трон).",
    ),
    "capture_mismatch": Sentence(
        "The captures written do not match what the move takes.",
        "Записанные взятия не совпадают с тем, что берёт ход.",
    ),
    "bad_position": Sentence(
        "The position string cannot be read (§9.3).", "Строку позиции не удалось прочитать (§9.3)."
    ),
    "bad_action": Sentence("A recorded action could not be read.", "Записанное действие не удалось прочитать."),
}

CONTRACT = GameContract(
    name="tablut",
    command_type=TablutCommand,
    event_type=TablutEvent,
    view_type=TablutView,
    ruleset_type=TablutRuleset,
    rejections=TABLUT_REJECTIONS,
)
