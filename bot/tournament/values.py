"""What the pairing and the standings share: the formats, a board, a round, a result."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Format(StrEnum):
    """How a tournament pairs its players (the values are the database's)."""

    ROUND_ROBIN = "round-robin"
    DOUBLE_ROUND_ROBIN = "double-round-robin"
    SWISS = "swiss"
    TABLES = "tables"
    """三国志 tables: three players a table, grouped by standing each round."""

    @property
    def is_round_robin(self) -> bool:
        return self in (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN)


class PairingError(ValueError):
    """A round that cannot be paired (too few players)."""


@dataclass(frozen=True, slots=True)
class Board:
    """One game of a round: its players in seat order (seat 0 moves first). ``two_player``:
    a table of two in a tournament of three-player tables (played as ``sangokushi-2p``)."""

    players: tuple[str, ...]
    two_player: bool = False


@dataclass(frozen=True, slots=True)
class Round:
    """A round's boards and who sits it out (a bye)."""

    boards: tuple[Board, ...]
    byes: tuple[str, ...] = ()

    def players(self) -> list[str]:
        return [p for b in self.boards for p in b.players] + list(self.byes)


@dataclass(frozen=True, slots=True)
class Played:
    """A result: a board's players in seat order and the points each scored (a win 1, a draw
    or shared first place ½ each, otherwise 0). One player alone is a bye. ``ranks``: the
    placements (1 first), read from the points when not given. ``forfeit``: decided without
    play (a withdrawal); it counts for points but is no meeting for the tie-breaks."""

    round: int
    players: tuple[str, ...]
    points: tuple[float, ...]
    ranks: tuple[int, ...] = ()
    forfeit: bool = False

    @property
    def is_bye(self) -> bool:
        return len(self.players) == 1

    def placements(self) -> tuple[int, ...]:
        if self.ranks:
            return self.ranks
        return tuple(1 + sum(q > p for q in self.points) for p in self.points)

    def opponents(self, player: str) -> tuple[str, ...]:
        """Whom ``player`` met here over the board (none in a bye or a forfeit)."""
        if self.forfeit or player not in self.players:
            return ()
        return tuple(p for p in self.players if p != player)

    def points_of(self, player: str) -> float:
        return self.points[self.players.index(player)]


def placement_points(ranks: tuple[int, ...]) -> tuple[float, ...]:
    """The points of a game's placements: first place shares one point (a win 1, two sharing
    first ½ each, a draw between two ½ each); every other place 0."""
    firsts = sum(r == 1 for r in ranks)
    return tuple(1 / firsts if r == 1 else 0.0 for r in ranks)
