"""The four Socrates games: five-in-a-row windows (宇宙遊泳) and race progress (the others)."""

from __future__ import annotations

from functools import partial
from typing import Any

from engines.ai import shinken, twothree
from engines.ai.evaluation import Evaluation
from engines.ai.levels import LEVELS, margins_with
from engines.ai.search import PROVEN, WIN
from engines.core import State
from engines.socrates import kokutan
from engines.socrates.board import (
    CELLS,
    COLS,
    EMPTY,
    MARKED,
    MOVE,
    OWN,
    ROWS,
    SocratesState,
    col_of,
    row_of,
)
from engines.socrates.shinken import ShinkenState

# --- 宇宙遊泳: lines of five ----------------------------------------------------------------------


def _starts(dc: int, dr: int) -> int:
    """The cells where a run of five in direction (dc, dr) can start, as a set of bits."""
    out = 0
    for c in range(CELLS):
        col, row = col_of(c), row_of(c)
        if 0 <= col + 4 * dc < COLS and 1 <= row + 4 * dr <= ROWS:
            out |= 1 << c
    return out


LINES = tuple((dc + COLS * dr, _starts(dc, dr)) for dc, dr in ((1, 0), (0, 1), (1, 1), (-1, 1)))
"""Per direction of a run of five: the cell step and the cells where a run can start. The
board is read as two numbers, one bit a cell per side (cell 0 the lowest bit)."""
_SIDES = (
    str.maketrans({".": "0", "P": "1", "M": "1", "p": "0", "m": "0"}),
    str.maketrans({".": "0", "P": "0", "M": "0", "p": "1", "m": "1"}),
)
WINDOW_VALUE = (0, 1, 6, 40, 300, 0)
"""A window (a run of five cells) holding n pieces of one player and none of the other's."""
FOUR_TO_MOVE = 5_000
"""A window of four (and an empty fifth) for the player to move: five next turn, as far as a
piece can get there (one in hand always can)."""
UCHU_HAND = 3
"""A piece in hand (placeable anywhere)."""


def _count(shifted: list[int], free: int) -> tuple[int, int, int, int]:
    """Windows (starting on ``free``) holding 1-4 of the pieces whose ``shifted`` copies are
    given (the pieces shifted by 0-4 cell steps): a bit-sliced count b2 b1 b0 per window."""
    b0 = shifted[0] & free
    b1 = b2 = 0
    for x in shifted[1:]:
        x &= free
        carry = b0 & x
        b0 ^= x
        b2 |= b1 & carry
        b1 ^= carry
    low = free & ~b2
    return (
        (b0 & ~b1 & low).bit_count(),
        (b1 & ~b0 & low).bit_count(),
        (b0 & b1 & low).bit_count(),
        (b2 & ~b0 & ~b1).bit_count(),
    )


def _window_counts(black: int, white: int) -> list[list[int]]:
    """For each side, how many windows hold 1, 2, 3 and 4 of its pieces and none of the
    other's."""
    out = [[0, 0, 0, 0], [0, 0, 0, 0]]
    for step, starts in LINES:
        bs = [black >> k * step for k in range(5)]
        ws = [white >> k * step for k in range(5)]
        black_any = bs[0] | bs[1] | bs[2] | bs[3] | bs[4]
        white_any = ws[0] | ws[1] | ws[2] | ws[3] | ws[4]
        for side, shifted, free in (
            (0, bs, starts & black_any & ~white_any),
            (1, ws, starts & white_any & ~black_any),
        ):
            if free:
                counts = _count(shifted, free)
                row = out[side]
                for i in range(4):
                    row[i] += counts[i]
    return out


