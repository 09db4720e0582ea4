"""The tournament's view: small tournaments worked by hand, in English and Russian."""

from __future__ import annotations

import re

import msgspec
import pytest

from contracts.tournaments import (
    CloseRegistration,
    CreateTournament,
    FinishTournament,
    JoinTournament,
    RecordForfeit,
    RecordResult,
    TournamentView,
    VoidResult,
    WithdrawFromTournament,
)
from domain.tournaments import evenness
from domain.tournaments.view import number, places, points_text, summary, view
from tests.unit.tournaments.support import SEED_HEX, Run, opened, settings

CYRILLIC = re.compile("[\u0400-\u04ff]")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def _game_of(run: Run, rnd: int, player: str) -> tuple[int, tuple[str, ...]]:
    for g in run.state.rounds[rnd - 1].games:
        if player in g.seats:
            return g.table, g.seats
    raise AssertionError(f"{player} plays no game in round {rnd}")


def three_player_round_robin() -> Run:
    """a, b, c (ratings 1500, 1400, 1300): a beats both, b and c draw; each has one bye (1 point).

    By hand: a 2 wins + a bye = 3; b a draw + a loss + a bye = 1.5; c the same.  Buchholz: b met a
    (3) and c (1.5) = 4.5, c met a and b = 4.5; Sonneborn-Berger: b 0 x 3 + ½ x 1.5 = 0.75, c the
    same; their direct encounter a draw: b and c share second place."""
    run = opened(
        "round_robin",
        ["c", "a", "b"],
        [1300.0, 1500.0, 1400.0],
        tie_breaks=("buchholz", "sonneborn_berger", "direct_encounter"),
    )
    for _ in range(3):
        started = run.start()
        for t in started.tables:
            seats = t.seats
            if "a" in seats:
                ranks = tuple(0 if p == "a" else 1 for p in seats)
            else:
                ranks = (0, 0)
            run.do(RecordResult(round=started.round, table=t.table, ranks=ranks))
    return run


def test_a_round_robin_of_three_worked_by_hand() -> None:
    run = three_player_round_robin()
    v = view(run.state, "en", seq=17)
    assert v.seq == 17 and v.phase == "running" and v.round == 3 and v.rounds_total == 3
    assert [e.player for e in v.entrants] == ["a", "b", "c"]  # the seeding: rating high to low
    assert [e.seed for e in v.entrants] == [1, 2, 3]
    # a: Buchholz 1.5 + 1.5, SB 1 x 1.5 + 1 x 1.5 (the bye adds nothing), alone on 3 points
    assert [(s.rank, s.player, s.points, s.tie_breaks) for s in v.standings] == [
        (1, "a", 3.0, (3.0, 3.0, 0.0)),
        (2, "b", 1.5, (4.5, 0.75, 0.5)),
        (2, "c", 1.5, (4.5, 0.75, 0.5)),
    ]
    assert not v.final
    assert [t.name for t in v.tie_breaks] == ["Buchholz", "Sonneborn-Berger", "direct encounter"]
    # every round: one game and one bye
    for rnd in v.rounds:
        assert len(rnd.games) == 1 and len(rnd.byes) == 1 and rnd.complete
        assert rnd.byes[0].points == 1.0 and rnd.byes[0].text == "bye"
        (game,) = rnd.games
        assert game.status == "played" and game.text == ""
        if "a" in game.seats:
            assert game.result == ("1-0" if game.seats[0] == "a" else "0-1")
        else:
            assert game.result == "½-½" and game.places == (1, 1)
    # the crosstable: standings order, a cell per round, the opponent and the result
    assert [row.player for row in v.crosstable] == ["a", "b", "c"]
    marks = {row.player: sorted(cell.mark for cell in row.cells) for row in v.crosstable}
    assert marks == {"a": ["1", "1", "1"], "b": ["0", "1", "½"], "c": ["0", "1", "½"]}
    for row in v.crosstable:
        assert row.points == {"a": 3.0, "b": 1.5, "c": 1.5}[row.player]
        kinds = sorted(cell.kind for cell in row.cells)
        assert kinds == ["bye", "game", "game"]
        for cell in row.cells:
            if cell.kind == "bye":
                assert (cell.mark, cell.points, cell.opponents) == ("1", 1.0, ())
                continue
            table, seats = _game_of(run, cell.round, row.player)
            assert cell.table == table and seats[cell.seat] == row.player
            assert cell.opponents == tuple(p for p in seats if p != row.player)
    b_vs_c = next(cell for cell in v.crosstable[1].cells if cell.opponents == ("c",))
    assert (b_vs_c.mark, b_vs_c.points, b_vs_c.place) == ("½", 0.5, 1)
    assert v.evenness is None  # two seats a game


