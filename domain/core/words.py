"""Words for players in English and Russian: the server's sentences (rules help, end reasons,
warnings) as keyed templates, pure data beside the code that fills them.

A module declares its sentences once, ``WORDS = Words(en={...}, ru={...})``, and says one with
``WORDS.say(lang, key, **params)`` (``str.format`` placeholders).  A counted noun is an entry of
forms split by ``|`` ("piece|pieces", "фишка|фишки|фишек") said with ``WORDS.count(lang, key, n)``
("3 pieces", "3 фишки").  Both languages have the same keys and the same placeholders
(tests/unit/test_words_in_russian.py checks every catalogue).  Rule names and notation are never
translated here: they stay as the rules files give them (rules/README)."""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal, get_args

Lang = Literal["en", "ru"]
LANGS: tuple[Lang, ...] = get_args(Lang)
DEFAULT_LANG: Lang = "en"


def as_lang(value: str) -> Lang | None:
    """``value`` as a language this server speaks, or None."""
    return value if value in LANGS else None


def plural_form(lang: Lang, n: int) -> int:
    """The index of the plural form of ``n``: English one|other; Russian one|few|many
    (1, 21, 101 фишка; 2-4, 22-24 фишки; 0, 5-20, 25-30 фишек)."""
    n = abs(n)
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return 0
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return 1
        return 2
    return 0 if n == 1 else 1


PLURAL_FORMS: dict[Lang, int] = {"en": 2, "ru": 3}


def placeholders(template: str) -> frozenset[str]:
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


class Words:
    """One module's sentences in every language (see the module's doc)."""

    __slots__ = ("table",)

    def __init__(self, *, en: Mapping[str, str], ru: Mapping[str, str]) -> None:
        self.table: dict[Lang, Mapping[str, str]] = {"en": en, "ru": ru}

    def say(self, lang: Lang, key: str, /, **params: object) -> str:
        return self.table[lang][key].format(**params)

    def code(self, lang: Lang, prefix: str, code: str) -> str:
        """A code (a status, a pattern, an end reason) in ``lang``: the sentence ``<prefix>.<code>``
        (no placeholders), or the code with spaces for underscores where the catalogue has none."""
        key = f"{prefix}.{code}"
        return self.say(lang, key) if key in self.table[lang] else code.replace("_", " ")

    def word(self, lang: Lang, key: str, n: int) -> str:
        """The form of a counted noun for ``n`` ("pieces", "фишек"), without the number."""
        forms = self.table[lang][key].split("|")
        return forms[min(plural_form(lang, n), len(forms) - 1)]

    def count(self, lang: Lang, key: str, n: int) -> str:
        """``n`` with its counted noun ("1 piece", "5 фишек")."""
        return f"{n} {self.word(lang, key, n)}"


# The seats that are words (a side of a board game) as a sentence says them; a numbered seat (p1,
# p2...) is an id, the same in every language, like notation.
SEAT_WORDS = Words(
    en={"white": "white", "black": "black", "attackers": "attackers", "defenders": "defenders"},
    ru={"white": "белые", "black": "чёрные", "attackers": "нападающие", "defenders": "защитники"},
)


def seat_word(lang: Lang, seat: str) -> str:
    """A seat as a sentence in ``lang`` names it: "белые" for white; p1 stays p1."""
    return SEAT_WORDS.say(lang, seat) if seat in SEAT_WORDS.table[lang] else seat


def seat_list(
    seats: Iterable[str], values: Iterable[object], names: Mapping[str, str], sep: str = ", "
) -> str:
    """Seats with a number each, as a sentence names them ("ann (north) 120, bob (east) 80"):
    the scores, totals or banked points every card game's end reason closes with."""
    return sep.join(f"{names.get(s, s)} {v}" for s, v in zip(seats, values, strict=False))


def joined(lang: Lang, items: list[str]) -> str:
    """ "a", "a and b", "a, b and c" ("и" in Russian)."""
    if not items:
        return ""
    word = " и " if lang == "ru" else " and "
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + word + items[-1]


def redacted_lines(
    redact: Callable[[Any, str | None], Any], line: Callable[[Any, Lang], str | None]
) -> Callable[[Any, Any, str | None, Lang], str | None]:
    """A game's ``Decider.event_text`` from its ``redact`` and its ``line(event, lang)``: each log
    line is computed from the event as redacted for its viewer, so it cannot name what the viewer
    may not see (an event the viewer does not get has no line)."""

    def event_text(_state: Any, event: Any, viewer: str | None, lang: Lang = DEFAULT_LANG) -> str | None:
        shown = redact(event, viewer)
        return None if shown is None else line(shown, lang)

    return event_text
