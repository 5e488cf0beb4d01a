"""Positions in words, for screen readers (issue 46): a pure function
``(state, viewer, lang, last_move) -> str``, the text twin of the pictures in :mod:`render`.

A description says, in this order: the game and the ply, whose turn (or how the game ended),
the last move in the game's own notation, then each side's pieces by kind with their squares
("Black: occupy 占 四04, 六06; warrior 武 五04"), the hands, and the facts a game adds (the 王手
state of 三国志, the lines, stacks, discards and talon of 略式易双六). Sentences end with ``.``
(``。``), kinds are separated by ``;`` and squares by ``,`` (``；`` and ``、`` in Japanese): plain
words a screen reader reads aloud, no drawing characters.

It is built from ``state.observe(viewer)`` only, so whatever the viewer may not see (the other
side's secret 数字将棋 setup, the cards still in the talon) cannot be written. ``limit`` shortens
the text for a field with a length limit (Discord's attachment description:
:data:`DISCORD_LIMIT`), in a fixed order: the last judgement and the set-aside major go, piece
lists become counts per kind (略式易双六's lines lose their names), and then whole parts go,
least important first (pieces, hands, the game's other facts). The game, the ply, the turn and
the last move always stay; only when they alone do not fit is the text cut, at a word or
separator, with "…". The format of each game is in docs/accessibility.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from engines import rokumentai as rk
from engines import sangokushi as sg
from engines import suji_shogi as sj
from engines import yosuko as ys
from engines.core import CHANCE, SIMULTANEOUS, TERMINAL, Outcome, State, Text
from engines.socrates import board as so
from engines.socrates.kokutan import MOVE_PHASE, KokutanState
from engines.socrates.shinken import ShinkenState
from engines.socrates.uchu import UchuState

DISCORD_LIMIT = 1024
"""The longest description Discord keeps for an attachment (its alt text)."""

# --- words and punctuation, as data ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Punctuation:
    """The separators of one language: between sentences, after a label, between groups (a
    kind's squares, a side's hand) and between items of a group."""

    sentence: str
    label: str
    group: str
    item: str
    end: str


PUNCTUATION = {
    "en": Punctuation(". ", ": ", "; ", ", ", "."),
    "ja": Punctuation("。", "：", "；", "、", "。"),
}

WORDS: dict[str, Text] = {
    "ply": Text("{title}, ply {n}", "{title}、{n}手目"),
    "to_move": Text("{seat} to move", "{seat}の手番"),
    "over": Text("Game over", "終局"),
    "last": Text("Last move", "直前の手"),
    "none": Text("none", "なし"),
    "hands": Text("Hands", "持ち駒"),
    "pieces": Text("{kind} ×{n}", "{kind}×{n}"),
    "cubes": Text("{n} cubes", "{n}個"),
    "a_cube": Text("a cube", "駒"),
    "the_token": Text("the token", "トークン"),
    "cube": Text("{n} cube", "{n}個"),
    "passes": Text("Forced passes in a row", "続けてのパス"),
    # 数字将棋
    "setting_up": Text("Secret setup", "秘密の配置中"),
    "set_up": Text("{seat} has set up", "{seat}は配置済み"),
    "not_set_up": Text("{seat} has not", "{seat}は未配置"),
    "deals_setups": Text("The host deals the setups", "配置を配っています"),
    "secret_setup": Text("a secret setup", "秘密の配置"),
    # 三国志
    "check": Text("Check (王手)", "王手"),
    "back_to": Text("then back to {seat}", "その後{seat}に戻る"),
    # ソクラテス
    "opening_flips": Text("Opening flips left", "序盤の反転の残り"),
    "flip_phase": Text("Phase 1, flips", "第1段階、反転"),
    "flip_phase_passed": Text("Phase 1, flips; the last turn passed", "第1段階、反転；直前はパス"),
    "move_phase": Text("Phase 2, moves", "第2段階、移動"),
    # 略式易双六
    "deal_line": Text("The host deals line {n}", "{line}を配っています"),
    "reveal_card": Text("The host turns up the drawn card", "引いたカードをめくっています"),
    "lines": Text("Lines", "爻"),
    "not_dealt": Text("{n} not dealt", "{line} 未配布"),
    "line_card": Text("{n} {name} ({title}{rev})", "{line} {name}（{title}{rev}）"),
    "reversed": Text(", reversed", "・逆位置"),
    "token": Text(
        "Token: line {n}, started on line {start} ({half} trigram), winning lines {goal}",
        "トークン：{line}、開始 {start_ja}（{half}）、勝ちは{goal}",
    ),
    "upper": Text("upper", "上卦"),
    "lower": Text("lower", "下卦"),
    "and": Text(" and ", "・"),
    "stacks": Text("Stacks", "カード群"),
    "discards": Text("Discards", "捨て札"),
    "talon": Text(
        "Talon: {n} cards, round {round} of {rounds}", "山札：{n}枚、{rounds}回中{round}回目"
    ),
    "set_aside": Text("Set aside: {name} ({title})", "除外：{name}（{title}）"),
}

YOSUKO_ACTIONS: dict[str, Text] = {
    ys.PHASE_START: Text("{seat} to choose the start line", "{seat}が開始する爻を選ぶ番"),
    ys.PHASE_DRAW: Text("{seat} to draw", "{seat}が引く番"),
    ys.PHASE_CHOOSE: Text("{seat} to move or stay", "{seat}が進むか留まるかを選ぶ番"),
}
"""The turn sentence of each phase of 略式易双六 where the player acts."""

ROKUMENTAI_KINDS = ("occupy", "warrior", "shrine maiden", "horse", "archer", "ghost")
"""The English word of each face of 六面体 (the kanji follow the owner: 占 or 領, ...)."""

SANGOKUSHI_KINDS: dict[int, str] = {
    sg.GENERAL: "general",
    sg.CAVALRY: "cavalry",
    sg.SPEAR: "spear",
    sg.ARCHER: "archer",
    sg.PAWN: "pawn",
    sg.TOKIN: "promoted pawn",
}
SANGOKUSHI_ORDER = (sg.GENERAL, sg.CAVALRY, sg.SPEAR, sg.ARCHER, sg.PAWN, sg.TOKIN)

SOCRATES_KINDS = (Text("plain", "無地"), Text("marked", "印"))
"""A Socrates piece's two faces (P/p plain, M/m marked)."""