def test_the_finished_view_shows_the_recorded_standings() -> None:
    run = three_player_round_robin()
    run.do(FinishTournament())
    v = view(run.state, "en")
    assert v.final and v.phase == "finished" and v.phase_text == "Finished" and not v.can_join
    assert [s.player for s in v.standings] == [s.player for s in run.state.standings]
    assert view(run.state, "ru").phase_text == "Турнир завершён"


def test_settings_and_phases_in_words() -> None:
    run = Run()
    run.do(
        CreateTournament(
            tournament_id="t1",
            settings=settings("swiss", rounds=5, tie_breaks=("buchholz", "wins"), bye_points=1),
        )
    )
    for p in ("ann", "bob", "cy"):
        run.do(JoinTournament(player=p))
    en, ru = view(run.state, "en"), view(run.state, "ru")
    assert en.can_join and en.phase == "registration" and en.standings == () and en.crosstable == ()
    assert en.phase_text == "Registration open: 3 players"
    assert ru.phase_text == "Идёт запись: 3 игрока"
    assert en.settings_text == (
        "Swiss system, 5 rounds",
        "Two players a game",
        "Unrated",
        "Tie-breaks: Buchholz, wins",
        "A bye scores 0.5 points",
    )
    assert ru.settings_text == (
        "Швейцарская система, 5 туров",
        "Два игрока в партии",
        "Без рейтинга",
        "Дополнительные показатели: Бухгольц, число побед",
        "Пропуск тура даёт 0,5 очка",
    )
    run.do(CloseRegistration(server_seed=SEED_HEX))
    assert view(run.state, "en").phase_text == "Registration closed: round 1 to start"
    started = run.start()
    assert view(run.state, "en").phase_text == "Round 1 of 5"
    assert view(run.state, "ru").phase_text == "Тур 1 из 5"
    assert view(run.state, "ru").rounds[0].title == "Тур 1"
    run.do(RecordResult(round=1, table=started.tables[0].table, ranks=(0, 1)))
    assert view(run.state, "en").phase_text == "Round 1 of 5 over, round 2 to start"
    assert view(run.state, "ru").phase_text == "Тур 1 из 5 сыгран, скоро тур 2"
    s = summary(run.state, "ru", seq=9, game_title="Уголки")
    assert (s.tournament_id, s.seq, s.entrants, s.round, s.rounds_total) == ("t1", 9, 3, 1, 5)
    assert (s.format_name, s.game_title, s.preset_title) == ("швейцарская система", "Уголки", "classic")


def test_forfeits_voided_games_and_withdrawals() -> None:
    run = opened("round_robin", ["a", "b", "c", "d"], [4.0, 3.0, 2.0, 1.0])
    started = run.start()
    first, second = started.tables
    run.do(RecordForfeit(round=1, table=first.table, player=first.seats[1]))
    run.do(RecordResult(round=1, table=second.table, ranks=(1, 0)))
    run.do(VoidResult(round=1, table=second.table, reason="a wrong result"))
    v = view(run.state, "en")
    forfeit, voided = v.rounds[0].games
    assert (forfeit.status, forfeit.result, forfeit.forfeit) == ("forfeit", "1-0", first.seats[1])
    assert forfeit.text == f"forfeit: {first.seats[1]}"
    assert view(run.state, "ru").rounds[0].games[0].text == f"неявка: {first.seats[1]}"
    assert (voided.status, voided.ranks, voided.result, voided.text) == ("voided", None, "", "voided")
    assert view(run.state, "ru").rounds[0].games[1].text == "аннулирована"
    cells = {row.player: row.cells[0] for row in v.crosstable}
    assert (cells[first.seats[0]].mark, cells[first.seats[0]].points) == ("+", 1.0)
    assert (cells[first.seats[1]].mark, cells[first.seats[1]].points) == ("-", 0.0)
    for p in second.seats:
        assert (cells[p].kind, cells[p].mark, cells[p].points) == ("voided", "×", None)
    assert v.phase_text == "Round 1 of 3"  # the voided game is to be played again
    run.do(RecordResult(round=1, table=second.table, ranks=(0, 1)))
    run.do(WithdrawFromTournament(player="d"))
    v = view(run.state, "en")
    assert [e.player for e in v.entrants if e.withdrawn] == ["d"]
    assert [s.player for s in v.standings if s.withdrawn] == ["d"]


def fair_tables_of_six() -> Run:
    run = opened("fair_tables", ["p1", "p2", "p3", "p4", "p5", "p6"], rounds=2, table_size=3)
    for _ in range(2):
        started = run.start()
        for t in started.tables:
            run.do(RecordResult(round=started.round, table=t.table, ranks=(0, 1, 1), scores=(30, 10, 10)))
    return run


