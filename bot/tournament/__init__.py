"""Tournaments as pure logic: who plays whom (:mod:`.pairing`) and who stands where
(:mod:`.standings`). No I/O, no store, no Discord: the use cases
(``bot/service/compete/tournaments.py``)
feed them the results so far and store what they return. docs/tournaments.md writes the rules
down."""

from __future__ import annotations

from bot.tournament.pairing import berger, pair_round, swiss, tables_of_three
from bot.tournament.standings import TIEBREAKS, Standing, standings
from bot.tournament.values import Board, Format, PairingError, Played, Round, placement_points

__all__ = [
    "TIEBREAKS",
    "Board",
    "Format",
    "PairingError",
    "Played",
    "Round",
    "Standing",
    "berger",
    "pair_round",
    "placement_points",
    "standings",
    "swiss",
    "tables_of_three",
]
