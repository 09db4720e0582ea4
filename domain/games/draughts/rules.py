"""The presets of rules/draughts.md §8 and the check of a ruleset."""

from __future__ import annotations

from contracts.games.draughts import DraughtsRuleset

from . import fen

RUSSIAN = DraughtsRuleset()
PRESETS: dict[str, DraughtsRuleset] = {
    "russian": RUSSIAN,
    # D9: russian's moves, the reversed aim, only the repetition and 15-move kings-only draws
    "russian-giveaway": DraughtsRuleset(
        win_condition="giveaway", draw_three_kings=None, draw_main_road=None, draw_balance=None
    ),
    # D10: majority capture, promotion only at the end of a move, repetition and 20 moves of kings
    "brazilian": DraughtsRuleset(
        capture_choice="majority",
        promotion_in_capture="only_at_end",
        draw_kings_only=20,
        draw_three_kings=None,
        draw_main_road=None,
        draw_balance=None,
    ),
}
DEFAULT_PRESET = "russian"

DESCRIPTIONS: dict[str, str] = {
    "russian": "Russian draughts: flying kings, men capture backwards, capture is compulsory with a free "
    "choice, a man crowned mid-capture goes on as a king; the official draw rules",
    "russian-giveaway": "Giveaway (поддавки): the moves of Russian draughts, and whoever loses all pieces "
    "or cannot move wins",
    "brazilian": "Brazilian draughts: the most pieces must be taken, a man is crowned only where its move "
    "ends",
}
DESCRIPTIONS_RU: dict[str, str] = {
    "russian": "Русские шашки: дамки ходят на любое поле, простые бьют назад, бить обязательно, выбор "
    "любой; шашка, ставшая дамкой во время взятия, бьёт дальше как дамка; официальные правила ничьей",
    "russian-giveaway": "Поддавки: ходы русских шашек, а выигрывает тот, кто лишился всех шашек или не "
    "может сделать ход",
    "brazilian": "Бразильские шашки: бить нужно наибольшее число шашек, простая становится дамкой только "
    "там, где закончила ход",
}

BALANCE_KEYS = ("2-3", "4-5", "6-7")


def validate(rules: DraughtsRuleset, seats: int) -> str | None:
    if seats != 2:
        return "draughts is a game for two players"
    if rules.draw_balance is not None:
        extra = sorted(set(rules.draw_balance) - set(BALANCE_KEYS))
        if extra or any(not isinstance(v, int) or v < 1 for v in rules.draw_balance.values()):
            return f"draw_balance: keys {', '.join(BALANCE_KEYS)} with moves >= 1 (got {rules.draw_balance})"
    if rules.start_fen is not None:
        try:
            fen.parse(rules.start_fen)
        except fen.BadPosition as exc:
            return f"start_fen: {exc}"
    return None


def balance_limit(rules: DraughtsRuleset, pieces: int) -> int | None:
    """§7.5's moves of each player for ``pieces`` on the board (None: no limit)."""
    if rules.draw_balance is None or pieces >= 8:
        return None
    key = "2-3" if pieces <= 3 else "4-5" if pieces <= 5 else "6-7"
    return rules.draw_balance.get(key)