def test_fair_tables_cells_are_table_position_and_place_and_the_evenness_is_reported() -> None:
    run = fair_tables_of_six()
    v = view(run.state, "en")
    for rnd in v.rounds:
        assert [len(g.seats) for g in rnd.games] == [3, 3]
        for g in rnd.games:
            assert (g.places, g.result, g.scores) == ((1, 2, 2), "1 2 2", (30, 10, 10))
    for row in v.crosstable:
        for cell in row.cells:
            table, seats = _game_of(run, cell.round, row.player)
            assert (cell.table, seats[cell.seat]) == (table, row.player)
            assert len(cell.opponents) == 2
            # first at the table: 2 + 2 half points; a shared second: 1 (level) + 0
            assert (cell.place, cell.mark, cell.points) == (
                (1, "1", 2.0) if cell.seat == 0 else (2, "2=", 0.5)
            )
    # two rounds of two triples of six: some pair meets twice (pigeonhole), some never
    assert v.evenness is not None
    measured = evenness([tuple(g.seats for g in r.games) for r in run.state.rounds])
    assert msgspec.structs.asdict(v.evenness) | {"text": ""} == msgspec.structs.asdict(measured) | {
        "text": ""
    }
    assert (v.evenness.min_meetings, v.evenness.max_meetings) == (0, 2)
    gap = number("en", round(measured.max_position_gap, 2))
    assert v.evenness.text == f"Pairs met 0 to 2 times each; positions within {gap} of even"
    ru = view(run.state, "ru")
    assert ru.evenness is not None and ru.evenness.text.startswith("Пары встречались от 0 до 2 раз;")
    assert ru.settings_text[1] == "Столы по 3 места"


def test_places_and_points_in_words() -> None:
    assert places((0, 1, 1, 3)) == (1, 2, 2, 4)
    assert places((1, 0, 2)) == (2, 1, 3)
    assert places((0, 0)) == (1, 1)
    assert points_text("en", 2) == "1 point" and points_text("en", 3) == "1.5 points"
    assert (
        points_text("ru", 2) == "1 очко"
        and points_text("ru", 1) == "0,5 очка"
        and points_text("ru", 10) == "5 очков"
    )
    assert number("ru", 0.75) == "0,75" and number("en", 2.0) == "2"


def _texts(v: TournamentView) -> list[str]:
    out = [v.format_name, v.phase_text, *v.settings_text, *(t.name for t in v.tie_breaks)]
    for rnd in v.rounds:
        out += [rnd.title, *(g.text for g in rnd.games), *(b.text for b in rnd.byes)]
    if v.evenness is not None:
        out.append(v.evenness.text)
    return out


@pytest.mark.parametrize("build", [three_player_round_robin, fair_tables_of_six])
def test_a_russian_view_has_no_latin_words_outside_names(build: object) -> None:
    run = build()  # type: ignore[operator]
    ru = view(run.state, "ru")
    names = set(run.state.entrants)
    for text in _texts(ru):
        for word in LATIN_WORD.findall(text):
            assert word in names, (word, text)
        assert CYRILLIC.search(text) or not LATIN_WORD.search(text), text
    assert _texts(ru) != _texts(view(run.state, "en"))


def test_an_arena_is_told_by_its_games_not_rounds() -> None:
    from contracts.tournaments import (
        PlayerJoined,
        RegistrationClosed,
        ResultRecorded,
        RoundStarted,
        Table,
        TournamentCreated,
    )
    from domain.tournaments import fold

    arena = settings("arena", window_start=1, window_end=2)
    events = [
        TournamentCreated(tournament_id="a1", settings=arena),
        PlayerJoined(player="ann"),
        PlayerJoined(player="bob"),
    ]
    state = fold(events)
    assert (
        view(state, "en").settings_text[0]
        == "Arena: paired again as soon as a game ends, points with streak bonuses"
    )
    assert (
        view(state, "ru").settings_text[0]
        == "Арена: новая пара сразу после партии, очки с бонусами за серии побед"
    )
    assert not any("bye" in line for line in view(state, "en").settings_text)
    state = fold(
        [
            RegistrationClosed(server_seed=SEED_HEX, order=("ann", "bob")),
            RoundStarted(round=1, tables=(Table(table=1, seats=("ann", "bob")),)),
            ResultRecorded(round=1, table=1, ranks=(0, 1)),
        ],
        state,
    )
    v = view(state, "ru")
    assert (v.format_name, v.phase_text, v.rounds_total) == ("арена", "Арена идёт, партий сыграно: 1", 1)
    assert view(state, "en").phase_text == "Arena under way, games played: 1"
