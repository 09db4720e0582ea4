"""Presets of Kings in the Corner (rules/kings-corner.md §4.2 main, §4.3 derived) and point tables."""

from __future__ import annotations

import msgspec

from contracts.games.kings_corner import KingsCornerRuleset
from domain.games.kings_corner.rules import _RANKS, PAGAT_CLASSIC
from domain.games.kings_corner.rules import DESCRIPTIONS as CURRENT_DESCRIPTIONS
from domain.games.kings_corner.rules import PRESETS as CURRENT_PRESETS

# kings-corner-2's presets and ``robinson``, which Decision D5 withdrew after this version.
PRESETS: dict[str, KingsCornerRuleset] = {
    **CURRENT_PRESETS,
    "robinson": msgspec.structs.replace(
        PAGAT_CLASSIC, cross_build="up_in_suit", corner_build="down_in_suit", scoring_table="ROBINSON"
    ),
}

DESCRIPTIONS: dict[str, str] = {
    **{name: text for name, text in CURRENT_DESCRIPTIONS.items() if name in PRESETS},
    "klepek": "Klepek points: J-K 10, 6-10 5, A-5 1; going out on the first turn takes off 5; to 50",
    "robinson": "Robinson (provisional): cross piles built up in suit, corners down in suit, "
    "A-10 face value, J 11, Q 12, K 13",
}


# rank -> penalty per table (rules/kings-corner.md §4.1 point tables)
_FACE = {"A": 1, "J": 11, "Q": 12, "K": 13}


def _pip(rank: str) -> int:
    return _FACE.get(rank) or int(rank)


def _k10_o1(rank: str) -> int:
    return 10 if rank == "K" else 1


def _a25_f10_pip(rank: str) -> int:
    return 25 if rank == "A" else min(_pip(rank), 10)


def _a50_tf10_p5(rank: str) -> int:
    return 50 if rank == "A" else 10 if _pip(rank) >= 10 else 5


def _f10_6t10_5_a5_1(rank: str) -> int:
    p = _pip(rank)
    return 10 if p >= 11 else 5 if p >= 6 else 1


def _a25_tf10_p5(rank: str) -> int:
    return 25 if rank == "A" else 10 if _pip(rank) >= 10 else 5


_TABLES = {
    "K10_O1": _k10_o1,
    "COUNT": lambda rank: 1,
    "A25_F10_PIP": _a25_f10_pip,
    "A50_TF10_P5": _a50_tf10_p5,
    "F10_6T10_5_A5_1": _f10_6t10_5_a5_1,
    "A25_TF10_P5": _a25_tf10_p5,
    "ROBINSON": _pip,
}


POINTS: dict[str, dict[str, int]] = {name: {r: f(r) for r in _RANKS} for name, f in _TABLES.items()}
