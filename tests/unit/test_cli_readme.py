"""Every ``gamehall`` command README.md shows runs: its ``--help`` for each one, and for real, in a
data folder of its own, each ``rules`` and ``audit`` line that needs no running stack (every game
for a ``GAME``, a played match's record and audit bundle for ``game.json`` and ``match.json``).

The commands are read from README.md's code: lines of fenced blocks that start with ``gamehall``
(or ``.venv/bin/gamehall``) and inline code that does, with the sub-commands a table cell lists
after one (``gamehall accounts grant-operator NAME`` / ``revoke-operator NAME``)."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import typer.main

from contracts.codecs import encode
from domain import records
from domain.games import registry
from services.cli.main import app
from services.common.certificates import KeyRing
from tests.support.bundles import certify, played_match
from tests.support.cli import ROOT, gamehall

README = ROOT / "README.md"
ROOT_COMMAND = typer.main.get_command(app)
# Lines run for real: the sub-commands that need no stack (a MATCH_ID needs one).
REAL = (("rules",), ("audit",))
WORD = re.compile(r"[a-z][a-z0-9-]*")


def _code(text: str) -> Iterator[str]:
    """Every line of code in ``text`` that starts with ``gamehall``, as written."""
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            command = line.strip().removeprefix(".venv/bin/")
            if command.startswith("gamehall "):
                yield command
            continue
        parent: list[str] | None = None
        for span in re.findall(r"`([^`]+)`", line):
            span = span.replace("\\|", "|").strip().removeprefix(".venv/bin/")
            if span.startswith("gamehall "):
                path, _ = _resolve(span.split()[1:])
                parent = path[:-1] if path else None
                yield span
            elif parent is not None and span.split()[0] in _group(parent).commands:
                yield " ".join(["gamehall", *parent, span])


def _group(path: list[str]) -> Any:
    command: Any = ROOT_COMMAND
    for word in path:
        command = command.commands[word]
    return command


def _resolve(words: list[str]) -> tuple[list[str], Any]:
    """The sub-command path that ``words`` starts with, and that command."""
    command: Any = ROOT_COMMAND
    path: list[str] = []
    for word in words:
        sub = getattr(command, "commands", {}).get(word)
        if sub is None or sub.hidden:
            break
        command = sub
        path.append(word)
    return path, command


COMMANDS = sorted(set(_code(README.read_text(encoding="utf-8"))))


def test_the_readme_lists_the_commands() -> None:
    paths = {" ".join(_resolve(c.split()[1:])[0]) for c in COMMANDS}
    for expected in ("up", "demo", "rules perft", "rules show", "audit shuffle", "accounts revoke-operator"):
        assert expected in paths, (expected, sorted(paths))


@pytest.mark.parametrize("command", COMMANDS)
def test_every_readme_command_names_one_that_exists(command: str) -> None:
    words = command.split()[1:]
    path, found = _resolve(words)
    rest = words[len(path) :]
    if hasattr(found, "commands") and rest and WORD.fullmatch(rest[0]):
        pytest.fail(f"README.md: {command!r}: {' '.join(['gamehall', *path])} has no sub-command {rest[0]!r}")


def _env(data: Path) -> dict[str, str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("GAMEHALL_") and k != "NATS_URL"}
    return {**environ, "GAMEHALL_DATA_DIR": str(data), "PYTHONPATH": str(ROOT)}


def _optional_groups(words: list[str]) -> tuple[list[str], list[list[str]]]:
    """The words outside ``[...]`` and each bracketed group's words."""
    plain: list[str] = []
    groups: list[list[str]] = []
    depth = 0
    for word in words:
        opens, closes = word.count("["), word.count("]")
        bare = word.strip("[]")
        if depth or opens:
            if opens and not depth:
                groups.append([])
            if bare:
                groups[-1].append(bare)
        elif bare:
            plain.append(bare)
        depth += opens - closes
    return plain, groups


