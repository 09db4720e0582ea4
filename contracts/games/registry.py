"""Name -> contract of every game whose messages cross a process or are stored."""

from __future__ import annotations

from contracts.games import GameContract
from contracts.games.farkle_flip import CONTRACT as FARKLE_FLIP
from contracts.games.king import CONTRACT as KING
from contracts.games.kings_corner import CONTRACT as KINGS_CORNER
from contracts.games.kings_cup import CONTRACT as KINGS_CUP
from contracts.games.thousand import CONTRACT as THOUSAND
from contracts.games.ugolki import CONTRACT as UGOLKI

CONTRACTS: dict[str, GameContract] = {
    c.name: c for c in (UGOLKI, KINGS_CORNER, THOUSAND, FARKLE_FLIP, KINGS_CUP, KING)
}