SUJI_FACE_DOWN = Text("face down", "伏せ駒")


def say(key: str, lang: str, **values: object) -> str:
    """The phrase ``key`` of :data:`WORDS` in ``lang``, filled with ``values``."""
    return WORDS[key].get(lang).format(**values)


def _lang(lang: str) -> str:
    return "ja" if lang.startswith("ja") else "en"


# --- parts and the limit --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Part:
    """One sentence of the body. ``brief`` is its shorter form when the text must be cut ("" =
    left out); ``level`` orders the cuts: lower levels are shortened, then left out, first."""

    full: str
    brief: str = ""
    level: int = 0


JUDGEMENT, PIECES, HANDS, FACTS = 0, 1, 2, 3
"""The levels of the parts, least important first."""


def _join(sentences: Iterable[str], lang: str) -> str:
    p = PUNCTUATION[lang]
    kept = [s.rstrip(".。 ") for s in sentences if s]
    return p.sentence.join(kept) + p.end if kept else ""


def _fit(head: list[str], parts: list[Part], lang: str, limit: int | None) -> str:
    """The whole text if it fits in ``limit``; else parts shortened, then left out, by level;
    the head alone cut at a word (or separator) boundary as the last resort."""
    texts = [p.full for p in parts]
    text = _join([*head, *texts], lang)
    if limit is None or len(text) <= limit:
        return text
    levels = sorted({p.level for p in parts})
    for drop in (False, True):
        for level in levels:
            for i, part in enumerate(parts):
                if part.level == level:
                    texts[i] = "" if drop else part.brief
            text = _join([*head, *texts], lang)
            if len(text) <= limit:
                return text
    cut = text[: limit - 1]
    at = max(cut.rfind(c) for c in " 、。；：")
    return (cut[:at] if at > 0 else cut).rstrip(",;:、；： ") + "…"


# --- the shared shapes: a side's pieces and hands -------------------------------------------


Piece = tuple[int, Any, str]
"""A piece as a description lists it: (seat, kind, square name)."""


