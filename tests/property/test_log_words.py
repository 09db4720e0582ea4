"""The match log and the legal moves in words (docs/architecture.md "Views"): every event met in a
random playout of every preset has a line in English and in Russian for every seat and for a
spectator, the line names no card the viewer may not see, and every legal move has a label in both
languages.  Reads only the registry: no game is named here."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from contracts.envelope import Rejected
from contracts.match import MatchCreated, MatchEnded, ServerSeedRevealed
from domain.core import logwords, match
from domain.core.words import LANGS
from domain.games.registry import GAMES
from tests.property.test_conformance import CASES, create_command, playable_seat_counts

PLAYOUT_CAP = 400  # decisions per playout: every kind of event of every game turns up within it
CYRILLIC = re.compile("[А-Яа-яЁё]")
TOKEN = re.compile(r"[A-Za-z0-9?]+")


def lines_of(game: Any, before: match.MatchState | None, event: Any, viewer: str | None) -> dict[str, str]:
    return {lang: logwords.event_text(game, before, event, viewer, lang) or "" for lang in LANGS}


@pytest.mark.parametrize("game_name,preset", [c.values for c in CASES], ids=[c.id for c in CASES])
def test_every_event_of_a_playout_has_a_line_in_both_languages_that_hides_what_it_should(
    game_name: str, preset: str
) -> None:
    game = GAMES[game_name]
    r = random.Random(f"{game_name}:{preset}")
    n = playable_seat_counts(game, game.presets[preset].ruleset)[0]
    server_seed = bytes(range(32)) if game.chance else None
    created = match.decide(game, None, None, create_command(game, preset, n, server_seed))
    assert not isinstance(created, Rejected), created
    state: match.MatchState | None = None
    met: set[str] = set()
    decisions = [created]
    seats = game.seat_names(n)
    while len(decisions) <= PLAYOUT_CAP:
        for event in decisions[-1]:
            before = state
            state = match.evolve(game, state, event, server_seed)
            hidden = {s: game.hidden(state.game_state, s) for s in seats}
            for viewer in (*seats, None):
                if match.redact(game, event, viewer) is None:
                    continue
                line = lines_of(game, before, event, viewer)
                assert line["en"] and line["ru"], f"{viewer} gets no line for {event!r}"
                assert CYRILLIC.search(line["ru"]) or line["ru"] == line["en"], line
                others = frozenset().union(*(hidden[s] for s in seats if s != viewer))
                for lang, text in line.items():
                    leaked = set(TOKEN.findall(text)) & others
                    assert not leaked, f"{viewer} reads hidden {sorted(leaked)} in {lang} {text!r}"
            met.add(type(event).__name__)
        assert state is not None
        if state.outcome is not None:
            break
        seat = r.choice(match.to_move(game, state))
        legal = game.legal_commands(state.game_state, seat)
        for cmd in legal:
            labels = {lang: game.describe(cmd, lang) for lang in LANGS}
            assert all(labels.values()), cmd
            assert labels["en"] == game.describe(cmd), cmd
        events = match.decide(game, state, seat, r.choice(legal), server_seed)
        assert not isinstance(events, Rejected), events
        decisions.append(events)
    assert MatchCreated.__name__ in met
    if state is not None and state.outcome is not None:
        assert MatchEnded.__name__ in met
        assert not game.chance or ServerSeedRevealed.__name__ in met


def test_every_game_words_its_own_events() -> None:
    """Each game declares ``event_text`` (the playouts above check its line for every event met)."""
    for name, game in GAMES.items():
        assert game.event_text is not None, name


def test_a_russian_view_labels_its_moves_and_its_log_in_russian() -> None:
    """A view asked for in Russian: its legal moves' labels are in Russian where they have words,
    and so are the lines of the log."""
    for name, game in sorted(GAMES.items()):
        preset = game.default_preset
        n = playable_seat_counts(game, game.presets[preset].ruleset)[0]
        server_seed = bytes(range(32)) if game.chance else None
        created = match.decide(game, None, None, create_command(game, preset, n, server_seed))
        assert not isinstance(created, Rejected)
        state = match.evolve(game, None, created[0], server_seed)
        seat = match.to_move(game, state)[0]
        ru = match.view(game, state, seat, "m", 1, "ru")
        en = match.view(game, state, seat, "m", 1, "en")
        assert ru.legal_moves, name
        for m_ru, m_en in zip(ru.legal_moves, en.legal_moves, strict=True):
            assert m_ru.command == m_en.command
            if re.search("[a-z]{3}", m_en.label):  # the label has words, not only notation
                assert CYRILLIC.search(m_ru.label), (name, m_ru.label)
        line = logwords.event_text(game, None, created[0], seat, "ru")
        assert line and CYRILLIC.search(line), line
