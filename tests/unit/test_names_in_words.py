"""How the match layer tells people a preset and a player: a created match's log line names the
preset by its title, a computer player matchmaking seated (player id ``bot:<game>:<n>``) is named
by its strength as the lobby names it, in the view's ``names``, the end sentence and the log, in
English and Russian, while the stored player ids stay ids."""

from __future__ import annotations

from contracts.match import MatchCreated, Resign, SeatHandedToBot
from contracts.matchmaking import Ticket, computer_player, is_computer_player
from domain.core import logwords
from domain.core import match as match_layer
from domain.games import registry
from domain.matchmaking.pairing import Policy, form_tables
from tests.unit.test_draw_offers_and_views import _fold
from tests.unit.test_rules_in_words import _created

UGOLKI = registry.get("ugolki")  # bots random, greedy, search; matchmaking seats greedy
BOT = computer_player("ugolki", 1)


def started(players: tuple[str, str]) -> match_layer.MatchState:
    return _fold(UGOLKI, None, match_layer.decide(UGOLKI, None, None, _created(UGOLKI, players)))


def test_matchmaking_fills_a_table_with_computer_player_ids() -> None:
    ticket = Ticket(
        ticket_id="t1",
        player="ann",
        game="ugolki",
        preset="halma-8x8-1234",
        seats=2,
        rating=1500.0,
        joined_at=0,
        bots_ok=True,
    )
    (table,) = form_tables([ticket], 60_000, Policy(bot_fill_after_ms=300))
    assert sorted(table.players) == ["ann", BOT]
    assert is_computer_player(BOT) and not is_computer_player("ann") and not is_computer_player("bot:x")


def test_a_computer_player_is_named_by_its_strength_and_keeps_its_id() -> None:
    state = started(("ann", BOT))
    assert match_layer.player_in_words(UGOLKI, BOT) == "computer (casual)"
    assert match_layer.player_in_words(UGOLKI, BOT, "ru") == "компьютер (любитель)"
    assert match_layer.player_in_words(UGOLKI, "ann", "ru") == "ann"
    view = match_layer.view(UGOLKI, state, None, "m1", 1, "ru")
    assert view.players == ("ann", BOT) and view.names == ("ann", "компьютер (любитель)")
    assert match_layer.view(UGOLKI, state, None, "m1", 1).names == ("ann", "computer (casual)")
    over = _fold(UGOLKI, state, match_layer.decide(UGOLKI, state, "white", Resign()))
    assert match_layer.outcome_text(UGOLKI, over) == "computer (casual) (black) wins: ann (white) resigned."
    assert match_layer.outcome_text(UGOLKI, over, "ru") == (
        "Побеждает компьютер (любитель) (чёрные): игрок ann (белые) сдался."
    )


def test_strengths_in_words_follow_the_lobby() -> None:
    words = [match_layer.strength_in_words(UGOLKI, b) for b in UGOLKI.bots]
    assert words == ["beginner", "casual", "strong"]
    assert [match_layer.strength_in_words(UGOLKI, b, "ru") for b in UGOLKI.bots] == [
        "новичок",
        "любитель",
        "сильный",
    ]
    handed = SeatHandedToBot(seat="black", strength="greedy", token_hash="h" * 64)
    assert logwords.event_text(UGOLKI, None, handed, None) == "a computer player (casual) takes over black"
    assert (
        logwords.event_text(UGOLKI, None, handed, None, "ru") == "место black занимает компьютер (любитель)"
    )


def test_the_created_line_names_the_preset_by_its_title() -> None:
    state = started(("ann", "bob"))
    created = state.created
    assert isinstance(created, MatchCreated)
    en = logwords.event_text(UGOLKI, None, created, None)
    ru = logwords.event_text(UGOLKI, None, created, None, "ru")
    title = UGOLKI.presets[created.preset]
    assert en == f"match created ({title.title})" and ru == f"партия создана ({title.title_ru})"
    assert UGOLKI.preset_title("no-such-preset", "ru") == "no-such-preset"
