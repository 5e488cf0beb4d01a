"""Retry your mistakes (issue 50, 4): the positions where a player erred in a reviewed game,
played again as puzzles of their own. Pure: the mistakes as the review found them, the record
of a retry in progress as the practice board keeps it, what a try is worth and the stars.

A try is right when it is the review's better move, or when the computer, judging the try with
the review's own budget, finds it no mistake (it gives away less than
:data:`engines.ai.review.SMALLEST_MISTAKE` of the best move's winning chance): as a puzzle's
other winning moves are right by proof, not by comparison with its line. Playing again the move
of the game is wrong without a search. Stars as in the lessons: three for a first try, one less
for each wrong try and each hint, at least one once found; none when the answer was shown.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from engines.ai.review import SMALLEST_MISTAKE
from engines.core import State, Text

STARS = 3
"""Stars for a mistake put right at the first try without a hint."""


@dataclass(frozen=True, slots=True)
class Mistake:
    """One mistake of a review: the ply (from 1), the seat that made it, the move played and the
    better one (canonical notation, and as the game shows them), and the winning chances (in
    percent) the played move kept and the better one would have."""

    ply: int
    seat: int
    played: str
    best: str
    played_shown: Text
    best_shown: Text
    kept: int
    could: int


@dataclass(frozen=True, slots=True)
class Spot:
    """A mistake with the position it was played from (``before``) and the move that led to
    that position (``last``, for the picture; None at the start)."""

    mistake: Mistake
    before: State[Any]
    last: Any = None


@dataclass(frozen=True, slots=True)
class Progress:
    """A retry in progress, as its practice row's ``item`` keeps it: the game, and the stars
    earned on each mistake done so far (the next one is ``len(stars)``)."""

    game_id: int
    stars: tuple[int, ...] = ()

    @property
    def index(self) -> int:
        return len(self.stars)

    def text(self) -> str:
        return f"{self.game_id}:{'.'.join(str(s) for s in self.stars)}"

    @classmethod
    def read(cls, text: str) -> Progress | None:
        """The progress :meth:`text` wrote (None: not a retry's)."""
        game, sep, done = text.partition(":")
        if not sep or not game.isdigit():
            return None
        parts = done.split(".") if done else []
        if not all(p.isdigit() and int(p) <= STARS for p in parts):
            return None
        return cls(int(game), tuple(int(p) for p in parts))

    def done(self, earned: int) -> Progress:
        return Progress(self.game_id, (*self.stars, earned))


class Verdict(enum.Enum):
    RIGHT = "right"
    """The better move, or one the computer finds no mistake."""
    AGAIN = "again"
    """The move of the game again."""
    WRONG = "wrong"
    """Another move that gives away a winning chance."""


def quick_verdict(mistake: Mistake, tried: str) -> Verdict | None:
    """What a try is without a search (None: the computer must judge it)."""
    if tried == mistake.best:
        return Verdict.RIGHT
    if tried == mistake.played:
        return Verdict.AGAIN
    return None


def judged_verdict(loss: float) -> Verdict:
    """A try the computer judged: right if it gives away less than a mistake does."""
    return Verdict.RIGHT if loss < SMALLEST_MISTAKE else Verdict.WRONG


def stars(tries: int, hints: int, shown: bool = False) -> int:
    """Stars for a mistake put right after ``tries`` tries (the right one included) and
    ``hints`` hints; none when the answer was shown."""
    if shown:
        return 0
    return max(1, STARS - max(0, tries - 1) - hints)


def star_line(earned: tuple[int, ...]) -> str:
    """The stars of each mistake, as a learner reads them (``★★★ ★★☆ ☆☆☆``)."""
    return " ".join("★" * s + "☆" * (STARS - s) for s in earned)
