"""What a page or a client sees of a tournament: its view and its summary, pure functions of the
folded state, with the words in the language asked (``domain.core.words``).

- the settings in words, a line each (format and rounds, tables, rated, tie-breaks, a bye);
- the phase in words ("Round 2 of 5", "Registration open: 5 players");
- the entrants (seeding order once registration closed, with their seeding numbers);
- every round's games (tables, seats in order, results in notation, forfeits, voided games) and
  byes;
- the crosstable: per player and round, for two seats the opponent, the colour (seat) and the
  result ("1", "½", "0", "+"/"-" for a forfeit won or lost, "×" voided); for fair tables the table,
  the position at it and the place ("2=" for a shared second);
- the standings with every tie-break the settings name (the recorded final standings once
  finished, else the standings so far);
- fair tables: ``evenness`` of the rounds seated so far (docs/architecture.md "Fair tables: the
  measure").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from contracts.tournaments import (
    ByeView,
    CrossCell,
    CrossRow,
    EntrantView,
    GameStatus,
    GameView,
    RoundView,
    StandingView,
    TableEvenness,
    TieBreakName,
    TournamentSettings,
    TournamentSummary,
    TournamentView,
)
from domain.core.words import Lang, Words
from domain.tournaments.decide import current_standings
from domain.tournaments.pairing import total_rounds
from domain.tournaments.state import GameState, RoundState, TournamentState
from domain.tournaments.tables import evenness

WORDS = Words(
    en={
        "format.round_robin": "round robin",
        "format.double_round_robin": "double round robin",
        "format.swiss": "Swiss system",
        "format.knockout": "knockout",
        "format.fair_tables": "fair tables",
        "format.arena": "arena",
        "tie.buchholz": "Buchholz",
        "tie.median_buchholz": "median Buchholz",
        "tie.sonneborn_berger": "Sonneborn-Berger",
        "tie.direct_encounter": "direct encounter",
        "tie.wins": "wins",
        "tie.game_totals": "game totals",
        "n.player": "player|players",
        "n.round": "round|rounds",
        "n.point": "point|points",
        "n.time": "time|times",
        "n.time_upto": "time|times",
        "settings.format": "{format}, {rounds}",
        "settings.arena": "Arena: paired again as soon as a game ends, points with streak bonuses",
        "settings.tables": "Tables of {size}, at least {least}",
        "settings.table_size": "Tables of {size}",
        "settings.two_seats": "Two players a game",
        "settings.rated": "Rated",
        "settings.unrated": "Unrated",
        "settings.tie_breaks": "Tie-breaks: {names}",
        "settings.no_tie_breaks": "No tie-breaks: equal points share a place",
        "settings.bye": "A bye scores {points}",
        "phase.registration": "Registration open: {players}",
        "phase.closed": "Registration closed: round 1 to start",
        "phase.round": "Round {round} of {total}",
        "phase.between": "Round {round} of {total} over, round {next} to start",
        "phase.last_over": "All {total} played, the results to confirm",
        "phase.finished": "Finished",
        "phase.arena": "Arena under way, games played: {games}",
        "round.title": "Round {round}",
        "game.to_play": "to play",
        "game.forfeit": "forfeit: {player}",
        "game.voided": "voided",
        "bye": "bye",
        "evenness": "Pairs met {least} to {most} {times} each; positions within {gap} of even",
        "evenness.same": "Pairs met {least} each; positions within {gap} of even",
    },
    ru={
        "format.round_robin": "круговой турнир",
        "format.double_round_robin": "двухкруговой турнир",
        "format.swiss": "швейцарская система",
        "format.knockout": "олимпийская система",
        "format.fair_tables": "справедливые столы",
        "format.arena": "арена",
        "tie.buchholz": "Бухгольц",
        "tie.median_buchholz": "усечённый Бухгольц",
        "tie.sonneborn_berger": "Зоннеборн-Бергер",
        "tie.direct_encounter": "личная встреча",
        "tie.wins": "число побед",
        "tie.game_totals": "сумма очков в партиях",
        "n.player": "игрок|игрока|игроков",
        "n.round": "тур|тура|туров",
        "n.point": "очко|очка|очков",
        "n.time": "разу|раза|раз",  # по 1 разу, по 2 раза, по 5 раз
        "n.time_upto": "раза|раз|раз",  # до 1 раза, до 2 раз, до 5 раз
        "settings.format": "{format}, {rounds}",
        "settings.arena": "Арена: новая пара сразу после партии, очки с бонусами за серии побед",
        "settings.tables": "Столы по {size} места, не меньше {least}",
        "settings.table_size": "Столы по {size} места",
        "settings.two_seats": "Два игрока в партии",
        "settings.rated": "На рейтинг",
        "settings.unrated": "Без рейтинга",
        "settings.tie_breaks": "Дополнительные показатели: {names}",
        "settings.no_tie_breaks": "Без дополнительных показателей: равные очки делят место",
        "settings.bye": "Пропуск тура даёт {points}",
        "phase.registration": "Идёт запись: {players}",
        "phase.closed": "Запись закрыта, скоро тур 1",
        "phase.round": "Тур {round} из {total}",
        "phase.between": "Тур {round} из {total} сыгран, скоро тур {next}",
        "phase.last_over": "Сыграны все {total}, итоги ещё не подведены",
        "phase.finished": "Турнир завершён",
        "phase.arena": "Арена идёт, партий сыграно: {games}",
        "round.title": "Тур {round}",
        "game.to_play": "играется",
        "game.forfeit": "неявка: {player}",
        "game.voided": "аннулирована",
        "bye": "пропуск тура",
        "evenness": "Пары встречались от {least} до {most} {times}; места за столом отклоняются от ровного не больше чем на {gap}",
        "evenness.same": "Пары встречались по {least}; места за столом отклоняются от ровного не больше чем на {gap}",
    },
)


def number(lang: Lang, value: float) -> str:
    """A number as a sentence says it: "1.5" / "1,5"; whole numbers without a fraction."""
    text = f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))
    return text.replace(".", ",") if lang == "ru" else text


def points_text(lang: Lang, half_points: int) -> str:
    """Half points as points with their noun: "1 point", "1.5 points", "0,5 очка"."""
    if half_points % 2 == 0:
        return WORDS.count(lang, "n.point", half_points // 2)
    # a fraction takes the genitive singular in Russian ("1,5 очка") and the plural in English
    form = WORDS.word(lang, "n.point", 2)
    return f"{number(lang, half_points / 2)} {form}"


def format_name(lang: Lang, fmt: str) -> str:
    return WORDS.say(lang, f"format.{fmt}")


def settings_text(settings: TournamentSettings, rounds_total: int, lang: Lang) -> tuple[str, ...]:
    name = format_name(lang, settings.format)
    rounds = WORDS.count(lang, "n.round", rounds_total)
    first = WORDS.say(lang, "settings.format", format=name[:1].upper() + name[1:], rounds=rounds)
    lines = [WORDS.say(lang, "settings.arena") if settings.format == "arena" else first]
    if settings.table_size == 2:
        lines.append(WORDS.say(lang, "settings.two_seats"))
    elif settings.min_table_size and settings.min_table_size != settings.table_size:
        lines.append(
            WORDS.say(lang, "settings.tables", size=settings.table_size, least=settings.min_table_size)
        )
    else:
        lines.append(WORDS.say(lang, "settings.table_size", size=settings.table_size))
    lines.append(WORDS.say(lang, "settings.rated" if settings.rated else "settings.unrated"))
    if settings.tie_breaks:
        names = ", ".join(WORDS.say(lang, f"tie.{t}") for t in settings.tie_breaks)
        lines.append(WORDS.say(lang, "settings.tie_breaks", names=names))
    else:
        lines.append(WORDS.say(lang, "settings.no_tie_breaks"))
    if settings.format not in ("knockout", "arena"):
        lines.append(WORDS.say(lang, "settings.bye", points=points_text(lang, settings.bye_points)))
    return tuple(lines)


def rounds_total(state: TournamentState) -> int:
    """How many rounds the tournament plays (before the close, as the entrants so far would); an
    arena's pairings so far (it has no number of rounds)."""
    if state.settings is not None and state.settings.format == "arena":
        return len(state.rounds)
    if state.order:
        return total_rounds(state)
    return total_rounds(msgspec.structs.replace(state, order=state.entrants))