def evaluate_uchu(state: State[Any], seat: int) -> float:
    """宇宙遊泳: the runs of five each side can still fill, by how full they are."""
    assert isinstance(state, SocratesState)
    text = state.board[::-1]
    counts = _window_counts(int(text.translate(_SIDES[0]), 2), int(text.translate(_SIDES[1]), 2))
    hands: tuple[int, ...] = getattr(state, "hands", (0, 0, 0, 0))
    score = [0.0, 0.0]
    for s in (0, 1):
        ones, twos, threes, fours = counts[s]
        score[s] = (
            WINDOW_VALUE[1] * ones
            + WINDOW_VALUE[2] * twos
            + WINDOW_VALUE[3] * threes
            + WINDOW_VALUE[4] * fours
            + UCHU_HAND * (hands[2 * s] + hands[2 * s + 1])
        )
        if fours and s == state.turn:
            score[s] += FOUR_TO_MOVE
    return score[seat] - score[1 - seat]


# --- the races ------------------------------------------------------------------------------------


def _progress(seat: int, c: int) -> int:
    """Rows advanced from the seat's own back row (0–8)."""
    return row_of(c) - 1 if seat == 0 else ROWS - row_of(c)


PROGRESS = tuple(tuple(_progress(s, c) for c in range(CELLS)) for s in (0, 1))

SHINKEN_PIECE = 100
SHINKEN_ADVANCE = (0, 3, 6, 10, 15, 22, 32, 60, 100)
"""真剣勝負: a piece's worth by rows advanced (the goal row wins when the piece survives)."""
SHINKEN_MARKED = 12
SHINKEN_TEMPO = 50
"""The side to move: its coming turn, worth half a piece. The quiescence search ends its
captures after either side's move, so without it leaves a ply apart were scored as if the turn
were worth nothing: over 40 games a pair on the ladder's seeds, 3v1 52% -> 82%, 7v5 68% ->
78%, and every other step 75-85% (1 v random 98%)."""


RACE_WON = WIN - 1_000
"""真剣勝負: a race the rules decide within a few plies (engines.ai.shinken), less those plies:
beyond ``PROVEN`` (a certain win for the review and the search), below any win the search
sees for itself."""
RUNNER_THREAT = 100
"""真剣勝負: a runner the side to move must stop this move (a safe arrival it can still take,
block or guard): its move is spent on it."""


def evaluate_shinken(state: State[Any], seat: int) -> float:
    """真剣勝負: the race first (one that the rules decide, or a runner to stop), then pieces,
    their advance, marks and the turn."""
    assert isinstance(state, ShinkenState)
    answers = shinken.takes(state)
    if answers:
        return _after_takes(state, answers, seat)
    race = shinken.race(state)
    if race.certain:
        won = RACE_WON - race.plies
        return won if race.winner == seat else -won
    score = [0.0, 0.0]
    for c, ch in enumerate(state.board):
        if ch == ".":
            continue
        s = 0 if ch in OWN[0] else 1
        score[s] += SHINKEN_PIECE + SHINKEN_ADVANCE[PROGRESS[s][c]]
        if ch in MARKED:
            score[s] += SHINKEN_MARKED
    score[state.turn] += SHINKEN_TEMPO
    if race.winner is not None:
        score[race.winner] += RUNNER_THREAT
    return score[seat] - score[1 - seat]


def _after_takes(state: ShinkenState, answers: tuple[Any, ...], seat: int) -> float:
    """An enemy piece arrived and must be taken: the best of the takes for the side to move
    (a decided race a ply further off)."""
    values = []
    for move in answers:
        child = state.apply(move)
        outcome = child.outcome()
        if outcome is None:
            v = evaluate_shinken(child, seat)
            values.append(v - 1 if v >= PROVEN else v + 1 if v <= -PROVEN else v)
        else:
            r = outcome.returns()[seat]
            values.append(RACE_WON - 1 if r > 0 else -(RACE_WON - 1) if r < 0 else 0.0)
    return max(values) if state.turn == seat else min(values)