class Army(NamedTuple):
    """A board's pieces as a description lists them, the order of their kinds, and each kind's
    name (by seat: a kind may look different on each side)."""

    pieces: list[Piece]
    order: Sequence[Any]
    label: Callable[[int, Any], Text]


def _armies(
    state: State[Any],
    lang: str,
    pieces: Iterable[Piece],
    order: Sequence[Any],
    label: Callable[[int, Any], Text],
) -> list[Part]:
    """One part per seat: ``Black: occupy 占 四04, 六06; warrior 武 五04`` (kinds in ``order``,
    squares in the order given), briefly ``Black: occupy 占 ×2; warrior 武 ×1``."""
    p = PUNCTUATION[lang]
    found: dict[int, dict[Any, list[str]]] = {s: {} for s in range(state.num_players)}
    for seat, kind, square in pieces:
        found[seat].setdefault(kind, []).append(square)
    parts = []
    for seat, kinds in found.items():
        name = state.game.seat_name(seat, lang, state.num_players)
        ordered = [(label(seat, k).get(lang), kinds[k]) for k in order if k in kinds]
        full = p.group.join(f"{k} {p.item.join(squares)}" for k, squares in ordered)
        brief = p.group.join(say("pieces", lang, kind=k, n=len(sq)) for k, sq in ordered)
        none = say("none", lang)
        parts.append(
            Part(f"{name}{p.label}{full or none}", f"{name}{p.label}{brief or none}", PIECES)
        )
    return parts


def _hands(state: State[Any], lang: str, hands: Sequence[Sequence[str]]) -> Part:
    """``Hands: Black 2, 5; White none``: each seat's hand as its items."""
    p = PUNCTUATION[lang]
    sides = [
        f"{state.game.seat_name(seat, lang, state.num_players)} "
        + (p.item.join(items) or say("none", lang))
        for seat, items in enumerate(hands)
    ]
    text = f"{say('hands', lang)}{p.label}{p.group.join(sides)}"
    return Part(text, text, HANDS)


def _counted(lang: str, counts: Iterable[tuple[str, int]]) -> list[str]:
    """Hand items ``cavalry H ×2`` for the kinds held."""
    return [say("pieces", lang, kind=k, n=n) for k, n in counts if n]


# --- 六面体 -----------------------------------------------------------------------------------


def _rokumentai_kind(seat: int, face: int) -> Text:
    kanji = rk.FACES[seat][face]
    return Text(f"{ROKUMENTAI_KINDS[face]} {kanji}", kanji)


def _rokumentai_pieces(state: rk.RokumentaiState) -> Army:
    pieces = [
        (rk.OWNER[c], rk.FACE[c], rk.square_name(sq)) for sq, c in enumerate(state.board) if c
    ]
    return Army(pieces, range(6), _rokumentai_kind)


def _rokumentai_hands(state: rk.RokumentaiState, lang: str) -> list[list[str]]:
    return [[say("cube" if n == 1 else "cubes", lang, n=n)] for n in state.hands]


def _rokumentai(state: rk.RokumentaiState, lang: str) -> list[Part]:
    parts = _armies(state, lang, *_rokumentai_pieces(state))
    return [*parts, _hands(state, lang, _rokumentai_hands(state, lang))]


def _rokumentai_last(state: rk.RokumentaiState, move: rk.Move, lang: str) -> str:
    """``format_move`` read from the position after the move: the piece now stands on ``to``."""
    here = state.board[move.to]
    if move.frm < 0:
        return rk.square_name(move.to) + rk.FACES[rk.OWNER[here]][move.face]
    return rk.CELL_CHAR[here] + str(move)


# --- 数字将棋 ---------------------------------------------------------------------------------

SUJI_ORDER = (*range(1, 7), *range(sj.PROMOTED + 1, sj.PROMOTED + 7), sj.FACE_DOWN)


def _suji_kind(seat: int, code: int) -> Text:
    if code == sj.FACE_DOWN:
        return SUJI_FACE_DOWN
    if code > sj.PROMOTED:
        n = code - sj.PROMOTED
        return Text(f"piece 8 (promoted {n})", f"8（成{n}）")
    return Text(f"piece {code}", str(code))  # a bare "1 1五" is three numbers to a listener


