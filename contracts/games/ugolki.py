"""Ugolki (Russian corners): ruleset, commands, events, view and rejection codes.

The ruleset holds every parameter of ``rules/ugolki.md`` §10; presets are values of it
(``domain.games.ugolki.rules``).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from contracts.games import GameContract, Sentence

Layout = Literal["SQ3", "BLK12", "SQ4", "TRI10", "TRI15"]
Dirs = Literal["ORTH", "DIAG", "ALL8"]


def layout_offsets(layout: str) -> tuple[tuple[int, int], ...]:
    """(dx, dy) offsets of a home from its own corner square (rules/ugolki.md §3.2)."""
    cells = [(dx, dy) for dy in range(5) for dx in range(5)]
    if layout == "SQ3":
        return tuple((dx, dy) for dx, dy in cells if dx <= 2 and dy <= 2)
    if layout == "BLK12":
        return tuple((dx, dy) for dx, dy in cells if dx <= 3 and dy <= 2)
    if layout == "SQ4":
        return tuple((dx, dy) for dx, dy in cells if dx <= 3 and dy <= 3)
    if layout == "TRI10":
        return tuple((dx, dy) for dx, dy in cells if dx + dy <= 3)
    if layout == "TRI15":
        return tuple((dx, dy) for dx, dy in cells if dx + dy <= 4)
    raise ValueError(f"unknown layout {layout!r}")


class UgolkiRuleset(msgspec.Struct, frozen=True, kw_only=True):
    board: int = 8
    layout: Layout = "TRI10"
    white_corner: Literal["BR", "BL"] = "BR"
    step_dirs: Dirs = "ORTH"
    jump_dirs: Dirs = "ORTH"
    completion: Literal["EQUALIZE", "IMMEDIATE"] = "EQUALIZE"
    # leave_home: none | STAGE(N) | CONT(>N, k) | CONT(>=N, k)   (§6.2)
    leave_home: Literal["none", "STAGE", "CONT_GT", "CONT_GE"] = "STAGE"
    leave_home_moves: int = 40
    leave_home_threshold: int = 1
    return_home_loss_after: int | None = None  # §6.3
    long_game: Literal["none", "TEMPO", "COUNT"] = "TEMPO"  # §6.4
    long_game_moves: int = 80
    repetition: Literal["none", "THREEFOLD_HOME_SYMMETRIC"] = "THREEFOLD_HOME_SYMMETRIC"  # §6.5
    anti_lock: Literal["none", "LITERAL_ORTH"] = "LITERAL_ORTH"  # §6.7
    mirror_limit: int | None = 10  # §6.8 maximum copies; None = no limit
    mirror_window: int | None = 12  # None = the whole game
    vrednyugi: bool = False  # §6.9
    target_home_lock: bool = False  # §6.6
    # Literal flags and options the rules ask for (§6.5-§6.9, §13):
    repetition_consecutive: bool = False  # Q11: "three times in a row" as consecutive 4-ply cycles
    anti_lock_edges: bool = False  # §6.7: board edges count as closed sides
    mirror_diagonal: bool = False  # §6.8: also count the reflection in the non-home diagonal
    target_home_lock_final_only: bool = False  # §6.6 / Q19: check only the final square
    vrednyugi_must_leave: bool = True  # §6.9 stricter reading: the move must also leave the home
    # D3 (Decisions of 2026-12-01): at Black's move_cap-th move the game is judged by tempo; None = off.
    move_cap: int | None = None


class MovePiece(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="move_piece.v1"):
    """A turn: the full path (every landing square) or just (from, to)."""

    path: tuple[str, ...]


class PieceMoved(msgspec.Struct, frozen=True, kw_only=True, tag="piece_moved.v1"):
    seat: str
    path: tuple[str, ...]  # always the full path, as the referee recorded it


class TurnPassed(msgspec.Struct, frozen=True, kw_only=True, tag="turn_passed.v1"):
    """A forced pass: the seat had no legal move (§6.10). It counts as that seat's move."""

    seat: str


UgolkiCommand = MovePiece
UgolkiEvent = PieceMoved | TurnPassed


