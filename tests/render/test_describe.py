"""Positions in words (render/describe.py): a reader of the English text rebuilds what the
viewer sees, for 200 random positions of every rule set and every viewer; nothing hidden is
written; the Japanese text is there; the limit keeps the head and cuts only at boundaries."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import pytest

from engines import CHANCE, SIMULTANEOUS, TERMINAL, Game, Outcome, State, Termination, Text
from engines import rokumentai as rk
from engines import sangokushi as sg
from engines import suji_shogi as sj
from engines import yosuko as ys
from engines.core import normalise
from engines.registry import all_games, get_game
from engines.socrates import board as so
from engines.socrates.uchu import UchuState
from render.describe import DESCRIBERS, DISCORD_LIMIT, describe
from tests.engines.playout import random_game
from tests.helpers import army, sentences

POSITIONS = 200
RULE_SETS = [(g.id, n) for g in all_games() for n in g.player_counts]

Position = tuple[State[Any], Any, State[Any] | None]
"""A position, the move that led to it and the position before (``None``: the start)."""


@cache
def positions(game_id: str, players: int) -> list[Position]:
    """``POSITIONS`` positions from seeded random games (starts and ends included)."""
    game = get_game(game_id)
    found: list[Position] = []
    seed = 0
    while len(found) < POSITIONS * 3:
        states, record = random_game(game, seed, 160, players)
        found.append((states[0], None, None))
        for before, entry, after in zip(states[:-1], record.entries, states[1:], strict=True):
            actor = None if entry.actor == CHANCE else entry.actor
            found.append((after, before.parse_move(entry.move, actor), before))
        seed += 1
    rng = random.Random(f"describe:{game_id}:{players}")
    return rng.sample(found, POSITIONS)


def viewers(state: State[Any]) -> list[int | None]:
    return [None, *range(state.num_players)]


# --- the reader -------------------------------------------------------------------------------


def hands(body: str, game: Game[Any], players: int) -> dict[int, list[str]]:
    """``Black 2, 5; White none`` as each seat's items."""
    out = {}
    for seat, side in enumerate(body.split("; ")):
        name = game.seat_name(seat, "en", players)
        assert side.startswith(name + " "), (side, name)
        items = side[len(name) + 1 :]
        out[seat] = [] if items == "none" else items.split(", ")
    return out


def counted(items: list[str]) -> dict[str, int]:
    """``cavalry H ×2`` items as {kind label: count}."""
    return {k: int(n) for k, n in (item.rsplit(" ×", 1) for item in items)}


def pieces_of(said: dict[str, str], state: State[Any]) -> Iterator[tuple[int, str, str]]:
    """Every (seat, kind label, square) the armies' sentences list."""
    for seat in range(state.num_players):
        name = state.game.seat_name(seat, "en", state.num_players)
        for kind, square in army(said[name]):
            yield seat, kind, square


def rebuild_rokumentai(said: dict[str, str], state: Any) -> Any:
    board = [0] * rk.SQUARES
    for seat, kind, square in pieces_of(said, state):
        sq = rk.COLUMNS.index(square[0]) + (int(square[1:]) - 1) * rk.SIZE
        board[sq] = rk.CHAR_CELL[kind.split()[-1]]
        assert rk.OWNER[board[sq]] == seat
    cubes = hands(said["Hands"], state.game, 2)
    return tuple(board), tuple(int(c[0].split()[0]) for c in cubes.values())


def expect_rokumentai(state: rk.RokumentaiState) -> Any:
    return state.board, state.hands


def _suji_code(kind: str) -> int:
    if kind == "face down":
        return sj.FACE_DOWN
    if m := re.fullmatch(r"piece 8 \(promoted ([1-6])\)", kind):
        return sj.PROMOTED + int(m.group(1))
    return int(kind.removeprefix("piece "))


def rebuild_suji(said: dict[str, str], state: Any) -> Any:
    board = [0] * sj.SQUARES
    for seat, kind, square in pieces_of(said, state):
        sq = sj.square_at(int(square[0]), sj.RANK_KANJI.index(square[1]) + 1)
        board[sq] = _suji_code(kind) * (1 if seat == sj.BLACK else -1)
    held = hands(said["Hands"], state.game, 2)
    counts = tuple(tuple(items.count(str(n)) for n in range(1, 7)) for items in held.values())
    return tuple(board), counts


def expect_suji(state: sj.SujiState) -> Any:
    return state.board, state.hands


def rebuild_sangokushi(said: dict[str, str], state: Any) -> Any:
    n = state.num_players
    board = [0] * sg.N_CELLS
    for seat, kind, square in pieces_of(said, state):
        board[sg.CELL_OF[square]] = sg.KIND_OF_LETTER[kind.split()[-1]] + 8 * seat
    held = hands(said["Hands"], state.game, n)
    hand_counts = []
    for items in held.values():
        c = {sg.KIND_OF_LETTER[k.split()[-1]]: v for k, v in counted(items).items()}
        hand_counts.append(tuple(c.get(k, 0) for k in sg.HAND_KINDS))
    checked, _, back = said["Check (王手)"].partition("; then back to ")
    seats = {state.game.seat_name(s, "en", n): s for s in range(n)}
    in_check = frozenset() if checked == "none" else frozenset(map(seats.get, checked.split(", ")))
    return tuple(board), tuple(hand_counts), in_check, seats.get(back, -1)