def phase_text(state: TournamentState, lang: Lang) -> str:
    total = rounds_total(state)
    started = len(state.rounds)
    if state.phase == "registration":
        return WORDS.say(
            lang, "phase.registration", players=WORDS.count(lang, "n.player", len(state.entrants))
        )
    if state.phase == "finished":
        return WORDS.say(lang, "phase.finished")
    if state.settings is not None and state.settings.format == "arena":
        played = sum(1 for r in state.rounds for g in r.games if g.ranks is not None)
        return WORDS.say(lang, "phase.arena", games=played)
    if not started:
        return WORDS.say(lang, "phase.closed")
    if not state.rounds[-1].complete():
        return WORDS.say(lang, "phase.round", round=started, total=total)
    if started < total:
        return WORDS.say(lang, "phase.between", round=started, total=total, next=started + 1)
    return WORDS.say(lang, "phase.last_over", total=WORDS.count(lang, "n.round", total))


def places(ranks: Sequence[int]) -> tuple[int, ...]:
    """1-based places, shared places equal: a seat's place is 1 + the seats ranked above it."""
    return tuple(1 + sum(1 for other in ranks if other < r) for r in ranks)


def _status(game: GameState) -> GameStatus:
    if game.voided:
        return "voided"
    if game.ranks is None:
        return "to_play"
    return "forfeit" if game.forfeit else "played"