def _suji_pieces(state: sj.SujiState) -> Army:
    pieces = [
        (sj.BLACK if c > 0 else sj.WHITE, abs(c), sj.square_kanji(sq))
        for sq, c in enumerate(state.board)
        if c
    ]
    return Army(pieces, SUJI_ORDER, _suji_kind)


def _suji_hands(state: sj.SujiState, lang: str) -> list[list[str]]:
    return [[str(n) for n in range(1, 7) for _ in range(h[n - 1])] for h in state.hands]


def _suji(state: sj.SujiState, lang: str) -> list[Part]:
    parts = _armies(state, lang, *_suji_pieces(state))
    return [*parts, _hands(state, lang, _suji_hands(state, lang))]


def _suji_turn(state: sj.SujiState, lang: str) -> str | None:
    player = state.current_player()
    if player == CHANCE:
        return say("deals_setups", lang)
    if player != SIMULTANEOUS:
        return None
    p = PUNCTUATION[lang]
    done = [
        say(
            "set_up" if state.has_set_up(s) else "not_set_up",
            lang,
            seat=state.game.seat_name(s, lang),
        )
        for s in (sj.BLACK, sj.WHITE)
    ]
    return f"{say('setting_up', lang)}{p.label}{p.item.join(done)}"


def _suji_last(state: sj.SujiState, move: sj.SujiMove, lang: str) -> str:
    if isinstance(move, sj.Setup) and state.hides_moves():
        return say("secret_setup", lang)
    return str(move)


# --- 三国志三人将棋 ---------------------------------------------------------------------------


def _sangokushi_kind(seat: int, kind: int) -> Text:
    return Text(f"{SANGOKUSHI_KINDS[kind]} {sg.LETTERS[kind]}", sg.KANJI[kind])


def _sangokushi_pieces(state: sg.SangokushiState) -> Army:
    pieces = [(c >> 3, c & 7, sg.NAMES[i]) for i, c in enumerate(state.board) if c]
    return Army(pieces, SANGOKUSHI_ORDER, _sangokushi_kind)


def _sangokushi_hands(state: sg.SangokushiState, lang: str) -> list[list[str]]:
    return [
        _counted(
            lang,
            ((_sangokushi_kind(0, k).get(lang), n) for k, n in zip(sg.HAND_KINDS, h, strict=True)),
        )
        for h in state.hands
    ]


def _sangokushi(state: sg.SangokushiState, lang: str) -> list[Part]:
    parts = _armies(state, lang, *_sangokushi_pieces(state))
    hands = _sangokushi_hands(state, lang)
    return [*parts, _hands(state, lang, hands), _sangokushi_check(state, lang)]


def _sangokushi_check(state: sg.SangokushiState, lang: str) -> Part:
    """``Check (王手): Shu; then back to Wei`` (the player the 王手 rule returns the turn to)."""
    p = PUNCTUATION[lang]
    n = state.num_players
    checked = [state.game.seat_name(s, lang, n) for s in sorted(state.in_check)]
    text = say("check", lang) + p.label + (p.item.join(checked) or say("none", lang))
    if state.return_to >= 0:
        text += p.group + say("back_to", lang, seat=state.game.seat_name(state.return_to, lang, n))
    return Part(text, text, FACTS)


def _sangokushi_last(state: sg.SangokushiState, move: sg.Move, lang: str) -> str:
    """``format_move`` read from the position after the move: the piece now stands on ``dst``
    (a pawn that promoted shows と)."""
    if move.is_drop:
        return str(move)
    kind = sg.PAWN if move.promote else state.board[move.dst] & 7
    return sg.LETTERS[kind] + str(move)


# --- ソクラテス -------------------------------------------------------------------------------


def _socrates_kind(seat: int, marked: bool) -> Text:
    return SOCRATES_KINDS[marked]


def _socrates_pieces(state: so.SocratesState) -> Army:
    pieces = [
        (0 if ch in so.OWN[0] else 1, ch in "Mm", so.CELL_NAMES[c])
        for c, ch in enumerate(state.board)
        if ch != so.EMPTY
    ]
    return Army(pieces, (False, True), _socrates_kind)


