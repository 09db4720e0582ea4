"""The card-game kernel: what every card game of gamehall shares (Kings in the Corner, King, 1000).

A card game is a Decider (``domain.core.decider``) whose state carries an explicit **phase**
value; a table from phase to what the phase accepts drives ``decide`` and ``legal_commands``
(as open_spiel's ``hearts`` and boardgame.io's ``phases`` do), never a free status string.

Modules (each small, pure, documented; import what you use):

- ``lifecycle``: the round lifecycle ``waiting -> (every active seat Ready) deal -> play ->
  scored -> (Ready) next deal ... -> over``, the client seeds given with the first Ready, and the
  checks of a Ready command.
- ``phases``: ``Phase`` (what one phase accepts, its legal commands and its decide step) and
  ``PhaseTable`` lookups.
- ``deal``: dealing from rng_v1 (the round key from server and client seeds, the first dealer,
  the dealer passing left, the shuffled deck of a round, round-robin hands) and
  ``verify_recorded``, the generic ``verify_chance`` comparison of a recorded chance event with
  the one re-derived from the revealed seed.
- ``redact``: placeholder redaction (``UNKNOWN`` = ``"??"``): hidden cards are replaced, never
  dropped, so the redacted events fold into the viewer's information state; ``remove_cards``
  takes a played card out of a hand that may hold placeholders; ``hidden_hand`` for the
  Decider's ``hidden``.
- ``builder``: ``Builder``, the event builder of ``decide``: every emitted event is folded at
  once, so follow-ups (end of turn, automatic draws, scoring) are computed on the state they
  apply to.
- ``fold``: ``by_type``, a game's ``evolve`` from its table of one fold per event type.
- ``scoring``: round scoring helpers: hand values from a point table, running totals, targets
  (reach or strictly exceed), fixed rounds, elimination, places and standings.
- ``tricks``: trick-taking (follow suit, trump duty, trick winner) for King and 1000.

Card ids are those of ``domain.core.cards``.
"""
