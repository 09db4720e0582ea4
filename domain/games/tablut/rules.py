"""The presets of rules/tablut.md §10.2 and the checks of a ruleset (T1, T5)."""

from __future__ import annotations

from contracts.games.tablut import TablutRuleset

SEED = TablutRuleset()
PRESETS: dict[str, TablutRuleset] = {
    "tablut-seed": SEED,
    "tablut-edge": TablutRuleset(escape="edge", corners="none"),
    "tablut-armed": TablutRuleset(king_armed=True),
    "tablut-weak-king": TablutRuleset(king_capture="weak"),
    "tablut-linnaeus": TablutRuleset(
        escape="edge",
        corners="none",
        king_armed=True,
        king_capture="linnaeus",
        king_may_return=False,
        linnaean_capture=True,
        no_moves="draw",
    ),
}
DEFAULT_PRESET = "tablut-seed"

DESCRIPTIONS: dict[str, str] = {
    "tablut-seed": "The basic game of the rules page: the king escapes to a corner, is unarmed, and is taken on "
    "four sides (three at the edge); the corners take part in captures",
    "tablut-edge": "The king need only reach the edge; the corners are ordinary squares",
    "tablut-armed": "The basic game with an armed king, who takes part in captures",
    "tablut-weak-king": "The basic game with the king captured like any other piece, between two",
    "tablut-linnaeus": "Linnaeus' game as reconstructed: escape to the edge, an armed king taken by two away "
    "from the throne, nobody back on the throne, the Linnaean capture; a side that cannot move draws",
}
DESCRIPTIONS_RU: dict[str, str] = {
    "tablut-seed": "Основная игра со страницы правил: король уходит в угол, он безоружен, его берут с четырёх "
    "сторон (у края — с трёх); углы участвуют во взятии",
    "tablut-edge": "Королю достаточно дойти до края; углы — обычные поля",
    "tablut-armed": "Основная игра с вооружённым королём: он участвует во взятии",
    "tablut-weak-king": "Основная игра, где короля берут как любую фигуру — зажав между двумя",
    "tablut-linnaeus": "Игра Линнея в реконструкции: уход на край, вооружённый король, которого вдали от трона "
    "берут двое, на трон никто не возвращается, линнеевское взятие; у кого нет хода — ничья",
}


def validate(rules: TablutRuleset, seats: int) -> str | None:
    if seats != 2:
        return "tablut is a game for two players"
    if rules.escape == "corner" and rules.corners == "none":
        return "escape=corner needs corners=special (T1)"
    return None


def live_problem(rules: TablutRuleset) -> str | None:
    """T5: a live match needs a move cap, so that every game ends."""
    if rules.move_cap == 0:
        return "move_cap=0 is for analysis and replays only: a live match needs a move cap (T5)"
    return None
