"""Presets for people: every preset's family (the rules tradition or source it comes from) and a
short title, as the lobby lists them (``GET /api/games``: ``family`` and ``title`` per preset).

The names and titles are the rules files' own (``/work/shared/rules/*.md``); they are not
translated.  Every registered preset has an entry (checked by ``tests/unit/test_preset_catalogue``).
"""

from __future__ import annotations

# game -> family -> preset -> title; families in the order the lobby shows them.
FAMILIES: dict[str, dict[str, dict[str, str]]] = {
    "ugolki": {
        "Gambiter": {
            "gambiter-classic": "Gambiter classic",
            "gambiter-diagonal": "Gambiter diagonal",
        },
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
    "king": {
        "4 players": {
            "king-4p-classic": "Classic King",
            "king-4p-rozaliev": "Rozaliev 47.a",
            "king-4p-hv-eralash": "Hvalenki and Eralash",
            "king-4p-short": "Short King",
            "king-short": "Short King (alias)",
            "king-4p-symmetric": "Symmetric, 14 games",
            "king-4p-ordered": "Ordered King",
            "king-4p-trump": "King with trump",
            "king-4p-trading": "King with trading",
        },
        "3 players": {
            "king-3p": "King for 3",
            "king-3p-short": "Short King for 3",
            "king-3p-symmetric": "Symmetric King for 3",
            "king-3p-rozaliev": "Rozaliev 47.v",
        },
        "Variants": {
            "king-atomic": "Atomic King (47.g)",
        },
    },
    "kings-corner": {
        "cardgames.zone": {
            "cardgames-zone": "cardgames.zone",
            "cz-elimination-25": "Elimination at 25",
            "cz-draw-when-needed": "Draw only when needed",
            "cz-two-decks": "Two decks, 2-10 players",
        },
        "Classic (pagat)": {
            "pagat-classic": "Classic",
            "pagat-kings-penalty": "Penalty for held kings",
            "pagat-draw-first": "Draw first",
            "pagat-draw-two": "Draw two",
            "pagat-high-count-100": "High count to 100",
            "pagat-fixed-hands": "Five hands",
            "corner-ace-bonus": "Corner ace bonus",
            "suit-corners": "Corners in suit",
        },
        "Chips and pools": {
            "classic-chips": "Chips and pot",
            "classic-pool": "Pool",
        },
        "Negative scoring": {
            "negative-25": "Negative to -25",
            "s3-immediate-kings": "Kings to corners at the deal",
            "s3-draw-first": "Draw first",
            "s3-mandatory-kings": "Kings must go to corners",
        },
        "Point counts": {
            "high-count-250": "High count to 250",
            "stofka": "Stofka",
            "klepek": "Klepek",
            "s4-points": "S4 points",
        },
        "House rules": {
            "family-draw-first": "Family rules",
            "draw-till-play": "Draw until you can play",
            "becker-four-card": "Becker, four cards",
            "freeman-jokers": "Freeman, jokers",
            "crestanello": "Crestanello",
        },
    },
    "thousand": {
        "Club rules": {
            "classic": "Club rules",
            "classic-golden-kon": "Golden kon",
            "classic-blind": "Blind game",
            "classic-4p-sitout": "4 players, the dealer sits out",
        },
        "Online tables": {
            "online": "Online table",
            "online-no-barrel-auction": "No barrel auction",
            "online-writeoff-stick": "Write-off costs a stick",
        },
        "International": {
            "simple": "International guide",
        },
    },
    "farkle-flip": {
        "Placeholder scoring": {
            "farkle-flip-placeholder": "To 10,000",
            "farkle-flip-placeholder-must-continue": "Must continue below the entry",
            "farkle-flip-placeholder-last-placed": "Lock the card placed last",
            "farkle-flip-placeholder-party-5000": "Party, 6-8 players to 5,000",
        },
    },
    "kings-cup": {
        "Table helper": {
            "kings-cup-neutral": "Neutral card texts",
            "kings-cup-deck-out": "Until the deck is out",
            "kings-cup-stacking-rules": "Kings' rules add up",
        },
    },
}


def preset_family(game: str, preset: str) -> tuple[str, str]:
    """(family, title) of a preset; ("", preset) for one this table does not know."""
    for family, presets in FAMILIES.get(game, {}).items():
        if preset in presets:
            return family, presets[preset]
    return "", preset


def family_order(game: str) -> tuple[str, ...]:
    return tuple(FAMILIES.get(game, {}))