def _socrates_hands(state: so.SocratesState, lang: str) -> list[list[str]] | None:
    """宇宙遊泳's hands (the other Socrates games have none)."""
    if not isinstance(state, UchuState):
        return None
    kinds = [k.get(lang) for k in SOCRATES_KINDS]
    return [
        _counted(lang, zip(kinds, state.hands[2 * s : 2 * s + 2], strict=True))
        for s in (so.BLACK, so.WHITE)
    ]


def _socrates(state: so.SocratesState, lang: str) -> list[Part]:
    parts = _armies(state, lang, *_socrates_pieces(state))
    p = PUNCTUATION[lang]
    if (hands := _socrates_hands(state, lang)) is not None:
        parts.append(_hands(state, lang, hands))
    if isinstance(state, ShinkenState) and state.flips_left:
        text = f"{say('opening_flips', lang)}{p.label}{state.flips_left}"
        parts.append(Part(text, text, FACTS))
    if isinstance(state, KokutanState):
        key = "flip_phase_passed" if state.last_passed else "flip_phase"
        text = say("move_phase" if state.phase == MOVE_PHASE else key, lang)
        parts.append(Part(text, text, FACTS))
    if state.passes:
        text = f"{say('passes', lang)}{p.label}{state.passes}"
        parts.append(Part(text, text, FACTS))
    return parts


def _plain_last(state: State[Any], move: Any, lang: str) -> str:
    """The move's own notation (games whose moves do not depend on the board)."""
    return str(move)


# --- 略式易双六 -------------------------------------------------------------------------------


def _major(number: int) -> Text:
    m = ys.MAJORS[number]
    return Text(m.en, m.ja)


