"""略式易双六 (Ryakushiki Yōsukō): JRF's tarot solitaire on a hexagram of six major arcana.

Six majors dealt from a shuffled 20 form the board (盤面); the player puts a token on one line
(爻) and draws minor arcana one by one. The suit and the token's trigram (卦) say where a card goes
and where the token tries to go; Swords and Wands (M Suit) call a judgement (判定) that adds the
drawn card to the highest card stacked on a line and compares. When the shuffled-in major (The
Fool or Death) comes up, the game ends and the token's line decides the result.

Chance is explicit: the deal is six chance steps (one card with its orientation per line) and
every draw is a chance step over the *set* of cards still in the talon (山札). The state never
holds an order of the talon, so nothing undrawn can be known; its content is derivable from what
is on the table anyway.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from typing import Any, ClassVar

from engines.core import (
    CHANCE,
    COMMON_OPTIONS,
    TERMINAL,
    AmbiguousMoveError,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    OptionSpec,
    Outcome,
    State,
    Termination,
    Text,
    cached,
    normalise,
    ply_cap,
    position_error,
)

# --- the cards, as data ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Major:
    """One major arcanum (大アルカナ) with the author's number pairs.

    ``sword`` is (攻 attack, 守 defence), ``coin`` is (苦 pain, 喜 joy); only the 20 cards that
    can be on the board carry numbers.
    """

    number: int
    roman: str
    ja: str
    en: str
    sword: tuple[int, int] = (0, 0)
    coin: tuple[int, int] = (0, 0)


MAJORS: tuple[Major, ...] = (
    Major(0, "0", "愚者", "The Fool"),
    Major(1, "I", "魔術師", "The Magician", (3, 3), (5, 7)),
    Major(2, "II", "女教皇", "The High Priestess", (0, 5), (7, 3)),
    Major(3, "III", "女帝", "The Empress", (3, 3), (0, 3)),
    Major(4, "IV", "皇帝", "The Emperor", (3, 3), (0, 3)),
    Major(5, "V", "法王", "The Hierophant", (5, 0), (7, 3)),
    Major(6, "VI", "恋人", "The Lovers", (3, 3), (5, 3)),
    Major(7, "VII", "戦車", "The Chariot", (7, 7), (3, 3)),
    Major(8, "VIII", "力", "Strength", (5, 5), (0, 3)),
    Major(9, "IX", "隠者", "The Hermit", (0, 7), (7, 3)),
    Major(10, "X", "運命の輪", "Wheel of Fortune", (5, 5), (5, 5)),
    Major(11, "XI", "正義", "Justice", (5, 5), (5, 5)),
    Major(12, "XII", "吊るされた男", "The Hanged Man", (3, 5), (3, 7)),
    Major(13, "XIII", "死神", "Death"),
    Major(14, "XIV", "節制", "Temperance", (5, 5), (7, 3)),
    Major(15, "XV", "悪魔", "The Devil", (5, 3), (3, 7)),
    Major(16, "XVI", "塔", "The Tower", (5, 7), (5, 3)),
    Major(17, "XVII", "星", "The Star", (5, 3), (5, 7)),
    Major(18, "XVIII", "月", "The Moon", (3, 7), (0, 7)),
    Major(19, "XIX", "太陽", "The Sun", (7, 3), (0, 7)),
    Major(20, "XX", "審判", "Judgement", (5, 0), (7, 3)),
    Major(21, "XXI", "世界", "The World", (0, 5), (3, 7)),
)
FOOL, DEATH, STRENGTH, JUSTICE = 0, 13, 8, 11
BOARD_MAJORS: tuple[int, ...] = tuple(m.number for m in MAJORS if m.number not in (FOOL, DEATH))
EXCHANGE: Mapping[int, int] = {STRENGTH: JUSTICE, JUSTICE: STRENGTH}
"""Strength and Justice trade places "in memory of tarot history"."""

ROMAN_TO_NUMBER: Mapping[str, int] = {m.roman: m.number for m in MAJORS}

# A board major is coded number * 2 + reversed (1 = 逆位置).


def major_code(number: int, reversed_: bool | int) -> int:
    return number * 2 + int(reversed_)


def major_name(code: int) -> str:
    """``XVII`` upright, ``XVIIr`` reversed."""
    return MAJORS[code // 2].roman + ("r" if code % 2 else "")


# Minor arcana (小アルカナ) are cards 0..55: suit * 14 + rank - 1. Majors in the talon (The Fool,
# Death) are 56 + number.
WANDS, CUPS, SWORDS, COINS = 0, 1, 2, 3
SUIT_LETTERS = "WCSP"
SUIT_EN = ("Wands", "Cups", "Swords", "Coins")
SUIT_JA = ("ワンド", "カップ", "ソード", "コイン")
RANK_NAMES = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "P", "N", "Q", "K")
RANK_JA = (*RANK_NAMES[:10], "ペイジ", "ナイト", "クイーン", "キング")
MINORS = 56
CARD_FOOL = MINORS + FOOL
CARD_DEATH = MINORS + DEATH
ALL_MINORS: frozenset[int] = frozenset(range(MINORS))


def suit_of(card: int) -> int:
    return card // 14


def rank_of(card: int) -> int:
    return card % 14 + 1


def card_name(card: int) -> str:
    """``S10``, ``CQ``; The Fool ``0``, Death ``XIII``."""
    if card >= MINORS:
        return MAJORS[card - MINORS].roman
    return SUIT_LETTERS[suit_of(card)] + RANK_NAMES[card % 14]


def card_name_ja(card: int) -> str:
    if card >= MINORS:
        return MAJORS[card - MINORS].ja
    return SUIT_JA[suit_of(card)] + RANK_JA[card % 14]


COURT_VALUES: Mapping[str, tuple[int, int, int, int]] = {
    "K14": (11, 12, 13, 14),
    "K13a": (11, 12, 12, 13),
    "K13b": (11, 11, 12, 13),
    "K10": (10, 10, 10, 10),
}
"""Page, Knight, Queen, King values for the ``court`` option."""

CARD_VALUES: Mapping[str, tuple[int, ...]] = {
    name: tuple(r if r <= 10 else courts[r - 11] for _ in range(4) for r in range(1, 15))
    for name, courts in COURT_VALUES.items()
}

# --- the hexagram -----------------------------------------------------------------------------

LINES = (1, 2, 3, 4, 5, 6)
LINE_JA = ("", "初爻", "二爻", "三爻", "四爻", "五爻", "上爻")
FORWARD = (0, 2, 3, 4, 5, 6, 1)
"""順方向 1→2→3→4→5→6→1."""
BACK = (0, 6, 1, 2, 3, 4, 5)
"""逆方向, the reverse."""
PARTNER = (0, 4, 5, 6, 1, 2, 3)
"""応爻: 1↔4, 2↔5, 3↔6."""


def is_upper(line: int) -> bool:
    """Lines 4–6 are the upper trigram (上卦), 1–3 the lower (下卦)."""
    return line >= 4


WIN_LINES: Mapping[bool, tuple[int, ...]] = {True: (5, 6), False: (2, 5)}
"""Winning lines by start half: upper start (The Fool shuffled in) 5, 6; lower (Death) 2, 5."""

# What a drawn minor does, by (token on the upper trigram, suit).
STACK_PARTNER_FORWARD = "partner-forward"
STACK_OWN = "own"
JUDGE_BACK = "judge-back"
JUDGE_PARTNER = "judge-partner"
EFFECTS: Mapping[tuple[bool, int], str] = {
    (True, CUPS): STACK_PARTNER_FORWARD,
    (True, COINS): STACK_OWN,
    (True, SWORDS): JUDGE_BACK,
    (True, WANDS): JUDGE_PARTNER,
    (False, COINS): STACK_PARTNER_FORWARD,
    (False, CUPS): STACK_OWN,
    (False, WANDS): JUDGE_BACK,
    (False, SWORDS): JUDGE_PARTNER,
}
CHOICE_SUIT = SWORDS
"""On the lower trigram a winning Sword lets the player stay instead (from 元祖易双六)."""

# --- options ----------------------------------------------------------------------------------

INFLUENCES = ("1", "1.5", "2", "2.5", "3")


@dataclass(frozen=True, slots=True)
class Params:
    """The resolved options as the rules use them."""

    influence: Fraction
    ge: bool
    values: tuple[int, ...]
    rounds: int
    cap: int

    def scale(self, v: int) -> int:
        """A table value times ``influence``, rounded up."""
        return math.ceil(v * self.influence)

    def m_major(self, code: int) -> int:
        """Sword 攻 upright, 守 reversed."""
        return self.scale(MAJORS[code // 2].sword[code % 2])

    def f_major(self, code: int) -> int:
        """Coin 苦 upright, 喜 reversed."""
        return self.scale(MAJORS[code // 2].coin[code % 2])


# --- moves ------------------------------------------------------------------------------------

DEAL, START, DRAW, CARD, MOVE, STAY = "deal", "start", "draw", "card", "move", "stay"


@dataclass(frozen=True, slots=True)
class YosukoMove:
    """A player's action (``start``, ``draw``, ``move``, ``stay``) or a chance outcome (``deal``
    one major with its orientation, or a drawn ``card``)."""

    kind: str
    arg: int = 0

    def __str__(self) -> str:
        """The canonical notation: ``deal XVIIr``, ``start 4``, ``draw``, ``S10``, ``move``."""
        if self.kind == DEAL:
            return f"deal {major_name(self.arg)}"
        if self.kind == START:
            return f"start {self.arg}"
        if self.kind == CARD:
            return card_name(self.arg)
        return self.kind


DEAL_MOVES: Mapping[int, YosukoMove] = {
    major_code(n, r): YosukoMove(DEAL, major_code(n, r)) for n in BOARD_MAJORS for r in (0, 1)
}
START_MOVES: tuple[YosukoMove, ...] = tuple(YosukoMove(START, line) for line in LINES)
CARD_MOVES: tuple[YosukoMove, ...] = tuple(YosukoMove(CARD, c) for c in range(MINORS + 22))
DRAW_MOVE, MOVE_MOVE, STAY_MOVE = YosukoMove(DRAW), YosukoMove(MOVE), YosukoMove(STAY)

# --- the judgement ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Judgement:
    """One judgement worked out in numbers: M Minor + F Minor(From) vs M Major(To) + F Minor(To).

    ``f_from_card`` / ``f_to_card`` are the stacked cards used, or None when the line's F Major
    stood in for an empty stack. ``choice`` is ``"pending"`` while a lower-trigram Sword waits
    for move/stay, then ``"move"`` or ``"stay"``; empty when there was no choice.
    """

    card: int
    from_line: int
    to_line: int
    m_minor: int
    f_from: int
    f_from_card: int | None
    m_major_to: int
    f_to: int
    f_to_card: int | None
    ge: bool
    choice: str = ""

    @property
    def lhs(self) -> int:
        return self.m_minor + self.f_from

    @property
    def rhs(self) -> int:
        return self.m_major_to + self.f_to

    @property
    def from_wins(self) -> bool:
        return self.lhs >= self.rhs if self.ge else self.lhs > self.rhs

    @property
    def moved(self) -> bool:
        return self.from_wins and self.choice in ("", MOVE)

    @property
    def discarded(self) -> tuple[int, ...]:
        """The drawn card, then the winner's F Minor card if it was a real stacked card."""
        if not self.from_wins:
            return (self.card,) if self.f_to_card is None else (self.card, self.f_to_card)
        if self.choice in (STAY, "pending") or self.f_from_card is None:
            return (self.card,)
        return (self.card, self.f_from_card)

    def sign(self) -> str:
        """The comparison as it came out: ``>``, ``≥``, ``<`` or ``≤``."""
        if self.from_wins:
            return "≥" if self.ge and self.lhs == self.rhs else ">"
        return "≤" if not self.ge and self.lhs == self.rhs else "<"

    def sums(self) -> tuple[str, str]:
        """The two sides worked out, in the seed's own terms (it writes them in English in the
        Japanese text too): ``S9 9 + F Minor CQ 13 = 22`` and ``M Major(5) 3 + F Major(5) 7 =
        10``."""

        def f_part(card: int | None, value: int, line: int) -> str:
            if card is None:
                return f"F Major({line}) {value}"
            return f"F Minor {card_name(card)} {value}"

        left = f"{card_name(self.card)} {self.m_minor} + "
        left += f"{f_part(self.f_from_card, self.f_from, self.from_line)} = {self.lhs}"
        right = f"M Major({self.to_line}) {self.m_major_to} + "
        right += f"{f_part(self.f_to_card, self.f_to, self.to_line)} = {self.rhs}"
        return left, right

    def text(self) -> Text:
        """The judgement for a message: the sums, who won, where the token is, what went."""
        left, right = self.sums()
        gone = ", ".join(card_name(c) for c in self.discarded)
        if not self.from_wins:
            en_res, ja_res = "To wins: the token stays", "To の勝ち：トークンは留まる"
        elif self.choice == "pending":
            en_res = f"From wins: move to line {self.to_line} or stay?"
            ja_res = f"From の勝ち：{self.to_line}に進むか留まるか選んでください"
        elif self.choice == STAY:
            en_res, ja_res = "From wins, the player stays", "From の勝ち、留まることを選択"
        else:
            en_res = f"From wins: the token moves to line {self.to_line}"
            ja_res = f"From の勝ち：トークンは{self.to_line}へ移動"
        return Text(
            f"Line {self.from_line} → {self.to_line}: {left} {self.sign()} {right}. "
            f"{en_res}; discarded {gone}.",
            f"{self.from_line}→{self.to_line} の判定：{left} {self.sign()} {right}。"
            f"{ja_res}。捨て札 {gone}。",
        )