def _real_runs(command: str, files: dict[str, str]) -> list[list[str]]:
    """The concrete argument lists of a README line run for real: its placeholders filled in
    (every game for ``GAME``), without and then with its optional parts that are plain flags or
    flags with a placeholder; none for a line that needs a running stack."""
    words = command.split()[1:]
    if ">" in words:
        words = words[: words.index(">")]
    path, _ = _resolve(words)
    if not any(tuple(path[: len(r)]) == r for r in REAL) or "MATCH_ID" in words:
        return []
    plain, groups = _optional_groups(words)
    games = (
        sorted(registry.GAMES) if "GAME" in plain else [next((w for w in plain if w in registry.GAMES), "")]
    )
    runs = []
    for game in games:
        decider = registry.GAMES.get(game)
        fill = {
            **files,
            "GAME": game,
            "NAME": decider.default_preset if decider else "",
            "P": decider.default_preset if decider else "",
            "D": "2",
            "HEX": "00" * 32,
        }
        known = {w for w in fill if fill[w]}

        def filled(ws: list[str], fill: dict[str, str] = fill) -> list[str]:
            return [fill.get(w, w) for w in ws]

        usable = [g for g in groups if all(w.startswith("-") or w in known for w in g) and "|" not in g]
        runs.append(filled(plain))
        if usable:
            runs.append(filled(plain) + [w for g in usable for w in filled(g)])
    return runs


def _run(env: dict[str, str], args: list[str]) -> tuple[list[str], int, str, str]:
    result = gamehall(env, *args, timeout=120)
    return args, result.returncode, result.stdout, result.stderr


def test_every_readme_command_runs(tmp_path: Path) -> None:
    data = tmp_path / ".gamehall"
    data.mkdir()
    env = _env(data)
    bundle, _ = played_match(game="ugolki", seed=2)
    match_file = tmp_path / "match.json"
    match_file.write_bytes(encode(bundle))
    game_file = tmp_path / "game.json"
    game_file.write_text(json.dumps(records.record_of_bundle(bundle)))
    # A finished match certified by the data folder's key, as a stack exports it.
    match_file.write_bytes(encode(certify(KeyRing(data / "keys"), bundle, at=int(time.time() * 1000))))
    keys = gamehall(env, "keys", "--json", timeout=120)
    assert keys.returncode == 0, keys.stderr
    keys_file = tmp_path / "keys.json"
    keys_file.write_text(keys.stdout)

    pgn_file = tmp_path / "game.pgn"
    pgn_file.write_text(registry.GAMES["ugolki"].notations[0].write(records.record_of_bundle(bundle)))
    pdn_file = tmp_path / "game.pdn"
    draughts_record = records.record_of_bundle(played_match("draughts", seed=2, max_moves=3000)[0])
    pdn_file.write_text(registry.GAMES["draughts"].notations[0].write(draughts_record))
    files = {
        "match.json": str(match_file),
        "game.json": str(game_file),
        "keys.json": str(keys_file),
        "game.pgn": str(pgn_file),
        "game.pdn": str(pdn_file),
    }

    helps = sorted({tuple(_resolve(c.split()[1:])[0]) for c in COMMANDS})
    runs = [[*path, "--help"] for path in helps]
    real = [args for command in COMMANDS for args in _real_runs(command, files)]
    # The README shows one game's presets; every game lists its own.
    real += [["rules", "presets", game] for game in sorted(registry.GAMES)]
    real = [list(args) for args in dict.fromkeys(tuple(args) for args in real)]
    assert any(a[:2] == ["rules", "show"] for a in real) and any(a[:2] == ["audit", "--file"] for a in real)
    runs += real
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda args: _run(env, args), runs))
    failed = [
        f"gamehall {' '.join(args)}: exit {code}, stdout {out[:200]!r}, stderr {err[-400:]!r}"
        for args, code, out, err in results
        if code != 0 or not out.strip()
    ]
    assert not failed, "\n".join(failed)
