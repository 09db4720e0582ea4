"""docs/architecture.md "How to add a game", followed to the letter: a small game (Nim: one pile,
take 1 to 3, who takes the last wins) written into a temporary folder as its contract module, its
domain package and one entry point, and nothing else.  In a fresh interpreter that finds it, both
registries list it, the catalogue lists its preset with title and family in both languages, the
conformance playout holds for it and a match with two computer players is played to the end."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CONTRACT = """
import msgspec

from contracts.games import GameContract, Sentence


class NimRuleset(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    pile: int = 10
    max_take: int = 3


class Take(msgspec.Struct, frozen=True, kw_only=True, tag="nim_take.v1"):
    count: int


class Taken(msgspec.Struct, frozen=True, kw_only=True, tag="nim_taken.v1"):
    seat: str
    count: int


class NimView(msgspec.Struct, frozen=True, kw_only=True):
    pile: int
    to_move: str | None


CONTRACT = GameContract(
    name="nim",
    command_type=Take,
    event_type=Taken,
    view_type=NimView,
    ruleset_type=NimRuleset,
    rejections={
        "malformed": Sentence("The move is not a move of Nim.", "Это не ход игры Ним."),
        "not_your_turn": Sentence("It is not your turn.", "Сейчас не ваш ход."),
        "bad_count": Sentence("Take 1 to 3, and no more than the pile.", "Возьмите от 1 до 3, не больше кучки."),
        "game_over": Sentence("The game is over.", "Игра окончена."),
    },
)
"""

DOMAIN = """
from __future__ import annotations

import msgspec

from contracts.envelope import Rejected
from contracts.match import Outcome
from domain.core.decider import Decider, Preset, no_hidden
from nim_game.contract import CONTRACT, NimRuleset, NimView, Take, Taken

SEATS = ("first", "second")


class State(msgspec.Struct, frozen=True, kw_only=True):
    pile: int
    max_take: int
    turn: int = 0
    last: str = ""


def initial_state(ruleset, seats, _seed):
    return State(pile=ruleset.pile, max_take=ruleset.max_take)


def to_move(state):
    return frozenset() if state.pile == 0 else frozenset({SEATS[state.turn]})


def legal_commands(state, seat):
    if seat not in to_move(state):
        return ()
    return tuple(Take(count=n) for n in range(1, min(state.max_take, state.pile) + 1))


def decide(state, seat, command):
    if not isinstance(command, Take):
        return Rejected(code="malformed", detail="not a take")
    if state.pile == 0:
        return Rejected(code="game_over", detail="the pile is empty")
    if seat not in to_move(state):
        return Rejected(code="not_your_turn", detail=f"{seat} is not to move")
    if not 1 <= command.count <= min(state.max_take, state.pile):
        return Rejected(code="bad_count", detail=f"take 1 to {min(state.max_take, state.pile)}")
    return (Taken(seat=seat, count=command.count),)


def evolve(state, event):
    return msgspec.structs.replace(state, pile=state.pile - event.count, turn=1 - state.turn, last=event.seat)


def outcome(state):
    if state.pile:
        return None
    return Outcome(ranks=tuple(1 if s == state.last else 2 for s in SEATS), reason="last_taken")


def view(state, _seat):
    movers = sorted(to_move(state))
    return NimView(pile=state.pile, to_move=movers[0] if movers else None)


def validate(ruleset, seats):
    if seats != 2:
        return "Nim is for two"
    if ruleset.pile < 1 or ruleset.max_take < 1:
        return "the pile and the take are at least 1"
    return None


def random_bot(state, seat, r):
    return r.choice(legal_commands(state, seat))


GAME = Decider(
    contract=CONTRACT,
    title="Nim",
    title_ru="Ним",
    rules_version="nim-1",
    min_seats=2,
    max_seats=2,
    seat_names=lambda n: SEATS[:n],
    presets={
        "nim-10": Preset(
            NimRuleset(),
            "One pile of 10; take 1 to 3; who takes the last wins.",
            "Одна кучка из 10; берут от 1 до 3; кто взял последний, выиграл.",
            family="Subtraction games",
            family_ru="Игры вычитания",
            title="Nim of 10",
            title_ru="Ним из 10",
        )
    },
    default_preset="nim-10",
    validate=validate,
    chance=False,
    hidden_info=False,
    max_decisions=20,
    initial_state=initial_state,
    evolve=evolve,
    decide=decide,
    legal_commands=legal_commands,
    to_move=to_move,
    outcome=outcome,
    view=view,
    redact=lambda event, _viewer: event,
    hidden=no_hidden,
    describe=lambda command, lang="en": ("Взять " if lang == "ru" else "Take ") + str(command.count),
    bots={"random": random_bot},
    default_bot="random",
)
"""

CHECK = """
import random
import sys

from contracts.games.registry import CONTRACTS
from domain.core import match
from domain.games import catalogue, registry
from services.gateway.api.games import games_catalogue

sys.path.insert(0, sys.argv[1])
from test_conformance import playout

game = registry.get("nim")
assert CONTRACTS["nim"] is game.contract and registry.get("nim", "nim-1") is game
listed = {g["game"]: g for g in games_catalogue("en")}["nim"]
listed_ru = {g["game"]: g for g in games_catalogue("ru")}["nim"]
assert listed["title"] == "Nim" and listed_ru["title"] == "Ним"
assert listed["families"] == ["Subtraction games"] and listed_ru["families"] == ["Игры вычитания"]
assert [(p["name"], p["family"], p["title"]) for p in listed["presets"]] == [("nim-10", "Subtraction games", "Nim of 10")]
assert [(p["family"], p["title"]) for p in listed_ru["presets"]] == [("Игры вычитания", "Ним из 10")]
assert listed_ru["rejections"]["bad_count"].startswith("Возьмите")
assert catalogue.preset_family("nim", "nim-10", "ru") == ("Игры вычитания", "Ним из 10")

for seed in range(3):
    playout(game, "nim-10", 2, None, seed)

# two computer players, to the end, through the match layer
from test_conformance import create_command
created = match.decide(game, None, None, create_command(game, "nim-10", 2, None))
state = match.evolve(game, None, created[0], None)
r = random.Random(7)
while state.outcome is None:
    (seat,) = match.to_move(game, state)
    command = game.bots[game.default_bot](state.game_state, seat, r)
    events = match.decide(game, state, seat, command)
    assert isinstance(events, tuple), events
    for event in events:
        state = match.evolve(game, state, event, None)
assert sorted(state.outcome.ranks) == [1, 2]
print("nim ok")
"""


def write_game(root: Path) -> list[Path]:
    """The new game's own files, and nothing outside ``root``."""
    files = {
        "nim_game/__init__.py": "",
        "nim_game/contract.py": CONTRACT,
        "nim_game/domain/__init__.py": DOMAIN,
        "nim_game-0.dist-info/METADATA": "Metadata-Version: 2.1\nName: nim-game\nVersion: 0\n",
        "nim_game-0.dist-info/entry_points.txt": "[gamehall.games]\nnim = nim_game\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text).lstrip())
    return [root / name for name in files]


def test_a_game_added_by_the_how_to_is_registered_listed_conformant_and_playable(tmp_path: Path) -> None:
    written = write_game(tmp_path)
    assert all(tmp_path in p.parents for p in written)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    done = subprocess.run(
        [sys.executable, "-c", CHECK, str(ROOT / "tests" / "property")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert "nim ok" in done.stdout


def test_without_the_entry_point_the_registries_do_not_know_the_game() -> None:
    from contracts.games.registry import CONTRACTS
    from domain.games import registry

    assert "nim" not in CONTRACTS and "nim" not in registry.GAMES