KOKUTAN_GOAL = 300
"""黒壇の馬: a piece on the enemy's back ground row (one of the four cells to fill)."""
KOKUTAN_ADVANCE = -25
"""A row advanced by a piece on its way (neither on its own back row nor arrived): a cost, not
a gain. 24 pieces share 28 cells, so the game is a tempo fight: a piece that has run ahead has
fewer moves left and jams the middle, and the side that runs out of moves first must open its
back row or pass. (Measured at depth 2 against random play: +10 a row won 49 %, −25 76 %.)"""
KOKUTAN_GUARD = 250
"""At least one piece still on one's own back row: the enemy cannot fill it (pieces never
move back, so a piece that leaves it is gone for good)."""
KOKUTAN_GUARDS = 40
"""Each piece on one's own back row (spares, for when the check rule forces one out)."""
KOKUTAN_MOBILITY = 20
"""A move one could make now (as if it were one's turn) with a piece off one's back row:
pieces meet head on in the middle, and a side that jams first must break its guard."""
KOKUTAN_NO_SPARE = 150
"""No move at all off one's back row: the next move must break the guard, or pass."""
KOKUTAN_DEPTHS = (8, 10, 12, 14, 16, 18, 20, LEVELS[8].depth)
"""黒壇の馬's depth caps, levels 1-8. A position has few moves (median 3) and the check rule
forces many, so a ply costs a fraction of other games' and strength comes from depth: with the
level table's caps (1, 1, 2, 3, 3, 4, 6, none) levels 1-6 were hardly apart (over 200 games a
pair: 3v1 50%, 4v2 58%, 5v3 62%, 6v4 58%; 6v1 60% over 40) while level 8 beat level 1 92%.
These caps hardly bind: each level searches as deep as its budget takes it, two levels up
(four times the nodes) reach further, and the ladder's steps come from that (docs/ai.md).
Stop 23-24's caps (2, 4, 5, 8, 10, 12, 14, none) held level 1 to 2 plies, and at 2 plies it
drew a third of its games against random play (jams made further ahead than it saw): 76%."""
KOKUTAN_MARGINS = margins_with({1: 180.0})
"""黒壇の馬's randomness, levels 1-8: the level table's but level 1's, 180 (the table's 80).
Level 1 reads as deep as its nodes allow; its randomness, not its depth, keeps it below level
3 (over 100 games at the ladder's rate for this game, 3v1 with 80: 68%, 120: 74.5%, 180: 77.5%,
300: 81%; against random play 92.5%, 90%, 90.5%, 81%; but 87% for 180 over 400 games, and
88% / 87.5% for 60 / 120: the margin hardly moves it). Measured before ``KOKUTAN_NEAR_GOAL``;
with it, 3v1 80.8% and level 1 against random play 92.4% (800 games)."""
KOKUTAN_CONTEMPT = 1_000
"""黒壇の馬: a draw, for the side searching, is worth this much less than an even position
(about three goal cells). Its only draws are jams: 24 pieces on 28 cells, moving only forward,
until neither side can move. Against random play level 1 drew 71 of 200 games (it won 114 and
lost 15); scored as even, a jam was as good as a position it was winning. With this contempt
every level plays for the win (both sides of a pair do), and over 200 games a pair (7v5, 8v6:
100) the ladder went 3v1 74 -> 78.5%, 4v2 75 -> 77.5%, 5v3 69.5 -> 72.5%, 6v4 73.5 -> 78%, 7v5
79.5 -> 84%, 8v6 66.5 -> 80.5%, 1 v random 74 -> 76.5%. (400 and 3,000 did as well on 5v3 and
1 v random.)"""
KOKUTAN_HOME = (frozenset(kokutan.GOALS[1]), frozenset(kokutan.GOALS[0]))
"""Each side's own back row (the enemy's goal)."""
KOKUTAN_NEAR_GOAL = (0, 1_200, 840, 540, 300, 150, 60)
"""An empty cell of the enemy's back row, by how many rows (1-6) behind it one's nearest piece
stands that could step there (it is on the cell's diagonal cone: no further to the side than
it is rows away). Only one's own pieces ever fill that cell (the enemy's never move back), so
it is won by the side that keeps a piece poised next to it: that piece can fill it whenever it
must, a spare move in the tempo fight, and the cell stays reachable; filling it early spends
the move (arriving is worth only ``KOKUTAN_GOAL``; the search still fills the last cell, a
win). Measured against random play at level 1 on the ladder (800 games, seeds 0-799): 85.1%
without the term; by the scale of the table (this one is 1,200): 200 87.9%, 400 88.7%, 600
90.0%, 800 90.2%, 1,200 92.4%, 1,600 91.6% (docs/ai.md)."""