def result_notation(game: GameState) -> str:
    """ "1-0", "0-1", "½-½" for two seats (a forfeit too); the places "1 2 2 4" for more."""
    if game.ranks is None:
        return ""
    if len(game.seats) == 2:
        a, b = game.ranks
        return "½-½" if a == b else "1-0" if a < b else "0-1"
    return " ".join(str(p) for p in places(game.ranks))


def game_view(game: GameState, lang: Lang) -> GameView:
    status = _status(game)
    text = ""
    if status == "to_play":
        text = WORDS.say(lang, "game.to_play")
    elif status == "voided":
        text = WORDS.say(lang, "game.voided")
    elif status == "forfeit":
        text = WORDS.say(lang, "game.forfeit", player=game.forfeit)
    return GameView(
        table=game.table,
        seats=game.seats,
        status=status,
        ranks=game.ranks,
        places=places(game.ranks) if game.ranks is not None else (),
        scores=game.scores,
        forfeit=game.forfeit,
        result=result_notation(game),
        text=text,
    )


def _two_seat_mark(game: GameState, seat: int) -> str:
    assert game.ranks is not None
    mine, theirs = game.ranks[seat], game.ranks[1 - seat]
    if game.forfeit:
        return "-" if game.forfeit == game.seats[seat] else "+"
    return "1" if mine < theirs else "½" if mine == theirs else "0"


def _bye_mark(half_points: int) -> str:
    """A bye's points in notation: "1", "½", "0", else the number ("1½")."""
    whole, half = divmod(half_points, 2)
    if not half:
        return str(whole)
    return f"{whole or ''}½"


def _half_points(ranks: Sequence[int], seat: int) -> int:
    return sum(
        2 if ranks[seat] < r else 1 if ranks[seat] == r else 0 for j, r in enumerate(ranks) if j != seat
    )


def round_cells(rnd: RoundState) -> dict[str, CrossCell]:
    """Every player's cell of one round in the crosstable (a player absent from it has none)."""
    out: dict[str, CrossCell] = {
        p: CrossCell(round=rnd.round, kind="bye", points=pts / 2, mark=_bye_mark(pts)) for p, pts in rnd.byes
    }
    for game in rnd.games:
        shown = places(game.ranks) if game.ranks is not None else ()
        for seat, player in enumerate(game.seats):
            others = game.seats[:seat] + game.seats[seat + 1 :]
            base = CrossCell(round=rnd.round, kind="to_play", table=game.table, seat=seat, opponents=others)
            if game.voided:
                out[player] = msgspec.structs.replace(base, kind="voided", mark="×")
                continue
            if game.ranks is None:
                out[player] = base
                continue
            place = shown[seat]
            if len(game.seats) == 2:
                mark = _two_seat_mark(game, seat)
            else:
                mark = f"{place}=" if game.ranks.count(game.ranks[seat]) > 1 else str(place)
            out[player] = msgspec.structs.replace(
                base, kind="game", place=place, points=_half_points(game.ranks, seat) / 2, mark=mark
            )
    return out


def _standings(state: TournamentState) -> tuple[tuple[StandingView, ...], bool]:
    if state.phase == "finished":
        rows, final = state.standings, True
    elif state.phase == "running":
        rows, final = current_standings(state), False
    else:
        return (), False
    gone = state.withdrawn_players()
    return (
        tuple(
            StandingView(
                rank=r.rank,
                player=r.player,
                points=r.points,
                tie_breaks=r.tie_breaks,
                withdrawn=r.player in gone,
            )
            for r in rows
        ),
        final,
    )


