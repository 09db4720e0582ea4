"""Tournaments, the pure core: formats, pairings, standings, the fold and its audit
(docs/architecture.md "Tournaments (the pure core)")."""

from domain.tournaments.audit import audit
from domain.tournaments.decide import current_standings, decide, evolve, fold
from domain.tournaments.state import TournamentState, initial_state
from domain.tournaments.tables import evenness

__all__ = [
    "TournamentState",
    "audit",
    "current_standings",
    "decide",
    "evenness",
    "evolve",
    "fold",
    "initial_state",
]
