"""Farkle Flip presets and the table-driven pattern matcher (rules/thousand-and-farkle-flip.md §3.8).

The seed has no scoring table.  ``PLACEHOLDER_PATTERNS`` is the placeholder table of §3.8 (dice
Farkle tradition, not the official summary cards); every preset built on it is named and labelled
``placeholder``.  The official values are loaded without code by overriding ``patterns`` (and
``scoring_table`` / ``scoring_official``) when a match is created: docs/operations.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import msgspec

from contracts.games.farkle_flip import FACES, FARKLE, FarkleFlipRuleset, Pattern

PLACEHOLDER_PATTERNS: tuple[Pattern, ...] = (
    # three 1s 300 [DECISION], three of a kind (2-6) face x 100 (seed: three 4s = 400)
    Pattern(
        name="three_of_a_kind",
        groups=(3,),
        face_values={f: (300 if f == "1" else 100 * int(f)) for f in FACES},
    ),
    Pattern(name="four_of_a_kind", groups=(4,), value=1_000),  # seed: four 2s, four 4s = 1000
    Pattern(name="five_of_a_kind", groups=(5,), value=2_000),
    Pattern(name="six_of_a_kind", groups=(6,), value=3_000),
    Pattern(name="straight", groups=(1, 1, 1, 1, 1, 1), value=1_500),
    Pattern(name="three_pairs", groups=(2, 2, 2), value=1_500),
    Pattern(name="four_of_a_kind_and_a_pair", groups=(4, 2), value=1_500),
    Pattern(name="two_triplets", groups=(3, 3), value=2_500),
)

# §3.1 [EXTERNAL, unverified]: 84 number cards (14 of each value) + 22 Farkle cards = 106.
PROVISIONAL_DECK: dict[str, int] = {**{f: 14 for f in FACES}, FARKLE: 22}

PLACEHOLDER_NOTE = (
    "PLACEHOLDER scoring table (§3.8: dice-Farkle values, not the official summary cards); "
    "only three 4s = 400, four of a kind = 1000 and Farkle cards = 100 come from the rules"
)
OFFICIAL_NOTE = "scoring table: {name}"

_BASE = FarkleFlipRuleset(patterns=PLACEHOLDER_PATTERNS, deck_composition=PROVISIONAL_DECK)
_r = msgspec.structs.replace

PRESETS: dict[str, FarkleFlipRuleset] = {
    "farkle-flip-placeholder": _BASE,
    "farkle-flip-placeholder-must-continue": _r(_BASE, entry_stop_policy="MUST_CONTINUE"),
    "farkle-flip-placeholder-last-placed": _r(_BASE, lock_requires_last_placed=True),
    "farkle-flip-placeholder-party-5000": _r(_BASE, target=5_000, min_players=6),
}

DESCRIPTIONS: dict[str, str] = {
    "farkle-flip-placeholder": "PLACEHOLDER scoring table (not the official summary cards); to 10,000, "
    "1,000 to get on the board, stopping below it forfeits the centre; 106 cards (14 x 1-6, 22 Farkle)",
    "farkle-flip-placeholder-must-continue": "PLACEHOLDER scoring table; below the 1,000 entry a player "
    "may not stop (MUST_CONTINUE)",
    "farkle-flip-placeholder-last-placed": "PLACEHOLDER scoring table; every lock must use the card "
    "placed last this turn",
    "farkle-flip-placeholder-party-5000": "PLACEHOLDER scoring table; 6-8 players, to 5,000 (§3.2)",
}

DESCRIPTIONS_RU: dict[str, str] = {
    "farkle-flip-placeholder": "ВРЕМЕННАЯ таблица очков (не официальные карточки); до 10 000, "
    "1 000, чтобы войти в игру, остановка ниже входа отдаёт центр; 106 карт (14 × 1-6, 22 Farkle)",
    "farkle-flip-placeholder-must-continue": "ВРЕМЕННАЯ таблица очков; ниже входа в 1 000 игрок "
    "не может остановиться",
    "farkle-flip-placeholder-last-placed": "ВРЕМЕННАЯ таблица очков; каждая фиксация должна "
    "включать карту, выложенную последней в этом ходу",
    "farkle-flip-placeholder-party-5000": "ВРЕМЕННАЯ таблица очков; 6-8 игроков, до 5 000 (§3.2)",
}


def scoring_note(rules: FarkleFlipRuleset) -> str:
    if rules.scoring_official:
        return OFFICIAL_NOTE.format(name=rules.scoring_table)
    if rules.scoring_table == "placeholder":
        return PLACEHOLDER_NOTE
    return f"PLACEHOLDER scoring table {rules.scoring_table!r} (not marked official)"


def deck(rules: FarkleFlipRuleset) -> tuple[str, ...]:
    """The unshuffled deck: number cards 1..6 then Farkle cards, each kind by its count."""
    return tuple(k for k in (*FACES, FARKLE) for _ in range(rules.deck_composition.get(k, 0)))


def group_shape(values: Iterable[str]) -> tuple[tuple[int, ...], Counter[str]]:
    counts = Counter(values)
    return tuple(sorted(counts.values(), reverse=True)), counts


def pattern_value(pattern: Pattern, values: tuple[str, ...]) -> int | None:
    """The pattern's value for exactly this multiset of card values, or None when it does not match."""
    if FARKLE in values:
        return None
    shape, counts = group_shape(values)
    if shape != pattern.groups:
        return None
    if pattern.face_values:
        (face,) = counts
        return pattern.face_values.get(face)
    return pattern.value


def find_pattern(rules: FarkleFlipRuleset, name: str) -> Pattern | None:
    for p in rules.patterns:
        if p.name == name:
            return p
    return None