def expect_sangokushi(state: sg.SangokushiState) -> Any:
    return state.board, state.hands, state.in_check, state.return_to


def rebuild_socrates(said: dict[str, str], state: Any) -> Any:
    board = [so.EMPTY] * so.CELLS
    for seat, kind, square in pieces_of(said, state):
        cell = so.parse_cell(square)
        assert cell is not None
        board[cell] = (so.MARKED if kind == "marked" else so.PLAIN)[seat]
    held: tuple[int, ...] = ()
    if isinstance(state, UchuState):
        for items in hands(said["Hands"], state.game, 2).values():
            c = counted(items)
            held += (c.get("plain", 0), c.get("marked", 0))
    return "".join(board), held


def expect_socrates(state: so.SocratesState) -> Any:
    return state.board, state.hands if isinstance(state, UchuState) else ()


def _cards(text: str) -> tuple[int, ...]:
    if text in ("none", ""):
        return ()
    cards = tuple(ys.parse_card(name) for name in text.split(", "))
    assert None not in cards
    return cards  # type: ignore[return-value]


def rebuild_yosuko(said: dict[str, str], state: Any) -> Any:
    lines = []
    for item in said["Lines"].split("; "):
        m = re.fullmatch(r"([1-6]) (\S+) \(.+\)", item)
        if m:
            code = ys.parse_major(normalise(m.group(2)))
            assert code is not None
            lines.append(code)
    token = stacks = discards = talon = None
    if "Token" in said:
        token = int(re.match(r"line ([1-6])", said["Token"]).group(1))  # type: ignore[union-attr]
        stacks = tuple(_cards(s.split(" ", 1)[1]) for s in said["Stacks"].split("; "))
        discards = _cards(said["Discards"])
        talon = int(said["Talon"].split()[0])
    return tuple(lines), token, stacks, discards, talon


def expect_yosuko(state: ys.YosukoState) -> Any:
    if not state.token:
        return state.lines, None, None, None, None
    return state.lines, state.token, state.stacks, state.discards, len(state.talon)


READERS: dict[str, tuple[Callable[[dict[str, str], Any], Any], Callable[[Any], Any]]] = {
    "rokumentai": (rebuild_rokumentai, expect_rokumentai),
    "suji-shogi": (rebuild_suji, expect_suji),
    "sangokushi": (rebuild_sangokushi, expect_sangokushi),
    "sangokushi-2p": (rebuild_sangokushi, expect_sangokushi),
    "yosuko": (rebuild_yosuko, expect_yosuko),
} | {g.id: (rebuild_socrates, expect_socrates) for g in all_games() if g.id.startswith("socrates")}


def turn_of(said: dict[str, str], state: State[Any]) -> str:
    """What the turn sentence says, in the words of the state it should say it about."""
    turn = said["turn"]
    if turn.startswith("Game over: "):
        return "over"
    if turn.startswith("Secret setup: "):
        return "setup " + turn.removeprefix("Secret setup: ")
    if turn.startswith("The host "):
        return "chance"
    for seat in range(state.num_players):
        name = state.game.seat_name(seat, "en", state.num_players)
        if turn.startswith(name + " to "):
            return f"seat {seat}"
    raise AssertionError(f"unreadable turn {turn!r}")


def expected_turn(state: State[Any]) -> str:
    p = state.current_player()
    if p == TERMINAL:
        return "over"
    if p == CHANCE:
        return "chance"
    if p == SIMULTANEOUS:
        assert isinstance(state, sj.SujiState)
        done = [
            f"{name} has set up" if state.has_set_up(s) else f"{name} has not"
            for s, name in enumerate(("Black", "White"))
        ]
        return "setup " + ", ".join(done)
    return f"seat {p}"


# --- the tests --------------------------------------------------------------------------------


def test_every_rule_set_is_described() -> None:
    assert {g.id for g in all_games()} == set(DESCRIBERS) == set(READERS)


@pytest.mark.parametrize(("game_id", "players"), RULE_SETS)
def test_the_reader_rebuilds_the_viewers_position(game_id: str, players: int) -> None:
    rebuild, expect = READERS[game_id]
    for state, move, before in positions(game_id, players):
        for viewer in viewers(state):
            seen = state.observe(viewer)
            text = describe(state, viewer, "en", move)
            said = sentences(text)
            assert said["head"] == f"{state.game.title_en}, ply {seen.turns}"
            assert turn_of(said, seen) == expected_turn(seen), text
            assert rebuild(said, seen) == expect(seen), text
            if move is not None and before is not None and not isinstance(move, sj.Setup):
                assert said["Last move"] == before.format_move(move), text