# --- the state --------------------------------------------------------------------------------

PHASE_DEAL, PHASE_START, PHASE_DRAW, PHASE_CARD, PHASE_CHOOSE, PHASE_END = (
    "deal",
    "start",
    "draw",
    "card",
    "choose",
    "end",
)
PHASES = (PHASE_DEAL, PHASE_START, PHASE_DRAW, PHASE_CARD, PHASE_CHOOSE, PHASE_END)
EMPTY_STACKS: tuple[tuple[int, ...], ...] = ((),) * 6


@dataclass(frozen=True)
class YosukoState(State[YosukoMove]):
    """A position of 略式易双六.

    ``lines`` are the dealt majors (codes) for lines 1.. in order; ``stacks[i]`` is line i+1's
    stack in stacking order; ``discards`` in discard order. The talon is not stored: it is every
    card not on the table (a set, never an order). ``last_card`` and ``last_judgement`` are what
    just happened, for the picture and the bot message; they are history, not position, so they
    take no part in equality.
    """

    opts: tuple[tuple[str, str], ...]
    lines: tuple[int, ...] = ()
    phase: str = PHASE_DEAL
    start: int = 0
    token: int = 0
    stacks: tuple[tuple[int, ...], ...] = EMPTY_STACKS
    discards: tuple[int, ...] = ()
    round: int = 1
    plies: int = field(default=0, compare=False)
    """Every action so far, chance steps included (the host's chance index, not a position)."""
    turns_played: int = 0
    """Plies of play (``start``, ``draw``, ``move``, ``stay``): deals and drawn cards are chance
    steps and do not count. The cap counts these, and the position text shows them."""
    last_card: int | None = field(default=None, compare=False)
    last_judgement: Judgement | None = field(default=None, compare=False)

    game: ClassVar[Game[Any]]

    # -- derived facts ---------------------------------------------------------------------
    @cached
    def params(self) -> Params:
        return _params(self.opts)

    @property
    def terminator(self) -> int | None:
        """The major shuffled into the talon (The Fool for an upper start, else Death)."""
        if not self.start:
            return None
        return CARD_FOOL if is_upper(self.start) else CARD_DEATH

    @property
    def set_aside(self) -> int | None:
        """The "X" card: the one of The Fool and Death not shuffled in."""
        t = self.terminator
        if t is None:
            return None
        return CARD_DEATH if t == CARD_FOOL else CARD_FOOL

    @cached
    def talon(self) -> tuple[int, ...]:
        """The cards still to draw, sorted (the talon's content; its order does not exist)."""
        t = self.terminator
        if t is None:
            return ()
        out = set(ALL_MINORS)
        out.add(t)
        for stack in self.stacks:
            out.difference_update(stack)
        out.difference_update(self.discards)
        if self.phase == PHASE_END:
            out.discard(t)
        return tuple(sorted(out))

    @property
    def undealt(self) -> tuple[int, ...]:
        """The board majors not yet dealt (during the deal)."""
        dealt = {c // 2 for c in self.lines}
        return tuple(n for n in BOARD_MAJORS if n not in dealt)

    def m_major(self, line: int) -> int:
        """M Major of a line (scaled by ``influence``)."""
        return self.params.m_major(self.lines[line - 1])

    def f_major(self, line: int) -> int:
        """F Major of a line (scaled by ``influence``)."""
        return self.params.f_major(self.lines[line - 1])

    def f_minor(self, line: int) -> tuple[int, int | None]:
        """F Minor of a line and the card giving it: the highest stacked card (the earliest
        among equals), or the line's F Major and None for an empty stack."""
        stack = self.stacks[line - 1]
        if not stack:
            return self.f_major(line), None
        values = self.params.values
        best = stack[0]
        for c in stack[1:]:
            if values[c] > values[best]:
                best = c
        return values[best], best

    def describe_last_judgement(self) -> Text | None:
        """The last judgement worked out in numbers, or None if the last card called none."""
        j = self.last_judgement
        return None if j is None else j.text()

    def _ended_by_cap(self) -> bool:
        if self.turns_played < _LOWEST_CAP:
            return False
        cap = self.params.cap
        return self.phase != PHASE_END and cap > 0 and self.turns_played >= cap

    # -- the State interface ---------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return 1

    @property
    def ply(self) -> int:
        return self.plies

    @property
    def turns(self) -> int:
        return self.turns_played

    def options(self) -> dict[str, str]:
        return dict(self.opts)

    def current_player(self) -> int:
        if self.phase == PHASE_END or self._ended_by_cap():
            return TERMINAL
        if self.phase in (PHASE_DEAL, PHASE_CARD):
            return CHANCE
        return 0

    def legal_moves(self, player: int | None = None) -> tuple[YosukoMove, ...]:
        if player is not None:
            self.check_player(player)
            if player != self.current_player():
                return ()
        return self._moves

    @cached
    def _moves(self) -> tuple[YosukoMove, ...]:
        if self.current_player() == TERMINAL:
            return ()
        phase = self.phase
        if phase == PHASE_DEAL:
            return tuple(DEAL_MOVES[major_code(n, r)] for n in self.undealt for r in (0, 1))
        if phase == PHASE_START:
            return START_MOVES
        if phase == PHASE_DRAW:
            return (DRAW_MOVE,)
        if phase == PHASE_CARD:
            return tuple(CARD_MOVES[c] for c in self.talon)
        return (MOVE_MOVE, STAY_MOVE)

    def chance_outcomes(self) -> tuple[tuple[YosukoMove, Fraction], ...]:
        if self.current_player() != CHANCE:
            return ()
        moves = self._moves
        p = Fraction(1, len(moves))
        return tuple((m, p) for m in moves)

    def apply(self, move: YosukoMove, player: int | None = None) -> YosukoState:
        self.check_player(player)
        cp = self.current_player()
        if (player is not None and player != cp) or move not in self._moves:
            name = repr(move) if move.kind == CARD and not 0 <= move.arg < MINORS + 22 else move
            raise IllegalMoveError(
                Text(f"'{name}' is not legal here.", f"「{name}」はこの局面ではできません。"),
                self.closest(str(name), self._moves),
            )
        if cp == CHANCE:
            return self._apply(move, self.plies + 1)
        return replace(self._apply(move, self.plies + 1), turns_played=self.turns_played + 1)

    def _apply(self, move: YosukoMove, ply: int) -> YosukoState:
        kind = move.kind
        if kind == DEAL:
            lines = (*self.lines, move.arg)
            if len(lines) < 6:
                return replace(self, lines=lines, plies=ply, last_card=None)
            # The deal is complete: Strength and Justice trade places, keeping each line's
            # orientation (both, one, or neither on the board: one table covers all three).
            lines = tuple(major_code(EXCHANGE.get(c // 2, c // 2), bool(c % 2)) for c in lines)
            return replace(self, lines=lines, phase=PHASE_START, plies=ply)
        if kind == START:
            return replace(self, phase=PHASE_DRAW, start=move.arg, token=move.arg, plies=ply)
        if kind == DRAW:
            return replace(self, phase=PHASE_CARD, plies=ply, last_card=None, last_judgement=None)
        if kind == CARD:
            return self._draw(move.arg, ply)
        return self._choose(kind, ply)

    def _draw(self, card: int, ply: int) -> YosukoState:
        """Resolve a drawn card (the chance step after ``draw``)."""
        if card == self.terminator:
            if self.round < self.params.rounds:
                # Reshuffle: the talon becomes the remaining talon, this major and the discards.
                return replace(
                    self,
                    phase=PHASE_DRAW,
                    discards=(),
                    round=self.round + 1,
                    plies=ply,
                    last_card=card,
                )
            return replace(self, phase=PHASE_END, plies=ply, last_card=card)
        token = self.token
        effect = EFFECTS[is_upper(token), suit_of(card)]
        stacks = self.stacks
        if effect == STACK_OWN:
            stacks = _push(stacks, token, card)
            return replace(self, phase=PHASE_DRAW, stacks=stacks, plies=ply, last_card=card)
        if effect == STACK_PARTNER_FORWARD:
            stacks = _push(stacks, PARTNER[token], card)
            return replace(
                self,
                phase=PHASE_DRAW,
                stacks=stacks,
                token=FORWARD[token],
                plies=ply,
                last_card=card,
            )
        to = BACK[token] if effect == JUDGE_BACK else PARTNER[token]
        f_from, f_from_card = self.f_minor(token)
        f_to, f_to_card = self.f_minor(to)
        params = self.params
        j = Judgement(
            card,
            token,
            to,
            params.values[card],
            f_from,
            f_from_card,
            self.m_major(to),
            f_to,
            f_to_card,
            params.ge,
        )
        if j.from_wins and not is_upper(token) and suit_of(card) == CHOICE_SUIT:
            j = replace(j, choice="pending")
            return replace(
                self,
                phase=PHASE_CHOOSE,
                discards=(*self.discards, card),
                plies=ply,
                last_card=card,
                last_judgement=j,
            )
        return replace(
            self,
            phase=PHASE_DRAW,
            stacks=_remove(stacks, j.discarded[1:]),
            discards=self.discards + j.discarded,
            token=to if j.moved else token,
            plies=ply,
            last_card=card,
            last_judgement=j,
        )

    def _choose(self, kind: str, ply: int) -> YosukoState:
        """The lower-trigram Sword's ``move`` or ``stay`` after From won."""
        j = self.last_judgement
        if j is not None:
            j = replace(j, choice=kind)
        if kind == STAY:
            return replace(self, phase=PHASE_DRAW, plies=ply, last_judgement=j)
        token = self.token
        f_from_card = self.f_minor(token)[1]  # the stack is as it was at the judgement
        gone = () if f_from_card is None else (f_from_card,)
        return replace(
            self,
            phase=PHASE_DRAW,
            stacks=_remove(self.stacks, gone),
            discards=self.discards + gone,
            token=PARTNER[token],
            plies=ply,
            last_judgement=j,
        )

    def outcome(self) -> Outcome | None:
        if self.phase == PHASE_END:
            return self._rule_outcome()
        if self._ended_by_cap():
            return Outcome.draw(
                1,
                Termination.CAP,
                Text(
                    f"Draw: the move limit was reached with the token on line {self.token}.",
                    f"引き分け：手数の上限に達しました（トークンは{self.token}）。",
                ),
            )
        return None

    def _rule_outcome(self) -> Outcome:
        upper = is_upper(self.start)
        goal = WIN_LINES[upper]
        term = MAJORS[FOOL if upper else DEATH]
        won = self.token in goal
        line = f"{self.token} ({LINE_JA[self.token]})"
        half_en = "upper" if upper else "lower"
        half_ja = "上卦" if upper else "下卦"
        goal_txt = " or ".join(map(str, goal))
        text = Text(
            f"{term.en} came up: the token ends on line {line}. Started on the {half_en} "
            f"trigram, so {goal_txt} wins: {'you win' if won else 'you lose'}.",
            f"{term.ja}が出て終了：トークンは{line}。{half_ja}から開始したので"
            f"{'・'.join(map(str, goal))}なら勝ち：{'勝ち' if won else '負け'}です。",
        )
        if won:
            return Outcome.win(0, 1, Termination.RULE, text)
        return Outcome.loss(0, 1, Termination.RULE, text)

    # -- notation --------------------------------------------------------------------------
    def format_move(self, move: YosukoMove) -> str:
        return str(move)

    def display_move(self, move: YosukoMove, lang: str = "en") -> str:
        ja = lang.startswith("ja")
        kind = move.kind
        if kind == DEAL:
            m = MAJORS[move.arg // 2]
            if ja:
                return f"配る {m.roman} {m.ja}{'（逆）' if move.arg % 2 else ''}"
            return f"deal {m.roman} {m.en}{' (reversed)' if move.arg % 2 else ''}"
        if kind == START:
            if ja:
                return f"開始 {move.arg}（{LINE_JA[move.arg]}）"
            return f"start {move.arg}"
        if kind == CARD:
            return card_name_ja(move.arg) if ja else f"{card_name(move.arg)}"
        return {DRAW: "引く", MOVE: "進む", STAY: "留まる"}[kind] if ja else kind

    def read_move(self, text: str, legal: tuple[YosukoMove, ...]) -> YosukoMove:
        return read_yosuko_move(self, text, legal)

    # -- position text ---------------------------------------------------------------------
    def position(self) -> str:
        """``lines start token stacks discards round phase ply``, e.g.
        ``XVIIr,III,XI,VIr,I,XXr 4 5 -/-/C3,CK/P2/-/- S5,W10 1 draw 23``."""
        lines = ",".join(major_name(c) for c in self.lines)
        lines = ",".join([*([lines] if lines else []), *["-"] * (6 - len(self.lines))])
        stacks = "/".join(",".join(map(card_name, s)) or "-" for s in self.stacks)
        discards = ",".join(map(card_name, self.discards)) or "-"
        start = str(self.start) if self.start else "-"
        token = str(self.token) if self.token else "-"
        turns = self.turns_played
        return f"{lines} {start} {token} {stacks} {discards} {self.round} {self.phase} {turns}"


_LOWEST_CAP = min(
    int(v) for o in COMMON_OPTIONS if o.name == "cap" for v in o.values if v.isdigit()
)
"""No ply cap allowed is lower: a game with fewer turns played has not reached its cap."""


@cache
def _params(opts: tuple[tuple[str, str], ...]) -> Params:
    o = dict(opts)
    return Params(
        Fraction(o["influence"]),
        o["compare"] == "ge",
        CARD_VALUES[o["court"]],
        int(o["rounds"]),
        ply_cap(o),
    )


def _push(stacks: tuple[tuple[int, ...], ...], line: int, card: int) -> tuple[tuple[int, ...], ...]:
    i = line - 1
    return (*stacks[:i], (*stacks[i], card), *stacks[i + 1 :])


def _remove(
    stacks: tuple[tuple[int, ...], ...], cards: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    if not cards:
        return stacks
    gone = set(cards)
    return tuple(tuple(c for c in s if c not in gone) for s in stacks)


# --- reading moves ------------------------------------------------------------------------------

_SUIT_WORDS: Mapping[str, int] = {
    "W": WANDS,
    "WAND": WANDS,
    "WANDS": WANDS,
    "ワンド": WANDS,
    "C": CUPS,
    "CUP": CUPS,
    "CUPS": CUPS,
    "カップ": CUPS,
    "S": SWORDS,
    "SWORD": SWORDS,
    "SWORDS": SWORDS,
    "ソード": SWORDS,
    "P": COINS,
    "PENTACLE": COINS,
    "PENTACLES": COINS,
    "COIN": COINS,
    "COINS": COINS,
    "コイン": COINS,
    "ペンタクル": COINS,
}
_RANK_WORDS: Mapping[str, int] = {
    **{str(r): r for r in range(1, 11)},
    "A": 1,
    "ACE": 1,
    "P": 11,
    "PAGE": 11,
    "ペイジ": 11,
    "N": 12,
    "KN": 12,
    "KNIGHT": 12,
    "ナイト": 12,
    "Q": 13,
    "QUEEN": 13,
    "クイーン": 13,
    "K": 14,
    "KING": 14,
    "キング": 14,
}
_ACTIONS: Mapping[str, YosukoMove] = {
    "DRAW": DRAW_MOVE,
    "D": DRAW_MOVE,
    "引く": DRAW_MOVE,
    "ひく": DRAW_MOVE,
    "MOVE": MOVE_MOVE,
    "M": MOVE_MOVE,
    "GO": MOVE_MOVE,
    "進む": MOVE_MOVE,
    "すすむ": MOVE_MOVE,
    "移動": MOVE_MOVE,
    "STAY": STAY_MOVE,
    "留まる": STAY_MOVE,
    "とどまる": STAY_MOVE,
    "留": STAY_MOVE,
    "パス": STAY_MOVE,
    "PASS": STAY_MOVE,
}
_START_WORDS = ("START", "開始", "置く")
_DEAL_WORDS = ("DEAL", "配る")
_LINE_WORDS: Mapping[str, int] = {
    **{str(n): n for n in LINES},
    **{LINE_JA[n]: n for n in LINES},
    "一": 1,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "上": 6,
    "初": 1,
}
_REVERSED_SUFFIXES = ("逆位置", "(逆)", "逆", "REVERSED", "REV", "R")
_UPRIGHT_SUFFIXES = ("正位置", "(正)", "正", "UPRIGHT", "U")
_NAME_TO_NUMBER: Mapping[str, int] = {
    **{normalise(m.en): m.number for m in MAJORS},
    **{normalise(m.en.removeprefix("The ")): m.number for m in MAJORS},
    **{normalise(m.ja): m.number for m in MAJORS},
}


def _normalised_keys(table: Mapping[str, Any]) -> dict[str, Any]:
    """The tables are written naturally; input is compared after :func:`normalise` (which
    turns ー into -), so the keys are normalised the same way."""
    return {normalise(k): v for k, v in table.items()}


_SUIT_WORDS = _normalised_keys(_SUIT_WORDS)
_RANK_WORDS = _normalised_keys(_RANK_WORDS)
_ACTIONS = _normalised_keys(_ACTIONS)
_LINE_WORDS = _normalised_keys(_LINE_WORDS)
_SUIT_WORDS_LONGEST_FIRST = sorted(_SUIT_WORDS, key=len, reverse=True)


def _bad(text: str, legal: tuple[YosukoMove, ...], state: YosukoState) -> InvalidMoveError:
    return InvalidMoveError(
        Text(
            f"{text!r} is not a move of 略式易双六 (try `start 4`, `draw`, `move`, `stay`, "
            "or a card such as `S10`).",
            f"「{text}」は略式易双六の指し手として読めません"
            "（例：開始 4、引く、進む、留まる、S10）。",
        ),
        state.closest(text, legal),
    )


def parse_major(key: str) -> int | None:
    """A normalised major spelling (``XVIIR``, ``17R``, ``星逆``, ``THESTAR``) as a code."""
    rev = False
    for suf in _REVERSED_SUFFIXES:
        if key.endswith(suf) and len(key) > len(suf):
            base = key[: -len(suf)]
            if _major_number(base) is not None:
                key, rev = base, True
                break
    else:
        for suf in _UPRIGHT_SUFFIXES:
            if (
                key.endswith(suf)
                and len(key) > len(suf)
                and _major_number(key[: -len(suf)]) is not None
            ):
                key = key[: -len(suf)]
                break
    n = _major_number(key)
    return None if n is None else major_code(n, rev)


def _major_number(key: str) -> int | None:
    if key in ROMAN_TO_NUMBER:
        return ROMAN_TO_NUMBER[key]
    if key.isdigit() and key.isascii() and int(key) < len(MAJORS) and len(key) <= 2:
        return int(key)
    return _NAME_TO_NUMBER.get(key)


def parse_card(key: str) -> int | None:
    """A normalised card spelling (``S10``, ``SWORDS10``, ``ソード10``, ``KINGOFCOINS``, ``0``,
    ``XIII``) as a card, or None."""
    for word in _SUIT_WORDS_LONGEST_FIRST:
        if key.startswith(word) and key[len(word) :] in _RANK_WORDS:
            return _SUIT_WORDS[word] * 14 + _RANK_WORDS[key[len(word) :]] - 1
        rank = key[: -len(word)].removesuffix("OF")  # "10S", "King of Coins"
        if key.endswith(word) and rank in _RANK_WORDS:
            return _SUIT_WORDS[word] * 14 + _RANK_WORDS[rank] - 1
    n = _major_number(key)
    if n in (FOOL, DEATH):
        return MINORS + n
    return None


def read_yosuko_move(state: YosukoState, text: str, legal: tuple[YosukoMove, ...]) -> YosukoMove:
    """Every spelling the rules allow: ``start 4`` / ``start4`` / ``開始 4`` / ``4`` (at the
    start), ``draw`` / ``引く``, ``move`` / ``進む``, ``stay`` / ``留まる``, a card ``S10``
    (a draw), ``deal XVIIr`` or ``XVIIr`` (a deal step)."""
    key = normalise(text)
    if key in _ACTIONS:
        return _ACTIONS[key]
    for move in legal:  # the kifu display forms (``開始 4（四爻）``, ``deal XVII The Star``)
        if key in (
            normalise(state.display_move(move, "en")),
            normalise(state.display_move(move, "ja")),
        ):
            return move
    phase = state.phase
    for word in _DEAL_WORDS:
        if key.startswith(word) and len(key) > len(word):
            code = parse_major(key[len(word) :])
            if code is None or code // 2 in (FOOL, DEATH):
                raise _bad(text, legal, state)
            return DEAL_MOVES[code]
    for word in _START_WORDS:
        if key.startswith(word):
            rest = key[len(word) :]
            if not rest:
                if phase == PHASE_START:
                    raise AmbiguousMoveError(
                        Text(
                            "Start on which line? Say `start 1` … `start 6`.",
                            "どの爻から始めますか？ 開始 1〜開始 6 で指定してください。",
                        ),
                        state.closest(text, legal, 6),
                    )
                if phase == PHASE_DEAL:
                    why = Text("The deal is not finished yet.", "まだ配札中です。")
                else:
                    why = Text(
                        "The start line is already chosen.", "開始位置はもう決まっています。"
                    )
                raise IllegalMoveError(why, state.closest(text, legal))
            rest = rest.removesuffix("爻") if rest not in _LINE_WORDS else rest
            if rest in _LINE_WORDS:
                return START_MOVES[_LINE_WORDS[rest] - 1]
            raise InvalidMoveError(
                Text(f"{text!r}: the lines are 1 to 6.", f"「{text}」：爻は 1〜6 です。"),
                state.closest(text, legal),
            )
    if phase == PHASE_START and key in _LINE_WORDS:
        return START_MOVES[_LINE_WORDS[key] - 1]
    if phase == PHASE_DEAL:
        code = parse_major(key)
        if code is not None and code // 2 not in (FOOL, DEATH):
            return DEAL_MOVES[code]
    card = parse_card(key)
    if card is not None:
        return CARD_MOVES[card]
    raise _bad(text, legal, state)


# --- the game ---------------------------------------------------------------------------------


class Yosuko(Game[YosukoState]):
    """略式易双六 for one player."""

    id = "yosuko"
    title_en = "Ryakushiki Yōsukō"
    title_ja = "略式易双六"
    player_counts = (1,)
    has_chance = True
    rules_doc = "docs/rules/yosuko.md"
    summary = Text(
        "A tarot solitaire by JRF: six major arcana dealt as the lines of a hexagram, a token on "
        "one of them, and minor arcana drawn one by one. Cups and Coins pile up on the lines and "
        "push the token; Swords and Wands try to move it by adding up numbers. When The Fool or "
        "Death comes up, the token must be on a winning line.",
        "JRF 作のタロット・ソリティア。大アルカナ 6 枚を易の六爻に並べてトークンを置き、"
        "小アルカナを一枚ずつ引く。カップとコインは爻に貯まりトークンを進め、ソードとワンドは"
        "足し算の判定で移動を試みる。愚者か死神が出たとき、トークンが勝ちの爻にあれば勝ち。",
    )
    game_options = (
        OptionSpec(
            "influence",
            INFLUENCES,
            "1",
            Text(
                "Multiply the majors' numbers (rounded up); 2 is The JRF Tarot's doubling.",
                "大アルカナの数値の倍率（切り上げ）。2 は The JRF Tarot の 2 倍。",
            ),
            Text("influence", "倍率"),
            tuple((v, Text(f"×{v}", f"{v}倍")) for v in INFLUENCES),
        ),
        OptionSpec(
            "compare",
            ("gt", "ge"),
            "gt",
            Text(
                "Judgement: From must be greater (gt) or greater or equal (ge).",
                "判定式：From が大きい時か、以上の時に移動。",
            ),
            Text("compare", "判定"),
            (
                ("gt", Text("greater (gt)", "より大きい")),
                ("ge", Text("greater or equal (ge)", "以上")),
            ),
        ),
        OptionSpec(
            "court",
            tuple(COURT_VALUES),
            "K14",
            Text(
                "Court card values: K14 P11 N12 Q13 K14; K13a 11/12/12/13; K13b 11/11/12/13; "
                "K10 all 10.",
                "コートカードの値：K14 はペイジ11・ナイト12・クイーン13・キング14、"
                "K13a 11/12/12/13、K13b 11/11/12/13、K10 はすべて 10。",
            ),
            Text("court", "コートカード"),
        ),
        OptionSpec(
            "rounds",
            ("1", "2", "3"),
            "1",
            Text(
                "How many times the shuffled-in major must come up; before the last, the "
                "discards are shuffled back.",
                "終了札が何回出たら終わるか。最後以外は捨て札を混ぜ直して続ける。",
            ),
            Text("rounds", "回数"),
            tuple((v, Text(v, f"{v}回")) for v in ("1", "2", "3")),
        ),
    )

    def seat_name(self, seat: int, lang: str = "en", players: int | None = None) -> str:
        return "プレイヤー" if lang.startswith("ja") else "Player"

    def initial_state(self, players: int, options: dict[str, str]) -> YosukoState:
        return YosukoState(opts=tuple(sorted(options.items())))

    def parse_position(self, text: str, options: dict[str, str], players: int) -> YosukoState:
        fields = text.split()
        if len(fields) != 8:
            raise position_error(self, "expected 8 fields", "8 項目が必要です", text)
        f_lines, f_start, f_token, f_stacks, f_disc, f_round, f_phase, f_ply = fields
        names = f_lines.split(",")
        if len(names) != 6:
            raise position_error(self, "six lines", "爻は 6 つです", text)
        lines: list[int] = []
        for i, name in enumerate(names):
            if name == "-":
                if any(n != "-" for n in names[i:]):
                    raise position_error(self, "lines are dealt in order", "爻は順に配ります", text)
                break
            code = parse_major(normalise(name))
            if code is None or code // 2 in (FOOL, DEATH) or major_name(code) != name:
                raise position_error(
                    self, f"bad major {name!r}", f"大アルカナ「{name}」が不正", text
                )
            lines.append(code)
        if len({c // 2 for c in lines}) != len(lines):
            raise position_error(self, "a major twice", "同じ大アルカナが二枚", text)
        phase = f_phase
        if phase not in PHASES:
            raise position_error(self, f"unknown phase {phase!r}", f"局面「{phase}」が不明", text)
        dealing = len(lines) < 6
        if dealing != (phase == PHASE_DEAL):
            raise position_error(
                self, "the deal and the phase disagree", "配札と局面が合いません", text
            )
        started = phase not in (PHASE_DEAL, PHASE_START)
        start = _read_line(text, f_start)
        token = _read_line(text, f_token)
        if started != bool(start) or started != bool(token):
            raise position_error(self, "start and token", "開始位置とトークン", text)
        if not (f_round + f_ply).isascii() or not f_round.isdigit() or not f_ply.isdigit():
            raise position_error(self, "round and ply are numbers", "回数と手数は数字", text)
        rnd, ply = int(f_round), int(f_ply)
        if not 1 <= rnd <= int(options["rounds"]) or (rnd > 1 and not started):
            raise position_error(self, f"round {rnd}", f"{rnd} 回目", text)
        if ply > 100_000:
            raise position_error(self, "ply too large", "手数が大きすぎます", text)
        stack_texts = f_stacks.split("/")
        if len(stack_texts) != 6:
            raise position_error(self, "six stacks", "カード群は 6 つです", text)
        seen: set[int] = set()
        stacks: list[tuple[int, ...]] = []
        for line, st in zip(LINES, stack_texts, strict=True):
            cards = _read_cards(text, st)
            want = COINS if is_upper(line) else CUPS
            if any(suit_of(c) != want for c in cards):
                raise position_error(
                    self,
                    f"line {line} holds only {SUIT_EN[want]}",
                    f"{line}には{SUIT_JA[want]}のみ",
                    text,
                )
            seen.update(cards)
            stacks.append(cards)
        discards = _read_cards(text, f_disc)
        total = sum(map(len, stacks)) + len(discards)
        if len(seen | set(discards)) != total:
            raise position_error(self, "a card twice", "同じカードが二枚", text)
        if not started and total:
            raise position_error(self, "cards before the start", "開始前にカード", text)
        if phase == PHASE_CHOOSE and (
            is_upper(token) or not discards or suit_of(discards[-1]) != SWORDS
        ):
            raise position_error(
                self, "move/stay follows a lower Sword", "進む/留まるは下卦のソードの後", text
            )
        return YosukoState(
            opts=tuple(sorted(options.items())),
            lines=tuple(lines),
            phase=phase,
            start=start,
            token=token,
            stacks=tuple(stacks),
            discards=discards,
            round=rnd,
            plies=ply,
            turns_played=ply,
        )


def _read_line(text: str, field_text: str) -> int:
    if field_text == "-":
        return 0
    if field_text in ("1", "2", "3", "4", "5", "6"):
        return int(field_text)
    raise position_error(GAME, f"bad line {field_text!r}", f"爻「{field_text}」が不正", text)


def _read_cards(text: str, field_text: str) -> tuple[int, ...]:
    if field_text == "-":
        return ()
    out: list[int] = []
    for name in field_text.split(","):
        card = parse_card(name) if name else None
        if card is None or card >= MINORS or card_name(card) != name:
            raise position_error(GAME, f"bad card {name!r}", f"カード「{name}」が不正", text)
        out.append(card)
    return tuple(out)


GAME = Yosuko()
YosukoState.game = GAME
GAMES = (GAME,)