class UgolkiWarning(msgspec.Struct, frozen=True, kw_only=True):
    """A rule that will end the game soon (rules/ugolki.md §6), counted down for players.

    ``rule``: ``leave_home`` (§6.2), ``return_home`` (§6.3, in force), ``long_game`` (§6.4) or
    ``move_cap`` (D3); ``seat``: the side it threatens (None: both); ``moves_left``: the side's
    moves before the check (Black's, for a judgement of the whole game); ``urgent``: close enough
    to lose by it; ``text``: the warning as a sentence."""

    seat: str | None
    rule: str
    moves_left: int
    urgent: bool
    text: str


class UgolkiView(msgspec.Struct, frozen=True, kw_only=True):
    board: int
    white: tuple[str, ...]  # squares, sorted
    black: tuple[str, ...]
    white_home: tuple[str, ...]
    black_home: tuple[str, ...]
    to_move: str | None
    moves_made: dict[str, int]  # per-seat move counters (§0)
    tempo: dict[str, int]  # T(P), §7
    tempo_to_go: dict[str, int]  # T(P) - T_full
    history: tuple[str, ...]  # every turn in notation, e.g. "g2-e2-e4" or "--" for a pass
    legal: tuple[str, ...] = ()  # the viewer's legal moves as "from-to" when it is the viewer's turn
    # D1: the viewer's jump chains hop by hop when it is the viewer's turn: chain so far ("h3-h5")
    # -> the squares the next jump may land on that the piece has not stood on this turn; with
    # auto-finish on, a client ends the turn at a chain whose list is empty.
    continuations: dict[str, tuple[str, ...]] = {}
    result: str | None = None
    warnings: tuple[UgolkiWarning, ...] = ()  # rule-based endings coming up, for every viewer
    last_move: tuple[str, ...] = ()  # every landing square of the last turn, from where it started


# Every code the game's decide may answer, with its sentence in English and Russian (the page
# says a refusal with it: GET /api/games).
UGOLKI_REJECTIONS: dict[str, Sentence] = {
    "malformed": Sentence("The request is not well formed.", "Запрос составлен неверно."),
    "not_your_turn": Sentence("It is not your turn.", "Сейчас не ваш ход."),
    "bad_notation": Sentence(
        "The move is not written in a form the game reads.", "Ход записан в непонятной игре форме."
    ),
    "path_too_long": Sentence("That path of jumps is too long.", "Цепочка прыжков слишком длинная."),
    "bad_square": Sentence("There is no such square on the board.", "На доске нет такого поля."),
    "no_own_piece": Sentence("You have no piece on that square.", "На этом поле нет вашей шашки."),
    "occupied": Sentence("That square is taken.", "Это поле занято."),
    "illegal_step": Sentence("That step is not allowed.", "Такой шаг не разрешён."),
    "illegal_jump": Sentence("That jump is not allowed.", "Такой прыжок не разрешён."),
    "returns_to_origin": Sentence(
        "The path returns to where it started.", "Путь возвращается в исходное поле."
    ),
    "no_such_move": Sentence("There is no such move.", "Такого хода нет."),
    "anti_lock": Sentence(
        "This move would lock the opponent's pieces in their home (anti-blocking rule).",
        "Этот ход запирает шашки соперника в его доме (правило против блокировки).",
    ),
    "mirror_limit": Sentence(
        "This move breaks the mirror-repetition limit.", "Этот ход нарушает предел зеркальных повторов."
    ),
    "vrednyugi": Sentence("This move breaks the vrednyugi rule.", "Этот ход нарушает правило «вреднюг»."),
    "target_home_lock": Sentence(
        "The pieces in the target home block this move.", "Шашки в доме соперника запрещают этот ход."
    ),
    "game_over": Sentence("The game is over.", "Игра окончена."),
    "bad_action": Sentence(
        "A recorded action could not be read.", "Записанное действие не удалось прочитать."
    ),  # a game record's action that cannot be read (rules/records.md)
}
UGOLKI_REJECTION_CODES: tuple[str, ...] = tuple(UGOLKI_REJECTIONS)

CONTRACT = GameContract(
    name="ugolki",
    command_type=UgolkiCommand,
    event_type=UgolkiEvent,
    view_type=UgolkiView,
    ruleset_type=UgolkiRuleset,
    rejections=UGOLKI_REJECTIONS,
)
