"""Our Dutch pairing (domain.tournaments.swiss) against published Dutch-system pairings.

The data are the test files of bbpPairings (tests/fixtures/swiss/SOURCES.md names each one):
FIDE TRF records giving each player's pairing number, rating and, per round, opponent, colour
and result.  Every round is replayed from the rounds before it: scores (a forfeit win counts,
a forfeited game is no game for colours or rematches, as the published rounds show: 39 meets
18 again in round 13 after a forfeit in round 10; who did not play a round floated down, C.04.3 A.4), colours, earlier
opponents, pairing-allocated byes and last round's downfloaters go into ``pair_round``, and its
games (white, black) and bye are compared with the published ones.

Where ours agrees the test pins it; where it differs the case is an ``xfail(strict=True)``
naming the rule of FIDE C.04.3 our pairing lacks (also listed in the module's docstring and in
docs/architecture.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from domain.tournaments.swiss import BLACK, WHITE, SwissPlayer, pair_round

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "swiss"

_RECORD = re.compile(
    r"001 +(?P<number>\d+) +Test\d+ Player\d+ +\d+ +[\d.]+ +\d+"
    r"(?P<rounds>(?: +\d{1,4} [wb-] [-+=01HZUFWDL])*)"
)
_ROUND = re.compile(r"(\d{1,4}) ([wb-]) ([-+=01HZUFWDL])")
_HALVES = {"1": 2, "+": 2, "W": 2, "F": 2, "U": 2, "=": 1, "D": 1, "H": 1}
_PLAYED = set("10=WDL")


@dataclass(frozen=True)
class Entry:
    opponent: int  # 0: no opponent
    colour: str  # "w", "b" or "-"
    result: str


def parse_trf(name: str) -> dict[int, list[Entry]]:
    """Pairing number -> that player's rounds, from a TRF file of the fixtures."""
    text = (FIXTURES / name).read_text()
    players: dict[int, list[Entry]] = {}
    for m in _RECORD.finditer(text):
        players[int(m["number"])] = [Entry(int(o), c, r) for o, c, r in _ROUND.findall(m["rounds"])]
    return players


def _score(entries: list[Entry], upto: int) -> int:
    return sum(_HALVES.get(e.result, 0) for e in entries[:upto])


def field_for(players: dict[int, list[Entry]], rnd: int) -> list[SwissPlayer]:
    """The players to pair in round ``rnd`` (1-based) as the rounds before it leave them; a
    player whose entry for the round is a requested bye or absence (H, F, Z) is not paired."""
    field = []
    for number, entries in sorted(players.items()):
        if len(entries) >= rnd and entries[rnd - 1].opponent == 0 and entries[rnd - 1].result in "HFZ":
            continue
        before = entries[: rnd - 1]
        played = [e for e in before if e.opponent and e.result in _PLAYED]
        floated = False
        if rnd > 1 and len(entries) >= rnd - 1:
            last = entries[rnd - 2]
            mine = _score(entries, rnd - 2)
            if last.opponent == 0 or last.result not in _PLAYED:
                floated = True  # C.04.3 A.4: who did not play in a round, for whatever reason, floated down
            else:
                floated = mine > _score(players[last.opponent], rnd - 2)
        field.append(
            SwissPlayer(
                player=str(number),
                number=number,
                score=_score(entries, rnd - 1),
                opponents=frozenset(str(e.opponent) for e in played),
                colours=tuple(
                    (WHITE if e.colour == "w" else BLACK) if e.opponent and e.result in _PLAYED else ""
                    for e in before
                ),
                had_bye=any(e.result == "U" or (e.result == "+" and e.opponent) for e in before),
                floated_down_last=floated,
            )
        )
    return field


def initial_colour(players: dict[int, list[Entry]]) -> str:
    first = players[1][0]
    return WHITE if first.colour == "w" else BLACK


def published_round(players: dict[int, list[Entry]], rnd: int) -> tuple[set[tuple[str, str]], str | None]:
    """The games (white, black) and the pairing-allocated bye of round ``rnd`` in the TRF."""
    games: set[tuple[str, str]] = set()
    bye = None
    for number, entries in players.items():
        e = entries[rnd - 1]
        if e.opponent == 0:
            if e.result == "U":
                bye = str(number)
            continue
        if e.colour == "w":
            games.add((str(number), str(e.opponent)))
    return games, bye


def expected_file(name: str) -> tuple[set[tuple[str, str]], str | None]:
    """bbpPairings' answer: the number of games, then ``white black`` per board, ``N 0`` a bye."""
    lines = (FIXTURES / name).read_text().split("\n")[1:]
    games: set[tuple[str, str]] = set()
    bye = None
    for line in filter(None, lines):
        white, black = line.split()
        if black == "0":
            bye = white
        else:
            games.add((white, black))
    return games, bye


def ours(players: dict[int, list[Entry]], rnd: int) -> tuple[set[tuple[str, str]], str | None]:
    pairing = pair_round(field_for(players, rnd), initial_colour(players))
    assert pairing is not None
    return set(pairing.games), pairing.bye


def _diff(published: set[tuple[str, str]], got: set[tuple[str, str]]) -> str:
    def fmt(games: set[tuple[str, str]]) -> str:
        return ", ".join(f"{w}-{b}" for w, b in sorted(games, key=lambda g: (int(g[0]), int(g[1]))))

    return f"published only: {fmt(published - got)} | ours only: {fmt(got - published)}"


ISSUE_7 = parse_trf("issue_7.trf")