def test_a_secret_setup_never_shows() -> None:
    """Before the reveal, the other side's digits (both sides', for a spectator) are nowhere:
    every hidden arrangement gives the same text, and the setup just made is not spelled out."""
    game = get_game("suji-shogi")
    rng = random.Random("describe:secret")
    arrangements = rng.sample(sj.ALL_SETUPS, 20)
    for hidden in (sj.BLACK, sj.WHITE):
        other = 1 - hidden
        for viewer in (None, other):
            texts = set()
            for setup in arrangements:
                state = game.new_game().apply(setup, hidden)
                for lang in ("en", "ja"):
                    text = describe(state, viewer, lang, setup)
                    assert setup.text() not in text
                texts.add(describe(state, viewer, "en", setup))
                said = sentences(describe(state, viewer, "en", setup))
                assert said["Last move"] == "a secret setup"
                kinds = {k for _, k, _ in pieces_of(said, state)}
                assert kinds == {"face down"}
            assert len(texts) == 1
        # the one who set up sees their own numbers
        state = game.new_game().apply(arrangements[0], hidden)
        said = sentences(describe(state, hidden, "en"))
        numbers = [k for seat, k, _ in pieces_of(said, state) if seat == hidden]
        assert sorted(numbers) == [f"piece {n}" for n in range(1, 7)]


MINOR_NAME = re.compile(r"(?<![A-Za-z0-9])[WCSP](?:10|[1-9]|[PNQK])(?![A-Za-z0-9])")


def test_an_unrevealed_card_never_shows() -> None:
    """Every card a 略式易双六 text names is on the table (a line, a stack, the discards, the
    card just drawn or its judgement); the talon is a count."""
    for state, move, _ in positions("yosuko", 1):
        assert isinstance(state, ys.YosukoState)
        shown = {c for s in state.stacks for c in s} | set(state.discards)
        if state.last_card is not None:
            shown.add(state.last_card)
        j = state.last_judgement
        if j is not None:
            shown |= {c for c in (j.card, j.f_from_card, j.f_to_card) if c is not None}
        names = {ys.card_name(c) for c in shown}
        for lang in ("en", "ja"):
            text = describe(state, None, lang, move)
            assert set(MINOR_NAME.findall(text)) <= names, text


@pytest.mark.parametrize(("game_id", "players"), RULE_SETS)
def test_the_japanese_text_names_the_game_and_the_seats(game_id: str, players: int) -> None:
    game = get_game(game_id)
    for state, move, _ in positions(game_id, players)[:40]:
        for viewer in viewers(state):
            text = describe(state, viewer, "ja", move)
            assert text.startswith(f"{game.title_ja}、{state.observe(viewer).turns}手目。")
            assert text.endswith("。") and "Black" not in text
            if players > 1:
                for seat in range(players):
                    assert game.seat_name(seat, "ja", players) + "：" in text
            if move is not None:
                assert "直前の手：" in text


@pytest.mark.parametrize(("game_id", "players"), RULE_SETS)
def test_the_brief_fits_discord_and_keeps_the_head(game_id: str, players: int) -> None:
    for state, move, _ in positions(game_id, players):
        for viewer in viewers(state):
            for lang in ("en", "ja"):
                full = describe(state, viewer, lang, move)
                head = full.split("。" if lang == "ja" else ". ")
                short = describe(state, viewer, lang, move, limit=DISCORD_LIMIT)
                assert len(short) <= DISCORD_LIMIT
                assert short == full or len(full) > DISCORD_LIMIT
                keep = 3 if move is not None else 2
                for sentence in head[:keep]:
                    if not sentence.startswith(("Game over", "終局")):
                        assert sentence.rstrip(".") in short


@pytest.mark.parametrize(("game_id", "players"), RULE_SETS)
def test_a_tight_limit_shortens_in_order_and_never_mid_word(game_id: str, players: int) -> None:
    """Under a small limit what is left is the head and whole sentences of the full text or
    their brief forms (the same label), in the same order (or, as the last resort, the text
    ends at a word with an ellipsis)."""
    for state, move, _ in positions(game_id, players)[:50]:
        full = describe(state, None, "en", move)
        for limit in (120, 250, 400):
            short = describe(state, None, "en", move, limit=limit)
            assert len(short) <= limit
            if short == full:
                continue
            if short.endswith("…"):
                assert full.startswith(short[:-1]) and full[len(short) - 1] in " .,;:", short
            else:
                said, kept = sentences(full), sentences(short)
                assert (kept["head"], kept["turn"]) == (said["head"], said["turn"])
                labels = [label for label in said if label in kept]
                assert labels == list(kept), (short, full)


def test_the_pieces_become_counts_before_they_go() -> None:
    state = next(s for s, _, _ in positions("rokumentai", 2) if sum(1 for c in s.board if c) > 10)
    full = describe(state)
    short = describe(state, limit=len(full) - 1)
    assert "×" in short and "Hands: " in short


def test_a_host_ended_game_says_how() -> None:
    state = get_game("rokumentai").new_game()
    ended = Outcome.loss(0, 2, Termination.RESIGNATION, Text("Black resigned.", "先手の投了。"))
    assert sentences(describe(state, None, "en", outcome=ended))["turn"] == (
        "Game over: Black resigned"
    )
    assert "終局：先手の投了。" in describe(state, None, "ja", outcome=ended)
