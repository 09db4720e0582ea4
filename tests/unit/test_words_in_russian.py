"""The server's sentences in Russian (issue 15): every catalogue of words (domain/core/words.py)
has a Russian text for every English key with the same placeholders and the plural forms Russian
needs; every preset of every game and preset family has its rules help in Russian; a played-out
match of every game ends with its reason in Russian; Ugolki's warnings and the match layer's own
endings are worded in Russian."""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest

from contracts.match import Outcome, Resign
from domain.core import match as match_layer
from domain.core.words import LANGS, PLURAL_FORMS, Words, placeholders, plural_form
from domain.games import catalogue, registry
from domain.games.ugolki import GAME as UGOLKI
from domain.games.ugolki.explain import end_text, warnings
from domain.tournaments import view as tournament_view
from tests.unit.test_end_reasons_in_words import GAMES, play_out
from tests.unit.test_rules_in_words import _created
from tests.unit.ugolki.helpers import at, mv, pos, rules

CYRILLIC = re.compile("[\u0400-\u04ff]")
CODE = re.compile(r"\b[a-z]+_[a-z_]+\b")
# Words that are the same in both languages: names as the rules files give them, notation and
# layout-only templates.
SAME = {"title", "card", "sentence", "pattern.faces", "pattern.value", "unit.king", "special.trump_end"}
NAMES = {"white": "ann (white)", "black": "bob (black)"}


def catalogues() -> dict[str, Words]:
    """Every ``WORDS`` in domain/: the match layer's, the tournaments' view's and each game
    package's (explain, words)."""
    found = {"domain.core.match": match_layer.WORDS, "domain.tournaments.view": tournament_view.WORDS}
    import domain.games as games

    for pkg in pkgutil.iter_modules(games.__path__):
        if not pkg.ispkg:
            continue
        for sub in ("explain", "words"):
            name = f"domain.games.{pkg.name}.{sub}"
            try:
                module = importlib.import_module(name)
            except ModuleNotFoundError:
                continue
            if isinstance(getattr(module, "WORDS", None), Words):
                found[name] = module.WORDS
    return found


def test_every_game_package_with_rules_help_has_a_catalogue() -> None:
    found = catalogues()
    for name, game in registry.GAMES.items():
        assert game.rules_help is not None and game.end_text is not None, name
        module = game.rules_help.__module__
        assert module in found or module.replace(".explain", ".words") in found, f"{name}: no WORDS in {module}"
    assert len(found) >= 7


@pytest.mark.parametrize("module", sorted(catalogues()))
def test_every_english_text_has_a_russian_one_with_the_same_placeholders(module: str) -> None:
    words = catalogues()[module]
    en, ru = words.table["en"], words.table["ru"]
    assert set(en) == set(ru), f"{module}: missing in Russian {sorted(set(en) - set(ru))}, extra {sorted(set(ru) - set(en))}"
    for key, text in en.items():
        assert ru[key].strip() or not text.strip(), (module, key)
        assert placeholders(text) == placeholders(ru[key]), (module, key, text, ru[key])
        if "|" in text or "|" in ru[key]:
            assert len(text.split("|")) == PLURAL_FORMS["en"], (module, key)
            assert len(ru[key].split("|")) == PLURAL_FORMS["ru"], (module, key)
        elif key.split(".")[-1] not in SAME and key not in SAME and re.search(r"[A-Za-z]{3,}", re.sub(r"\{[^}]*\}", "", text)):
            assert CYRILLIC.search(ru[key]), f"{module} {key}: {ru[key]!r} is not Russian"


@pytest.mark.parametrize(
    "n, form", [(1, 0), (21, 0), (101, 0), (2, 1), (4, 1), (23, 1), (0, 2), (5, 2), (11, 2), (12, 2), (14, 2), (111, 2)]
)
def test_russian_plural_forms(n: int, form: int) -> None:
    assert plural_form("ru", n) == form
    assert plural_form("en", n) == (0 if n == 1 else 1)


def _every_preset() -> list[tuple[str, str, str]]:
    """Every game, preset family (domain/games/catalogue.py) and preset."""
    return [
        (g, catalogue.preset_family(g, p)[0], p) for g, game in sorted(registry.GAMES.items()) for p in game.presets
    ]


@pytest.mark.parametrize("game, family, preset", _every_preset())
def test_every_preset_has_its_rules_help_in_russian(game: str, family: str, preset: str) -> None:
    decider = registry.get(game)
    assert decider.rules_help is not None
    ruleset = decider.presets[preset].ruleset
    ru, en = decider.rules_help(ruleset, "ru"), decider.rules_help(ruleset, "en")
    assert ru.game == en.game == game
    assert (len(ru.win), len(ru.lose), len(ru.special)) == (len(en.win), len(en.lose), len(en.special))
    assert ru.goal != en.goal
    own = ru.special[:1] if game == "kings-cup" else ru.special  # then the cards' texts: the ruleset's own
    for line in (ru.goal, *ru.win, *ru.lose, *own):
        assert CYRILLIC.search(line), (preset, line)
        assert "None" not in line and not CODE.search(line), (preset, line)