def _cone(seat: int, goal: int) -> tuple[tuple[int, int], ...]:
    """The cells from which a piece of ``seat`` could step to ``goal`` (its colour, at most as
    far to the side as it is rows behind), with their rows behind it, nearest first."""
    cells = []
    for c in range(CELLS):
        if not kokutan.AREA[c] or (col_of(c) + row_of(c) - col_of(goal) - row_of(goal)) % 2:
            continue
        rows = PROGRESS[seat][goal] - PROGRESS[seat][c]
        if rows >= 1 and abs(col_of(c) - col_of(goal)) <= rows:
            cells.append((rows, c))
    return tuple((c, rows) for rows, c in sorted(cells))


KOKUTAN_CONES = tuple(tuple((g, _cone(s, g)) for g in kokutan.GOALS[s]) for s in (0, 1))
"""Per seat, each cell of its goal row with its cone (see ``_cone``)."""


def near_goal(board: str, seat: int) -> int:
    """``seat``'s empty goal cells, each scored by its nearest piece of ``seat`` in its cone
    (``KOKUTAN_NEAR_GOAL``)."""
    own = OWN[seat]
    score = 0
    for goal, cone in KOKUTAN_CONES[seat]:
        if board[goal] != EMPTY:
            continue
        for c, rows in cone:
            if board[c] in own:
                score += KOKUTAN_NEAR_GOAL[rows]
                break
    return score


def evaluate_kokutan(state: State[Any], seat: int) -> float:
    """黒壇の馬: the enemy's back row filled, one's own guarded, and the race in between."""
    assert isinstance(state, SocratesState)
    score = [0.0, 0.0]
    guards = [0, 0]
    for c, ch in enumerate(state.board):
        if ch == ".":
            continue
        s = 0 if ch in OWN[0] else 1
        rows = PROGRESS[s][c]  # 1: one's own back row (row 2 or 8), 7: the enemy's
        if rows == 7:
            score[s] += KOKUTAN_GOAL
        elif rows == 1:
            guards[s] += 1
        else:
            score[s] += KOKUTAN_ADVANCE * (rows - 1)
    if isinstance(state, kokutan.KokutanState) and state.phase == kokutan.MOVE_PHASE:
        for s in (0, 1):
            home = KOKUTAN_HOME[s]
            spare = sum(1 for m in state.moves_for(s) if m.frm not in home)
            score[s] += KOKUTAN_MOBILITY * spare if spare else -KOKUTAN_NO_SPARE
            score[s] += near_goal(state.board, s)
    for s in (0, 1):
        if guards[s]:
            score[s] += KOKUTAN_GUARD + KOKUTAN_GUARDS * guards[s]
    return score[seat] - score[1 - seat]


TWOTHREE_HORIZON = 3
"""ツースリー is solved (engines.ai.twothree): a leaf whose game is decided within this many
more plies is scored as decided. Further than that the search must see for itself, so deeper
levels see further (level 8 plays from the table outright)."""
TWOTHREE_DECIDED = 5_000
TWOTHREE_FORWARD = 100
"""A column where a side can move forward. Each column has one empty cell, so each side has at
most one forward move in it; running out of them forces a retreat. Measured on the solved
table, the side with more forward moves wins about 70% of the decided positions, and the side
further advanced slightly less often (hence the small negative weight)."""
TWOTHREE_ADVANCE = -5


def _forward(column: str) -> tuple[int, int]:
    """Whether Black (moving up the column, rows 2 to 8) and White (down) can go forward in a
    column's content: the first piece below (above) the empty cell that is not an enemy is
    one's own."""
    e = column.find(".")
    if e < 0:
        return 0, 0
    i = e - 1
    while i >= 0 and column[i] in "pm":
        i -= 1
    j = e + 1
    while j < len(column) and column[j] in "PM":
        j += 1
    black = i >= 0 and column[i] in "PM"
    white = j < len(column) and column[j] in "pm"
    return int(black), int(white)


