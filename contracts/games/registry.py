"""Name -> contract of every game whose messages cross a process or are stored.

Derived from the one declaration of the games (``contracts.games.game_modules``: the built-in
list and the ``gamehall.games`` entry points); nothing here names a game.
"""

from __future__ import annotations

from importlib import import_module

from contracts.games import GameContract, game_modules


def _load() -> dict[str, GameContract]:
    found: dict[str, GameContract] = {}
    for where in game_modules():
        contract = import_module(where.contract).CONTRACT
        if not isinstance(contract, GameContract):
            raise RuntimeError(f"{where.contract}.CONTRACT is not a GameContract")
        if contract.name in found:
            raise RuntimeError(f"two contracts are named {contract.name!r}")
        found[contract.name] = contract
    return found


CONTRACTS: dict[str, GameContract] = _load()