@pytest.mark.parametrize("name, preset, n", GAMES)
def test_a_played_out_match_ends_with_its_reason_in_russian(name: str, preset: str, n: int) -> None:
    game = registry.get(name)
    state = play_out(game, preset, n, seed=3)
    assert state.outcome is not None
    text = match_layer.outcome_text(game, state, "ru")
    assert text and text.endswith(".") and CYRILLIC.search(text) and not CODE.search(text), text
    assert text != match_layer.outcome_text(game, state, "en")
    assert match_layer.view(game, state, None, "m", 1, "ru").outcome_text == text


def test_ugolki_leave_home_end_reason_in_russian() -> None:
    state = pos(rules(), "h1 d4", "d2 f6", moves_made=(40, 39))
    after = at(state).when("black", mv("f6", "f7")).then_accepted()
    assert after.result is not None
    assert end_text(after, after.result, NAMES, "ru") == (
        "после 40-го хода чёрных белые всё ещё держали в своём углу 1 шашку."
    )
    capped = end_text(
        pos(rules("kostrov"), "h1", "a8", moves_made=(200, 200)),
        Outcome(ranks=(2, 1), reason="move_cap", scores=(30.0, 20.0)),
        NAMES,
        "ru",
    )
    assert capped == (
        "после 200-го хода чёрных по правилу предела ходов партию решило темповое число "
        "(белые 30, чёрные 20): побеждает меньшее темповое число."
    )


def test_ugolki_warnings_in_russian_with_russian_plurals() -> None:
    state = pos(rules(), "d4 e5", "a8 d2", moves_made=(26, 26))
    warn, judged = warnings(state, "ru")
    assert warn.text == "Чёрные: дома ещё 1 шашка; осталось 14 ходов, чтобы вывести её (проверка после 40-го хода чёрных)."
    assert judged.text == "После 80-го хода чёрных партию решит темповое число: осталось 54 хода."
    late = warnings(pos(rules(), "d4 e5", "a8 d2", moves_made=(39, 39)), "ru")[0]
    assert "остался 1 ход" in late.text
    assert [w.text for w in UGOLKI.view_in(state, None, "ru").warnings] == [warn.text, judged.text]  # type: ignore[misc]
    assert [w.text for w in UGOLKI.view(state, None).warnings] == [w.text for w in warnings(state)]


def test_the_match_layer_words_its_own_endings_in_russian() -> None:
    state = None
    for event in match_layer.decide(UGOLKI, None, None, _created(UGOLKI, ("ann", "bob"))):
        state = match_layer.evolve(UGOLKI, state, event)
    for event in match_layer.decide(UGOLKI, state, "black", Resign()):
        state = match_layer.evolve(UGOLKI, state, event)
    assert match_layer.outcome_text(UGOLKI, state, "ru") == "Побеждает ann (белые): игрок bob (чёрные) сдался."
    assert match_layer.outcome_text(UGOLKI, state) == "ann (white) wins: bob (black) resigned."


def test_languages() -> None:
    assert LANGS == ("en", "ru")


def test_card_table_views_word_their_contract_and_scoring_note_in_russian() -> None:
    """King's contract (its game's name as rules/king.md §4 gives it in Russian, and its cost)
    and Farkle Flip's scoring note come in the view's language."""
    from domain.games.king.view import cost, view
    from tests.unit.king.helpers import DEAL4, one_deal, scripted

    s = scripted(one_deal("NH"), [DEAL4], first_dealer=3)
    assert cost(s, "NH", "ru") == "-2 за черву (всего за сдачу -16)"
    assert cost(s, "NH") == "-2 per heart (deal total -16)"
    ru, en = view(s, "p1", "ru").contract, view(s, "p1").contract
    assert ru is not None and en is not None
    assert (ru.name, en.name) == ("Не брать червей", "don't take hearts")
    assert registry.get("king").view_in is not None

    ff = registry.get("farkle-flip")
    state = ff.initial_state(ff.presets[ff.default_preset].ruleset, ff.seat_names(2), b"\x01" * 32)
    assert ff.view_in is not None
    note = ff.view_in(state, None, "ru").scoring_note
    assert note.startswith("ВРЕМЕННАЯ таблица очков") and ff.view(state, None).scoring_note.startswith("PLACEHOLDER")