TWOTHREE_HORIZONS = {1: 15, 2: 17, 3: 20, 4: 22, 5: 25, 6: 26, 7: 31}
"""How many plies ahead each level reads the solved table at a leaf. The forward-move count
below is a poor guide in this puzzle (a deeper search with it alone plays no better), so the
levels differ mostly in how far they see a decided game coming. Measured on the ladder (100
games a pair): with 3 at level 1 White lost to random play 45% of the time (the count leads it
astray); 15 wins 95%. The start is decided in 34 plies and no position is further than 36, so
level 6 reads no further than 26 (at 29 its depth-4 search already played White perfectly and
8v6 fell to 50%)."""


def evaluate_twothree(state: State[Any], seat: int, horizon: int = TWOTHREE_HORIZON) -> float:
    """ツースリー below level 8: a game decided within ``horizon`` plies (by the solved table),
    else forward moves left and (a little against) advance."""
    assert isinstance(state, SocratesState)
    solved = twothree.value(state)
    if solved and abs(solved) <= horizon:
        v = TWOTHREE_DECIDED - 10 * abs(solved)
        return v if (solved > 0) == (state.turn == seat) else -v
    b = state.board
    score = 0.0
    for cells in (twothree.E_CELLS, twothree.F_CELLS):
        black, white = _forward("".join(b[c] for c in cells))
        score += TWOTHREE_FORWARD * (black - white)
        for row, c in enumerate(cells):
            ch = b[c]
            if ch in "PM":
                score += TWOTHREE_ADVANCE * row
            elif ch in "pm":
                score -= TWOTHREE_ADVANCE * (6 - row)
    return score if seat == 0 else -score


def priority(state: State[Any], move: Any) -> int:
    """A move onto an enemy piece (真剣勝負's capture) first."""
    assert isinstance(state, SocratesState)
    if move.kind == MOVE:
        target = state.board[move.to]
        if target != "." and target not in OWN[state.turn]:
            return 100
    return 0


def capture(state: State[Any], move: Any) -> bool:
    """真剣勝負: a move that takes a piece (followed past the depth by the quiescence search)."""
    return priority(state, move) > 0


TWOTHREE_LEVELS = {
    n: Evaluation(partial(evaluate_twothree, horizon=h)) for n, h in TWOTHREE_HORIZONS.items()
} | {8: Evaluation(evaluate_twothree, decide=twothree.perfect_play)}
"""ツースリー's evaluation at each level (level 8 plays from the table and searches with this
only for a position outside it)."""


def twothree_at(level: int) -> Evaluation:
    return TWOTHREE_LEVELS[level]


EVALUATIONS = {
    "socrates-uchu": Evaluation(evaluate_uchu, None),
    # Units (measured on the ladder): 真剣勝負's levels give away advance as well as pieces (a
    # piece is 100, a row up to 40): at 40 level 1 beat random play 100% of the time but the
    # upper steps shrank to 50-68%; at 65 five of seven cells reach their targets. 黒壇の馬 has
    # no material: a row is 25, a move 20; its unit is two of them (see KOKUTAN_DEPTHS).
    "socrates-shinken": Evaluation(evaluate_shinken, priority, tactical=capture, unit=65),
    # 黒壇の馬's check rule makes long runs of single-move turns, and its jams come through them
    # (an enemy guard is locked in 2-9 plies before the end, often by a forced move): followed
    # past the depth, level 1 against random play 66% -> 76% (200 games).
    "socrates-kokutan": Evaluation(
        evaluate_kokutan,
        unit=50,
        forced=True,
        depths=KOKUTAN_DEPTHS,
        margins=KOKUTAN_MARGINS,
        contempt=KOKUTAN_CONTEMPT,
    ),
    "socrates-twothree": Evaluation(evaluate_twothree, levelled=twothree_at),
}