def _yosuko(state: ys.YosukoState, lang: str) -> list[Part]:
    p = PUNCTUATION[lang]
    rev = say("reversed", lang)
    lines, names = [], []
    for n in ys.LINES:
        line = ys.LINE_JA[n]
        if n > len(state.lines):
            lines.append(say("not_dealt", lang, n=n, line=line))
            names.append(lines[-1])
            continue
        code = state.lines[n - 1]
        title = _major(code // 2).get(lang)
        name = ys.major_name(code)
        lines.append(
            say("line_card", lang, n=n, line=line, name=name, title=title, rev=rev * (code % 2))
        )
        names.append(f"{n if lang == 'en' else line} {name}")
    label = say("lines", lang) + p.label
    parts = [Part(label + p.group.join(lines), label + p.group.join(names), FACTS)]
    if state.token:
        upper = ys.is_upper(state.start)
        goal = say("and", lang).join(
            str(g) if lang == "en" else ys.LINE_JA[g] for g in ys.WIN_LINES[upper]
        )
        text = say(
            "token",
            lang,
            n=state.token,
            line=ys.LINE_JA[state.token],
            start=state.start,
            start_ja=ys.LINE_JA[state.start],
            half=say("upper" if upper else "lower", lang),
            goal=goal,
        )
        parts.append(Part(text, text, FACTS + 1))
        stacks = [
            f"{n if lang == 'en' else ys.LINE_JA[n]} "
            + (p.item.join(map(ys.card_name, s)) or say("none", lang))
            for n, s in zip(ys.LINES, state.stacks, strict=True)
        ]
        counts = [
            f"{n if lang == 'en' else ys.LINE_JA[n]} ×{len(s)}"
            for n, s in zip(ys.LINES, state.stacks, strict=True)
        ]
        label = say("stacks", lang) + p.label
        parts.append(Part(label + p.group.join(stacks), label + p.group.join(counts), PIECES))
        label = say("discards", lang) + p.label
        discards = p.item.join(map(ys.card_name, state.discards)) or say("none", lang)
        parts.append(Part(label + discards, f"{label}×{len(state.discards)}", PIECES))
        rounds = state.params.rounds
        text = say("talon", lang, n=len(state.talon), round=state.round, rounds=rounds)
        parts.append(Part(text, text, FACTS + 1))
        aside = state.set_aside
        if aside is not None:
            number = aside - ys.MINORS
            name, title = ys.MAJORS[number].roman, _major(number).get(lang)
            text = say("set_aside", lang, name=name, title=title)
            parts.append(Part(text, "", JUDGEMENT))
    judgement = state.describe_last_judgement()
    if judgement is not None:
        parts.append(Part(judgement.get(lang), "", JUDGEMENT))
    return parts


def _yosuko_turn(state: ys.YosukoState, lang: str) -> str | None:
    if state.current_player() == CHANCE:
        if state.phase == ys.PHASE_DEAL:
            n = len(state.lines) + 1
            return say("deal_line", lang, n=n, line=ys.LINE_JA[n])
        return say("reveal_card", lang)
    action = YOSUKO_ACTIONS.get(state.phase)
    if action is None or state.current_player() == TERMINAL:
        return None
    return action.get(lang).format(seat=state.game.seat_name(0, lang, 1))


# --- the table of rule sets -----------------------------------------------------------------


def _no_turn(state: Any, lang: str) -> str | None:
    return None


@dataclass(frozen=True, slots=True)
class Describer:
    """How one rule set is described: its body parts, the last move's notation read from the
    position after it, and a turn sentence where the generic one does not fit (``None``:
    the generic ``Black to move``)."""

    body: Callable[[Any, str], list[Part]]
    last: Callable[[Any, Any, str], str]
    turn: Callable[[Any, str], str | None] = _no_turn
    army: Callable[[Any], Army] | None = None
    """The board's pieces (None: a game without pieces on a board, the solitaire)."""
    hands: Callable[[Any, str], list[list[str]] | None] | None = None
    """Each seat's hand as its items (None: a game without hands)."""


_SOCRATES = Describer(_socrates, _plain_last, army=_socrates_pieces, hands=_socrates_hands)
_SANGOKUSHI = Describer(
    _sangokushi, _sangokushi_last, army=_sangokushi_pieces, hands=_sangokushi_hands
)

DESCRIBERS: dict[str, Describer] = {
    "rokumentai": Describer(
        _rokumentai, _rokumentai_last, army=_rokumentai_pieces, hands=_rokumentai_hands
    ),
    "suji-shogi": Describer(_suji, _suji_last, _suji_turn, _suji_pieces, _suji_hands),
    "sangokushi": _SANGOKUSHI,
    "sangokushi-2p": _SANGOKUSHI,
    "socrates-uchu": _SOCRATES,
    "socrates-shinken": _SOCRATES,
    "socrates-kokutan": _SOCRATES,
    "socrates-twothree": _SOCRATES,
    "yosuko": Describer(_yosuko, _plain_last, _yosuko_turn),
}
"""Every rule set's describer, by game id."""


# --- the description ------------------------------------------------------------------------


def describe(
    state: State[Any],
    viewer: int | None = None,
    lang: str = "en",
    last_move: Any = None,
    outcome: Outcome | None = None,
    limit: int | None = None,
) -> str:
    """``state`` in words as ``viewer`` sees it (``None``: a spectator), in ``lang``.

    ``last_move`` is the move that led to ``state`` (as the pictures take it); ``outcome`` an
    end the host decided (resignation, timeout...) that overrides the state's own. ``limit``
    shortens the text to at most that many characters (see the module's docstring): the game,
    ply, turn and last move are kept whole whenever they fit at all.
    """
    lang = _lang(lang)
    seen = state.observe(viewer)
    describer = DESCRIBERS[seen.game.id]
    head = _head(seen, lang, last_move, outcome)
    return _fit(head, describer.body(seen, lang), lang, limit)


def _head(seen: State[Any], lang: str, last_move: Any, outcome: Outcome | None) -> list[str]:
    """The game and the ply, whose turn (or how it ended) and the last move."""
    describer = DESCRIBERS[seen.game.id]
    p = PUNCTUATION[lang]
    title = seen.game.title_ja if lang == "ja" else seen.game.title_en
    head = [say("ply", lang, title=title, n=seen.turns)]
    ended = outcome if outcome is not None else seen.outcome()
    if ended is not None:
        head.append(f"{say('over', lang)}{p.label}{ended.text.get(lang).rstrip('.。')}")
    else:
        turn = describer.turn(seen, lang)
        if turn is None:
            seat = seen.game.seat_name(seen.current_player(), lang, seen.num_players)
            turn = say("to_move", lang, seat=seat)
        head.append(turn)
    if last_move is not None:
        head.append(f"{say('last', lang)}{p.label}{describer.last(seen, last_move, lang)}")
    return head


# --- a part of the board (``/board text``'s filters, issue 46, 3) -----------------------------

PART_WORDS: dict[str, Text] = {
    "only_kind": Text("Only {kind}", "{kind}のみ"),
    "only_row": Text("Only row {row}", "{row}の列のみ"),
}


class NoSuchPart(ValueError):
    """A filter that names nothing this board has: what was asked, and what the board has."""

    def __init__(self, what: str, asked: str, choices: Sequence[str]) -> None:
        super().__init__(f"no {what} {asked!r} here")
        self.what = what
        self.asked = asked
        self.choices = tuple(choices)


def _aliases(label: Text) -> set[str]:
    """What a user may type for a kind: its whole name in either language, and, where the name
    ends with the piece's letter or character (``warrior 武``, ``general G``), each half."""
    out = {label.en.lower(), label.ja.lower()}
    *name, mark = label.en.split(" ")
    if name and len(mark) == 1 and not mark.isdigit():
        out |= {" ".join(name).lower(), mark.lower()}
    return out


def _line(square: str) -> tuple[str, int | None]:
    """A square name's two halves: its letters or characters, and its number (``四04`` ->
    (``四``, 4); ``2三`` -> (``三``, 2); ``E5`` -> (``e``, 5))."""
    digits = "".join(c for c in square if c.isdigit())
    return "".join(c for c in square if not c.isdigit()).lower(), int(digits) if digits else None


def _on_line(square: str, asked: str) -> bool:
    letters, number = _line(square)
    asked = asked.strip().lower()
    return int(asked) == number if asked.isdigit() else asked == letters


def _seen_army(state: State[Any], viewer: int | None) -> tuple[State[Any], Army]:
    seen = state.observe(viewer)
    describer = DESCRIBERS[seen.game.id]
    if describer.army is None:
        raise NoSuchPart("pieces", "", ())
    return seen, describer.army(seen)


def kinds(state: State[Any], viewer: int | None = None, lang: str = "en") -> list[str]:
    """The kinds on the board as ``viewer`` sees it, named in ``lang`` (empty: no pieces)."""
    try:
        seen, army = _seen_army(state, viewer)
    except NoSuchPart:
        return []
    present = {(seat, kind) for seat, kind, _ in army.pieces}
    names: list[str] = []
    for kind in army.order:
        for seat in range(seen.num_players):
            if (seat, kind) in present:
                name = army.label(seat, kind).get(_lang(lang))
                if name not in names:
                    names.append(name)
    return names


def rows(state: State[Any], viewer: int | None = None) -> list[str]:
    """The rows a ``row`` filter may name on this board: each square's letters and numbers."""
    try:
        _, army = _seen_army(state, viewer)
    except NoSuchPart:
        return []
    squares = [square for _, _, square in army.pieces]
    letters = sorted({"".join(c for c in sq if not c.isdigit()) for sq in squares} - {""})
    numbers = sorted({n for _, n in map(_line, squares) if n is not None})
    return [*letters, *(str(n) for n in numbers)]


def describe_part(
    state: State[Any],
    viewer: int | None = None,
    lang: str = "en",
    *,
    kind: str | None = None,
    row: str | None = None,
) -> str:
    """The game, the ply and whose turn, then only the pieces of one ``kind`` (as
    :func:`kinds` names them, or the kind's letter or character) or on one ``row`` (a rank,
    file, column or hex row: the letters or the number of the game's square names), each side
    as the full description lists it, from what ``viewer`` may see.
    :class:`NoSuchPart` when the board has no such kind or row (or no pieces at all)."""
    lang = _lang(lang)
    seen, army = _seen_army(state, viewer)
    seats = range(seen.num_players)
    if kind is not None:
        asked = kind.strip().lower()
        named = [(s, k) for k in army.order for s in seats if asked in _aliases(army.label(s, k))]
        if not named:
            raise NoSuchPart("kind", kind, kinds(state, viewer, lang))
        wanted = set(named)  # a side's own name (占) is that side's; a shared one both sides'
        pieces = [piece for piece in army.pieces if piece[:2] in wanted]
        labels = {army.label(*sk).get(lang) for sk in named}
        # one name for all the pieces asked for (each side's, when they share the word typed)
        shown = labels.pop() if len(labels) == 1 else kind.strip()
        said = PART_WORDS["only_kind"].get(lang).format(kind=shown)
    elif row is not None:
        pieces = [piece for piece in army.pieces if _on_line(piece[2], row)]
        if not pieces:
            raise NoSuchPart("row", row, rows(state, viewer))
        said = PART_WORDS["only_row"].get(lang).format(row=row.strip())
    else:
        raise ValueError("describe_part needs a kind or a row")
    head = _head(seen, lang, None, None)[:2]
    parts = _armies(seen, lang, pieces, army.order, army.label)
    return _join([*head, said, *(part.full for part in parts)], lang)


def hands(state: State[Any], viewer: int | None = None, lang: str = "en") -> list[str] | None:
    """Each seat's hand in words as ``viewer`` sees it (``2, 5``; ``none``), by seat; None
    for a game without hands."""
    lang = _lang(lang)
    seen = state.observe(viewer)
    describer = DESCRIBERS.get(seen.game.id)  # (a game made up by a test has none)
    made = describer.hands if describer is not None else None
    items = made(seen, lang) if made is not None else None
    if items is None:
        return None
    p = PUNCTUATION[lang]
    return [p.item.join(i) or say("none", lang) for i in items]


def square_names(game_id: str) -> Sequence[str]:
    """Every square's name, by the engine's index (empty: a game without a board)."""
    if game_id == "rokumentai":
        return [rk.square_name(i) for i in range(rk.SIZE * rk.SIZE)]
    if game_id == "suji-shogi":
        return [sj.square_kanji(i) for i in range(sj.SQUARES)]
    if game_id.startswith("sangokushi"):
        return sg.NAMES
    if game_id.startswith("socrates"):
        return so.CELL_NAMES
    return ()


def square_index(state: State[Any], name: str) -> int | None:
    """The engine's index of the square ``name`` (as the game writes it, any case; None: no
    such square on this board)."""
    asked = name.strip().lower()
    for index, square in enumerate(square_names(state.game.id)):
        if square.lower() == asked:
            return index
    return None


def describe_head(
    state: State[Any],
    viewer: int | None = None,
    lang: str = "en",
    last_move: Any = None,
    outcome: Outcome | None = None,
) -> str:
    """Only the start of :func:`describe`: the game and ply, whose turn and the last move."""
    lang = _lang(lang)
    return _join(_head(state.observe(viewer), lang, last_move, outcome), lang)


# --- where a seat clicks (issue 51, 2) --------------------------------------------------------


def cell_words(
    state: State[Any],
    viewer: int | None = None,
    lang: str = "en",
    *,
    sides: bool = True,
    owner: int | None = None,
) -> dict[int, str]:
    """What stands on each occupied cell as ``viewer`` sees it, by the engine's index: the
    owner and the kind (``Black warrior 武``; a hidden piece ``White face down``; the kind alone
    without ``sides``), the words of the site's buttons over the cells; only ``owner``'s pieces
    when given. Empty for a game without pieces on a board."""
    lang = _lang(lang)
    try:
        seen, army = _seen_army(state, viewer)
    except NoSuchPart:
        return {}
    index = {name: i for i, name in enumerate(square_names(seen.game.id))}
    out: dict[int, str] = {}
    for seat, kind, square in army.pieces:
        if owner is not None and seat != owner:
            continue
        kind_words = army.label(seat, kind).get(lang)
        side = seen.game.seat_name(seat, lang, seen.num_players)
        out[index[square]] = f"{side} {kind_words}" if sides else kind_words
    return out


def hand_piece(state: State[Any], move: Any) -> Text | None:
    """What ``move`` takes from the mover's hand, in words (the piece dropped, 六面体's cube,
    略式易双六's token placed on its line); None for a move of a piece already on the board,
    or one that goes nowhere."""
    seat = state.current_player()
    if isinstance(move, sj.Move) and move.is_drop:
        return _suji_kind(seat, move.drop)
    if isinstance(move, sg.Move) and move.is_drop:
        return _sangokushi_kind(seat, move.drop)
    if isinstance(move, so.Move) and move.kind == so.PLACE:
        return _socrates_kind(seat, move.marked)
    if isinstance(move, rk.Move) and move.frm < 0:
        return WORDS["a_cube"]
    if isinstance(move, ys.YosukoMove) and move.kind == ys.START:
        return WORDS["the_token"]
    return None
