"""Russian draughts (русские шашки): ruleset, commands, events, view and rejection codes.

The ruleset holds every parameter of ``rules/draughts.md`` §8 by its name there; the presets
``russian``, ``russian-giveaway`` and ``brazilian`` are values of it (``domain.games.draughts.rules``).
Squares are written algebraically (``c3``) in events and views; a command's move text may use the
numeric squares 1-32 of §3.2 too.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from contracts.games import GameContract, Sentence


class DraughtsRuleset(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    capture_choice: Literal["free", "majority"] = "free"  # §5.4 b
    promotion_in_capture: Literal["continue_as_king", "only_at_end"] = "continue_as_king"  # §5.4 c, §5.8
    win_condition: Literal["standard", "giveaway"] = "standard"  # §7.1
    draw_repetition: Literal[3] | None = 3  # §7.2, occurrences of a position
    draw_kings_only: Literal[15, 20] | None = 15  # §7.6, moves of each player
    draw_three_kings: Literal[15] | None = 15  # §7.3, the strong side's moves
    draw_main_road: Literal[5] | None = 5  # §7.4, the strong side's moves
    # §7.5, moves of each player by the number of pieces on the board ("2-3", "4-5", "6-7")
    draw_balance: dict[str, int] | None = msgspec.field(
        default_factory=lambda: {"2-3": 5, "4-5": 30, "6-7": 60}
    )
    start_fen: str | None = None  # §4, §9.3: a set position to start from


class DraughtsMove(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="draughts_move.v1"
):
    """A move in the text of §9.2: ``c3-d4``, ``c3:e5:g3``, ``22x15x24``, a short form (``c3:g3``)."""

    move: str


class PiecesMoved(msgspec.Struct, frozen=True, kw_only=True, tag="draughts_moved.v1"):
    """A move as the referee recorded it: the canonical path (every landing square, §5.7), the
    squares of the pieces it took in the order taken, and whether the piece ended as a new king."""

    seat: str
    path: tuple[str, ...]
    captured: tuple[str, ...] = ()
    promoted: bool = False


DraughtsCommand = DraughtsMove
DraughtsEvent = PiecesMoved


class DraughtsPlay(msgspec.Struct, frozen=True, kw_only=True):
    """One legal move of the viewer, for a board to draw: its canonical text, every landing square
    from the origin on (``path[0]`` is the piece that moves), and the pieces it takes in order (they
    stay on the board until the move ends: the Turkish strike, §5.4 d)."""

    move: str
    path: tuple[str, ...]
    captured: tuple[str, ...] = ()


class DraughtsCounters(msgspec.Struct, frozen=True, kw_only=True):
    """The draw rules' counts after the last move (§7): ``repetition`` the occurrences of the
    current position; ``kings_only`` plies of king moves without a capture (§7.6); ``stable`` plies
    since the last capture or promotion (§7.5); ``three_kings`` and ``main_road`` the strong side's
    moves while that balance holds (§7.3, §7.4; None when it does not hold)."""

    repetition: int
    kings_only: int
    stable: int
    three_kings: int | None = None
    main_road: int | None = None


class DraughtsView(msgspec.Struct, frozen=True, kw_only=True):
    # square (a1 ... h8, dark squares only) -> "w" white man, "W" white king, "b", "B" black ones
    pieces: dict[str, str]
    to_move: str | None  # the seat to move ("white" / "black"), None when the game is over
    side_to_move: Literal["white", "black"]
    # The viewer's legal moves when it is to move (each move once, canonical path: §5.7, D1).
    plays: tuple[DraughtsPlay, ...] = ()
    capture_required: bool = False  # the side to move must capture (§5.2)
    capturing: tuple[str, ...] = ()  # squares of the pieces that can capture now
    last_move: DraughtsPlay | None = None
    history: tuple[str, ...] = ()  # every move in canonical text
    counters: DraughtsCounters
    fen: str  # the position (§9.3, canonical numeric form)
    result: str | None = None  # the end reason (§9.4) once the game is over
    status_text: str = ""  # whose turn, or how the game ended, in the language asked
    warnings: tuple[str, ...] = ()  # a draw rule that will end the game soon, in words


DRAUGHTS_REJECTIONS: dict[str, Sentence] = {
    "malformed": Sentence("The request is not well formed.", "Запрос составлен неверно."),
    "bad_notation": Sentence(
        "The move is not written in a form the game reads (§9.2).",
        "Ход записан в непонятной игре форме (§9.2).",
    ),
    "illegal_move": Sentence("That move is not allowed here.", "Такой ход здесь не разрешён."),
    "ambiguous_move": Sentence(
        "That text names more than one move: write more of its landing squares.",
        "Эта запись подходит к нескольким ходам: укажите больше полей, на которые встаёт шашка.",
    ),
    "not_your_turn": Sentence("It is not your turn.", "Сейчас не ваш ход."),
    "game_over": Sentence("The game is over.", "Игра окончена."),
    "bad_position": Sentence(
        "The position string cannot be read (§9.3).", "Строку позиции не удалось прочитать (§9.3)."
    ),
    "bad_action": Sentence(
        "A recorded action could not be read.", "Записанное действие не удалось прочитать."
    ),
}

CONTRACT = GameContract(
    name="draughts",
    command_type=DraughtsCommand,
    event_type=DraughtsEvent,
    view_type=DraughtsView,
    ruleset_type=DraughtsRuleset,
    rejections=DRAUGHTS_REJECTIONS,
)