_MIN_CLASHES = (
    "C.04.3 C.12/C.13 with D.1: among pairings of a bracket the fewest unsatisfied (then strong) "
    "colour preferences, then the first transposition; ours searches exactly only for no clash or "
    "mild clashes only (S1 of at most 6), else takes each S1 player's least clashing partner in turn"
)
_FLOATER_FIRST = (
    "C.04.3 C.12 outranks the choice of the downfloater: ours fixes the downfloater (the lowest "
    "who did not float last round) before the colour search and changes it only when no pairing exists"
)
_UPFLOAT_AGAIN = (
    "C.04.3 C.15: fewest players upfloating who upfloated in the previous round; ours does not "
    "track upfloats (published 48-51, ours 48-35 with 35 upfloated in round 9)"
)
_UNISOLATED = (
    "several brackets differ; the cause is not isolated beyond the two above and the criteria "
    "C.04.3 C.5-C.19 ours leaves out (floaters' score differences, upfloat limits, floats two rounds back)"
)

# Round -> why ours differs from the published round.  The exact pairs (white-black) that differ,
# as found: round 3 published 33-60 45-48 47-34 49-32 51-46 53-36 55-58 56-50 57-52, ours 33-47
# 45-53 48-32 49-36 51-34 55-60 56-46 57-50 58-52 (published floats 51, not 60, so that 33 and 45,
# both due white, meet 60 and 48, both due black: no colour clash at all); round 4 published
# 27-47 30-43 33-18 36-20 42-28, ours 27-33 30-47 36-18 42-20 43-28 (one strong clash either way:
# published 18-33 is the first transposition, ours moves the clash down to 28-43); round 10
# published 42-45 44-54 48-51 53-46 58-59 60-35, ours 42-54 44-60 46-59 48-35 51-45 53-58 (48 moves
# down; one mild clash either way; published keeps 35, an upfloater of round 9, from upfloating
# again); the other
# rounds' differences are printed by the failing assertion (pytest -rx --runxfail shows them).
ISSUE_7_DIFFERS = {
    3: _FLOATER_FIRST,
    4: _MIN_CLASHES,
    10: _UPFLOAT_AGAIN,
    **{r: _UNISOLATED for r in (5, 6, 8, 9, 11, 12, 13, 14)},
}


@pytest.mark.parametrize(
    "rnd",
    [
        pytest.param(r, marks=pytest.mark.xfail(strict=True, reason=ISSUE_7_DIFFERS[r]))
        if r in ISSUE_7_DIFFERS
        else r
        for r in range(1, 15)
    ],
)
def test_issue_7_each_round_as_the_dutch_engine_paired_it(rnd: int) -> None:
    """The 60-player tournament of bbpPairings' issue_7.input: round ``rnd`` replayed from the
    published rounds before it, compared game by game (white, black) with the published round."""
    published, published_bye = published_round(ISSUE_7, rnd)
    got, bye = ours(ISSUE_7, rnd)
    assert len(published) == 30 and published_bye is None
    assert got == published, _diff(published, got)
    assert bye is None


def test_issue_7_replay_reproduces_the_published_scores() -> None:
    """The parsing is right: the scores after 14 rounds are the TRF's own point column."""
    text = (FIXTURES / "issue_7.trf").read_text()
    points = {
        int(m["number"]): m["points"]
        for m in re.finditer(r"001 +(?P<number>\d+) +Test\d+ Player\d+ +\d+ +(?P<points>[\d.]+)", text)
    }
    assert len(points) == 60
    assert {n: _score(e, 14) / 2 for n, e in ISSUE_7.items()} == {n: float(v) for n, v in points.items()}
    # every game appears in both players' records, with opposite colours
    for rnd in range(14):
        for n, entries in ISSUE_7.items():
            e = entries[rnd]
            if e.opponent:
                other = ISSUE_7[e.opponent][rnd]
                assert other.opponent == n and {e.colour, other.colour} == {"w", "b"}


@pytest.mark.xfail(
    strict=True,
    reason=_UNISOLATED + "; and round 15 is the last round, whose top-scorer exception to the colour "
    "rules (C.04.3 A.7, C.10-C.11) ours lacks",
)
def test_issue_7_round_15_as_bbppairings_pairs_it() -> None:
    published, bye = expected_file("issue_7.expected")
    got, our_bye = ours(ISSUE_7, 15)
    assert len(published) == 30 and bye is None
    assert got == published, _diff(published, got)


def test_dutch_2025_c5_round_3_two_leaders_float_down_past_a_rematch() -> None:
    """bbpPairings' dutch_2025_C5: player 4 absent; 1 and 3 lead but pairing them would leave 2
    and 5, who met in round 1, so each leader meets one of them; 6 gets the bye."""
    players = parse_trf("dutch_2025_C5.trf")
    assert ours(players, 3) == expected_file("dutch_2025_C5.expected") == ({("1", "5"), ("3", "2")}, "6")


@pytest.mark.xfail(
    strict=True,
    reason="FIDE Dutch 2025 C.9 (the bye to a player with fewer unplayed games): player 5 was absent "
    "in round 1 (a zero-point bye); the published pairing gives the bye to 4 (2-1, 3-5), ours to 5 "
    "(2-1, 3-4)",
)
def test_dutch_2025_c9_round_2_bye_to_the_player_who_has_played() -> None:
    players = parse_trf("dutch_2025_C9.trf")
    assert ours(players, 2) == expected_file("dutch_2025_C9.expected")