def _evenness(state: TournamentState, lang: Lang) -> TableEvenness | None:
    s = state.settings
    if s is None or s.format != "fair_tables" or not state.rounds:
        return None
    measured = evenness([tuple(g.seats for g in r.games) for r in state.rounds])
    gap = number(lang, round(measured.max_position_gap, 2))
    if measured.min_meetings == measured.max_meetings:
        text = WORDS.say(
            lang, "evenness.same", least=WORDS.count(lang, "n.time", measured.min_meetings), gap=gap
        )
    else:
        most = measured.max_meetings
        times = WORDS.word(lang, "n.time_upto", most)
        text = WORDS.say(lang, "evenness", least=measured.min_meetings, most=most, times=times, gap=gap)
    return TableEvenness(
        pairs=measured.pairs,
        positions=measured.positions,
        total=measured.total,
        min_meetings=measured.min_meetings,
        max_meetings=measured.max_meetings,
        max_position_gap=measured.max_position_gap,
        text=text,
    )


def _phase(state: TournamentState) -> str:
    if state.phase == "new":
        raise ValueError("no tournament: nothing created")
    return state.phase


def _head(state: TournamentState, lang: Lang, seq: int, game_title: str, preset_title: str) -> dict[str, Any]:
    """The fields a summary and a view share."""
    s = state.settings
    phase = _phase(state)
    assert s is not None
    return {
        "tournament_id": state.tournament_id,
        "seq": seq,
        "game": s.game,
        "game_title": game_title or s.game,
        "preset": s.preset,
        "preset_title": preset_title or s.preset,
        "format": s.format,
        "format_name": format_name(lang, s.format),
        "rated": s.rated,
        "table_size": s.table_size,
        "phase": phase,
        "phase_text": phase_text(state, lang),
        "round": len(state.rounds),
        "rounds_total": rounds_total(state),
    }


def summary(
    state: TournamentState, lang: Lang, *, seq: int = 0, game_title: str = "", preset_title: str = ""
) -> TournamentSummary:
    head = _head(state, lang, seq, game_title, preset_title)
    return TournamentSummary(**head, entrants=len(state.entrants))


def view(
    state: TournamentState, lang: Lang, *, seq: int = 0, game_title: str = "", preset_title: str = ""
) -> TournamentView:
    """The whole tournament as a page shows it (module docstring); ``seq``: the records folded."""
    s = state.settings
    phase = _phase(state)
    assert s is not None
    total = rounds_total(state)
    gone = state.withdrawn_players()
    rating = dict(zip(state.entrants, state.ratings, strict=True))
    seed = {p: i + 1 for i, p in enumerate(state.order)}
    players = state.order or state.entrants
    entrants = tuple(
        EntrantView(player=p, rating=rating.get(p, 0.0), seed=seed.get(p, 0), withdrawn=p in gone)
        for p in players
    )
    rounds = tuple(
        RoundView(
            round=r.round,
            title=WORDS.say(lang, "round.title", round=r.round),
            complete=r.complete(),
            games=tuple(game_view(g, lang) for g in r.games),
            byes=tuple(ByeView(player=p, points=pts / 2, text=WORDS.say(lang, "bye")) for p, pts in r.byes),
        )
        for r in state.rounds
    )
    standings, final = _standings(state)
    points = {row.player: row.points for row in standings}
    by_standing = [row.player for row in standings] or list(players)
    cells = [round_cells(r) for r in state.rounds]
    crosstable = (
        tuple(
            CrossRow(
                player=p,
                seed=seed.get(p, 0),
                points=points.get(p, 0.0),
                cells=tuple(
                    cells[i].get(p) or CrossCell(round=r.round, kind="out")
                    for i, r in enumerate(state.rounds)
                ),
            )
            for p in by_standing
        )
        if state.rounds
        else ()
    )
    return TournamentView(
        **_head(state, lang, seq, game_title, preset_title),
        lang=lang,
        settings=s,
        settings_text=settings_text(s, total, lang),
        can_join=phase == "registration" or (phase == "running" and s.format == "arena"),  # late entries
        entrants=entrants,
        rounds=rounds,
        crosstable=crosstable,
        tie_breaks=tuple(TieBreakName(code=t, name=WORDS.say(lang, f"tie.{t}")) for t in s.tie_breaks),
        standings=standings,
        final=final,
        evenness=_evenness(state, lang),
    )
