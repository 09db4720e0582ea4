"""How the lobby lists this game's presets: families and titles in English and Russian."""

from __future__ import annotations

from domain.core.lobby import Lobby

LOBBY = Lobby(
    families={
        "Gambiter": {"gambiter-classic": "Gambiter classic", "gambiter-diagonal": "Gambiter diagonal"},
        "Halma boards": {
            "halma-8x8-1234": "Halma 8×8",
            "halma-8x8-1234-diag": "Halma 8×8 diagonal",
            "halma-10x10-12345": "Halma 10×10",
            "halma-10x10-12345-diag": "Halma 10×10 diagonal",
        },
        "3×3 corners": {
            "mini-3x3": "Mini 3×3",
            "mini-3x3-diag": "Mini 3×3 diagonal",
            "kostrov": "Kostrov",
            "kostrov-diagonal": "Kostrov diagonal",
            "ugolki-50": "The 50-move rules",
            "kids-3x3-40": "Children's rules, 40 moves",
        },
        "Russian folk rules": {
            "kosynka-universal": "«Косынка» universal",
            "pryamye": "«Прямые»",
            "kosye": "«Косые»",
        },
        "12 pieces (3×4)": {
            "shashki-online-12": "Online «Уголки Шашки»",
            "luckforfree-3x4": "LuckForFree 3×4",
            "club-any-direction-40": "Club rules, any direction",
            "min2win-3x4": "Min2Win 3×4",
        },
    },
    families_ru={
        "Gambiter": "Gambiter",
        "Halma boards": "Доски гальмы",
        "3×3 corners": "Уголки 3×3",
        "Russian folk rules": "Народные правила",
        "12 pieces (3×4)": "12 шашек (3×4)",
    },
    titles_ru={
        "gambiter-classic": "Gambiter, классика",
        "gambiter-diagonal": "Gambiter, по диагонали",
        "halma-8x8-1234": "Гальма 8×8",
        "halma-8x8-1234-diag": "Гальма 8×8, по диагонали",
        "halma-10x10-12345": "Гальма 10×10",
        "halma-10x10-12345-diag": "Гальма 10×10, по диагонали",
        "mini-3x3": "Мини-уголки 3×3",
        "mini-3x3-diag": "Мини-уголки 3×3, по диагонали",
        "kostrov": "Костров",
        "kostrov-diagonal": "Костров, по диагонали",
        "ugolki-50": "Правила 50 ходов",
        "kids-3x3-40": "Детские правила, 40 ходов",
        "kosynka-universal": "«Косынка» универсальная",
        "pryamye": "«Прямые»",
        "kosye": "«Косые»",
        "shashki-online-12": "Онлайн «Уголки Шашки»",
        "luckforfree-3x4": "LuckForFree 3×4",
        "club-any-direction-40": "Клубные правила, во все стороны",
        "min2win-3x4": "Min2Win 3×4",
    },
)
