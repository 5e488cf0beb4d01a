"""The helpers the test modules share: plain functions and classes, one copy each.

Fixtures stay in the ``conftest.py`` files (pytest's way); what a test calls lives here, so that
no test module imports another: a test module imported by another is loaded in every xdist
worker that collects the importer, and the two can no longer change or move apart
(tests/test_suite_shape.py checks).

The stores' snapshots take the store's location (a SQLite file or a PostgreSQL URL) and read it
with a separate plain connection; SQL is written with ``?`` placeholders for both.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import random
import shutil
import sqlite3
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import psycopg
import pytest
from aiohttp.test_utils import TestServer
from hypothesis import strategies as st
from PIL import Image

from bot.clock import FakeClock
from bot.config import Settings
from bot.learn import puzzles
from bot.learn.puzzles import Puzzle
from bot.sandbox import run_sandbox
from bot.service import GameService, InlineThinker, Reply, User
from bot.service.outbox import Kind
from bot.service.thinking import ThinkRequest
from bot.store import GameRow, Store, is_postgres_url
from bot.web import RateLimit, create_app
from engines.core import CHANCE, SIMULTANEOUS, Game, State
from engines.registry import all_games, get_game
from render.base import MAX_PNG_BYTES
from tests.discord_double import DiscordDouble, Interaction, payloads
from tests.discord_double.oauth import CLIENT_ID, CLIENT_SECRET
from tests.engines.playout import random_game

ROOT = Path(__file__).resolve().parents[1]

# --- people -------------------------------------------------------------------------------------

ALICE = User("100", "alice")
BOB = User("200", "bob")
CAROL = User("300", "carol")
DAVE = User("400", "dave")
PEOPLE = (ALICE, BOB, CAROL)

# --- the store, read on the side -----------------------------------------------------------------


def query(db_path: str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Run ``sql`` on its own connection (committed); the rows it returns, if any."""
    if is_postgres_url(db_path):
        with psycopg.connect(db_path, autocommit=True) as pg:
            cur = pg.execute(sql.replace("?", "%s").encode(), params)
            return [tuple(r) for r in cur.fetchall()] if cur.description else []
    con = sqlite3.connect(db_path)
    try:
        with con:
            return con.execute(sql, params).fetchall()
    finally:
        con.close()


def tables(db_path: str) -> list[str]:
    if is_postgres_url(db_path):
        rows = query(
            db_path,
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() ORDER BY table_name",
        )
    else:
        rows = query(
            db_path,
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name",
        )
    return [r[0] for r in rows]


def snapshot(db_path: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table (to prove nothing changed)."""
    return {t: sorted(query(db_path, f"SELECT * FROM {t}"), key=repr) for t in tables(db_path)}


def moves_of(db_path: str, game_id: int) -> list[tuple[int, int, str]]:
    return [
        (int(r[0]), int(r[1]), str(r[2]))
        for r in query(
            db_path,
            "SELECT ply, actor, move FROM moves WHERE game_id = ? ORDER BY ply",
            (game_id,),
        )
    ]


async def stored_row(store: Store, game_id: int) -> GameRow | None:
    """The game's row as the store holds it (``None``: no such game)."""
    record = await store.load_record(game_id)
    return None if record is None else record[0]


def file_text(name: str, data: bytes) -> str:
    """A record file's text: ``.kif`` is Shift-JIS (cp932), everything else UTF-8."""
    return data.decode("cp932" if name.endswith(".kif") else "utf-8")


# --- the service ---------------------------------------------------------------------------------


async def open_service(db_path: str, clock: FakeClock) -> GameService:
    """A service over the store at ``db_path`` (again: a restart)."""
    return await GameService.open(db_path, clock=clock, settings=Settings(db_path=db_path))


def offered(reply: Reply) -> tuple[str, ...]:
    """The reply's buttons as their ids write them (``resign``, ``step_next:5``)."""
    return tuple(str(b) for b in reply.actions)


async def ttt(service: GameService, a: User = ALICE, b: User = BOB, **kw: Any) -> int:
    """A game of noughts and crosses (the test engine) that ``a`` creates with ``b`` seated."""
    reply = await service.play.create_game(a, "ttt-test", seated=[b], **kw)
    assert reply.game_id is not None
    return reply.game_id


async def play_all(service: GameService, gid: int, moves: str) -> None:
    """Play space-separated moves alternately by alice and bob."""
    for i, m in enumerate(moves.split()):
        await service.play.move(gid, (ALICE, BOB)[i % 2], m)


async def beat(service: GameService, winner: User, loser: User, **kw: Any) -> int:
    """A rated game of noughts and crosses that ``loser`` resigns."""
    gid = await ttt(service, winner, loser, **kw)
    await service.play.resign(gid, loser)
    return gid


async def start(service: GameService, game_id: str, players: int | None = None) -> int:
    """A game of a real engine that alice creates with bob (and carol) seated."""
    game = next(g for g in all_games() if g.id == game_id)
    n = players or game.player_counts[0]
    reply = await service.play.create_game(
        ALICE, game_id, seated=list(PEOPLE[1:n]), players=players, seed=f"seed-{game_id}"
    )
    assert reply.game_id is not None
    return reply.game_id


async def play_on(service: GameService, game_id: int, plies: int, seed: int = 0) -> int:
    """Random legal moves (and setups) through the service; returns how many were made."""
    rng = random.Random(seed)
    people = {u.id: u for u in PEOPLE}
    for made in range(plies):
        info = await service.play.game_info(game_id)
        if info.status != "active":
            return made
        state = service.play.current_state(game_id)
        assert state is not None
        seat = rng.choice(state.acting_players())
        user = people[str(info.seats[seat].user_id)]
        move = rng.choice(await service.play.legal_move_choices(game_id, user.id, "", 500))
        if state.current_player() == SIMULTANEOUS:
            await service.play.setup(game_id, user, move)
        else:
            await service.play.move(game_id, user, move)
    return plies


async def suji_with(service: GameService, arrangement: str) -> int:
    """A game of 数字将棋 where alice has set up ``arrangement`` (bob has not yet)."""
    gid = await start(service, "suji-shogi")
    await service.play.setup(gid, ALICE, arrangement)
    return gid


class Silent(InlineThinker):
    """A computer player that never finishes thinking (the host stops first)."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = asyncio.Event()

    async def choose(self, request: ThinkRequest) -> str:
        self.asked.set()
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


# --- puzzles and the sandbox ---------------------------------------------------------------------

IN_THREE = next(p for p in puzzles.load("rokumentai") if p.plies == 3)


def solver_moves(puzzle: Puzzle) -> list[str]:
    """The main line's moves of the solver (the service plays the replies)."""
    state, out = puzzle.start(), []
    for text in puzzle.solution:
        if state.current_player() == puzzle.seat:
            out.append(text)
        state = state.apply(state.parse_move(text))
    return out


def a_wrong_move(puzzle: Puzzle) -> str:
    state = puzzle.start()
    return next(
        state.format_move(m)
        for m in state.legal_moves()
        if state.format_move(m) != puzzle.solution[0]
    )


async def run_script(tmp_path: Path, script: str, **kw: object) -> tuple[int, str]:
    """The sandbox run on ``script``: its exit code and what it wrote."""
    path = tmp_path / "script.txt"
    path.write_text(script, encoding="utf-8")
    out = io.StringIO()
    settings = Settings(db_path=str(tmp_path / "sandbox.db"))
    code = await run_sandbox(
        settings,
        script=str(path),
        out_dir=str(tmp_path / "out"),
        out=out,
        **kw,  # type: ignore[arg-type]
    )
    return code, out.getvalue()


# --- pictures ------------------------------------------------------------------------------------

PNG = b"\x89PNG\r\n\x1a\n"


def pixels(png: bytes | None) -> bytes:
    """The decoded RGBA pixels of a PNG (two encodings of one picture compare equal)."""
    assert png is not None and png.startswith(b"\x89PNG")
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGBA").tobytes()


def image_pixels(data: bytes) -> bytes:
    """The decoded RGBA pixels of any picture."""
    with Image.open(io.BytesIO(data)) as image:
        return image.convert("RGBA").tobytes()


def png_image(png: bytes) -> Image.Image:
    """A rendered PNG (checked: its signature, within the upload size) as RGB."""
    assert png.startswith(b"\x89PNG")
    assert len(png) <= MAX_PNG_BYTES
    return Image.open(io.BytesIO(png)).convert("RGB")


def loaded_image(png: bytes) -> Image.Image:
    """A picture, decoded as it is."""
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


# --- the bot through the Discord double ----------------------------------------------------------

EPHEMERAL = 1 << 6


def assert_png(inter: Interaction | dict[str, Any], double: DiscordDouble) -> None:
    """The message carries a real PNG (checked by its signature and IHDR chunk)."""
    if isinstance(inter, Interaction):
        datas = [f.data for f in inter.files]
    else:
        datas = [double.files[int(a["id"])] for a in inter["attachments"]]
    pngs = [d for d in datas if d.startswith(PNG)]
    assert pngs, "no PNG attached"
    assert pngs[0][12:16] == b"IHDR"
    assert len(pngs[0]) <= 100_000


def restricted(allowed: dict[str, Any] | None, users: set[int]) -> None:
    """Allowed mentions never parse everyone/roles, and list exactly ``users``."""
    assert allowed is not None
    assert not allowed.get("parse"), allowed
    assert {int(u) for u in allowed.get("users", [])} == users
    assert not allowed.get("roles")


def public(message: dict[str, Any]) -> bool:
    return not int(message.get("flags") or 0) & EPHEMERAL


def game_of(inter: Interaction | dict[str, Any]) -> int:
    """The game number in the mark at the foot of a message's card."""
    data = inter.data if isinstance(inter, Interaction) else inter
    marks = [t for t in payloads.texts(list(data.get("components") or [])) if t.startswith("-# #")]
    return int(marks[-1].removeprefix("-# #").split()[0])


async def start_challenge(double: DiscordDouble) -> tuple[int, dict[str, Any]]:
    """alice challenges bob to 六面体; bob accepts; returns (thread id, first turn message)."""
    challenge = await double.slash(double.alice, "play", {"rokumentai": {"opponent": double.bob}})
    assert not challenge.ephemeral
    message = challenge.message
    assert message is not None
    assert double.bob.mention in double.text_of(message)
    restricted(message["allowed_mentions"], {double.bob.id})
    buttons = double.buttons(message)
    assert set(buttons) == {"Accept", "Decline"}

    # Someone else cannot accept a challenge addressed to bob.
    wrong = await double.click(double.carol, message, buttons["Accept"])
    assert wrong.ephemeral

    accepted = await double.click(double.bob, message, buttons["Accept"])
    assert accepted.response_time < 3.0
    thread = (await double.wait_for(lambda: double.threads()))[0]
    thread_id = int(thread["id"])
    assert thread["name"].startswith("#")
    turn = await double.wait_for_message(thread_id, lambda m: bool(m["attachments"]))
    assert_png(turn, double)
    return thread_id, turn


async def suji_game(double: DiscordDouble, arrangement: str) -> tuple[int, Interaction]:
    """alice challenges bob to 数字将棋 and sends ``arrangement``; returns the thread and her
    (private) confirmation."""
    before = {t["id"] for t in double.threads()}
    challenge = await double.slash(double.alice, "play", {"suji-shogi": {"opponent": double.bob}})
    assert challenge.message is not None
    await double.click(double.bob, challenge.message, double.buttons(challenge.message)["Accept"])
    thread = await double.wait_for(lambda: [t for t in double.threads() if t["id"] not in before])
    thread_id = int(thread[0]["id"])
    await double.wait_for_message(thread_id, lambda m: bool(m["components"]))
    mine = await double.slash(double.alice, "setup", {"text": arrangement}, channel=thread_id)
    await double.wait_for_message(thread_id, lambda m: public(m) and "secret setup" in str(m))
    return thread_id, mine


async def play_three(
    double: DiscordDouble, thread_id: int, turn: dict[str, Any]
) -> list[tuple[str, Interaction]]:
    """Three moves (the first legal one each time) by the players in turn: each move as the
    autocomplete offered it, with its answer."""
    to_move = double.alice if double.alice.mention in double.text_of(turn) else double.bob
    other = double.bob if to_move is double.alice else double.alice
    played = []
    for user in (to_move, other, to_move):
        choices = await double.autocomplete(
            user, "move", {"notation": ""}, "notation", channel=thread_id
        )
        move = choices.choices[0]["value"]
        answer = await double.slash(user, "move", {"notation": move}, channel=thread_id)
        assert not answer.ephemeral
        played.append((move, answer))
    return played


# --- ``python -m bot`` in a subprocess -----------------------------------------------------------

TIMEOUT = 60.0
STDERR_LINE_LIMIT = 4 * 1024 * 1024
"""The longest stderr line read: at DEBUG, discord.py logs whole request bodies on one line (the
commands synced at start, with their Japanese names, pass asyncio's default 64 KiB)."""


def bot_env(tmp_path: Path, **settings: str) -> dict[str, str]:
    """A clean environment for ``python -m bot`` (no setting inherited from the caller)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "BANMEN_")) and k not in ("DEV_GUILD_ID", "LOG_LEVEL")
    }
    env |= {"PYTHONPATH": str(ROOT), "BANMEN_DB": str(tmp_path / "banmen.db"), "LOG_LEVEL": "INFO"}
    env["BANMEN_WEB_PORT"] = "0"  # no site: runs side by side must not share a port
    return env | settings


def double_env(double: DiscordDouble, tmp_path: Path, **settings: str) -> dict[str, str]:
    """The environment of a ``python -m bot`` that logs in to ``double``."""
    return bot_env(
        tmp_path,
        DISCORD_TOKEN=double.token,
        DISCORD_API_BASE=double.api_base,
        DISCORD_GATEWAY_URL=double.gateway_url,
        DEV_GUILD_ID=str(double.guild_id),
        **{"BANMEN_IDENTIFY_INTERVAL": "0.2", **settings},
    )


class Bot:
    """``python -m bot`` in a subprocess; its stderr is read line by line as it comes."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.lines: list[str] = []

    async def wait_line(self, predicate: Callable[[str], bool]) -> str:
        """The first stderr line (already read or still to come) matching ``predicate``."""

        async def read() -> str:
            for line in self.lines:
                if predicate(line):
                    return line
            assert self.proc.stderr is not None
            while raw := await self.proc.stderr.readline():
                line = raw.decode().rstrip("\n")
                self.lines.append(line)
                if predicate(line):
                    return line
            raise AssertionError("the bot exited without the line:\n" + "\n".join(self.lines))

        return await asyncio.wait_for(read(), TIMEOUT)

    async def finish(self) -> int:
        """Read stderr to its end and wait for the exit status."""
        assert self.proc.stderr is not None
        rest = await asyncio.wait_for(self.proc.stderr.read(), TIMEOUT)
        self.lines += rest.decode().splitlines()
        return await asyncio.wait_for(self.proc.wait(), TIMEOUT)

    @property
    def stderr(self) -> str:
        return "\n".join(self.lines)


@contextlib.asynccontextmanager
async def python_m_bot(env: dict[str, str], cwd: Path, *args: str) -> AsyncIterator[Bot]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args,
        cwd=cwd, env=env, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        limit=STDERR_LINE_LIMIT,
    )  # fmt: skip
    try:
        yield Bot(proc)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


# --- engines -------------------------------------------------------------------------------------


def actors_of(state: State[Any]) -> list[int | None]:
    """Who may act: every acting seat of a simultaneous step, else the one to move (``None``)."""
    p = state.current_player()
    if p == SIMULTANEOUS:
        return list(state.acting_players())
    return [None]


def samples(game: Game[Any], players: int) -> tuple[list[State[Any]], list[str], list[str]]:
    """Live states, real position texts and real move texts (canonical and display forms)."""
    states: list[State[Any]] = []
    for seed in range(3):
        states += random_game(game, seed, 40, players)[0]
    positions = sorted({s.position() for s in states})
    moves: set[str] = set()
    for state in states[::3]:
        if state.is_over():
            continue
        for actor in actors_of(state):
            for move in state.legal_moves(actor)[:12]:
                moves.add(state.format_move(move))
                moves.add(state.display_move(move, "en"))
                moves.add(state.display_move(move, "ja"))
    return [s for s in states if not s.is_over()], positions, sorted(moves)


ODD = ["²", "³", "½", "Ⅻ", "١", "٣", "０", "１", "９", "\ud800", "\udfff", "+", "++", "＋", "－"]
ODD += ["ー", "\u3000", "\t", "\n", "/", " ", "-", "*", "@", "!", "(", ")", "▲", "△", "\x00"]


def mutated(texts: list[str]) -> st.SearchStrategy[str]:
    """A real text with a few insertions, deletions and substitutions (and '+' prefixes), the
    characters drawn from the texts themselves, odd unicode and anything at all."""
    alphabet = sorted({c for text in texts for c in text})
    chars = st.one_of(st.sampled_from(alphabet), st.sampled_from(ODD), st.characters())
    edit = st.tuples(
        st.sampled_from(("insert", "delete", "replace", "prefix")), st.integers(0), chars
    )

    def apply(text: str, edits: list[tuple[str, int, str]]) -> str:
        for op, at, ch in edits:
            i = at % (len(text) + 1)
            if op == "insert":
                text = text[:i] + ch + text[i:]
            elif op == "delete":
                text = text[:i] + text[i + 1 :]
            elif op == "replace":
                text = text[:i] + ch + text[i + 1 :]
            else:
                text = ch + text
        return text

    return st.builds(apply, st.sampled_from(texts), st.lists(edit, min_size=1, max_size=4))


def wins_now(state: State[Any]) -> list[Any]:
    """The moves that win at once for the seat to move."""
    seat = state.current_player()
    out = []
    for move in state.legal_moves():
        outcome = state.apply(move).outcome()
        if outcome is not None and outcome.returns()[seat] > 0:
            out.append(move)
    return out


def planted(game_id: str, seed: int) -> tuple[list[State[Any]], list[Any], int, list[Any]]:
    """A game where both sides play at random but take every immediate win, except once: at
    the first position with a win in one, a move is played that does not win and lets the
    opponent win at once instead. Returns the positions before each ply, the plies, the
    blunder's index and the wins it missed."""
    rng = random.Random(seed)
    state: State[Any] = get_game(game_id).new_game()
    befores: list[State[Any]] = []
    plies: list[Any] = []
    blunder, missed = -1, []
    while state.outcome() is None and len(plies) < 400:
        if state.current_player() == CHANCE:
            state = state.apply(rng.choice([m for m, _ in state.chance_outcomes()]))
            continue
        wins = wins_now(state)
        legal = list(state.legal_moves())
        losing = []
        if wins and blunder < 0:
            losing = [m for m in legal if m not in wins and wins_now(state.apply(m))]
        if losing:
            blunder, missed = len(plies), wins
            move = rng.choice(losing)
        elif wins:
            move = wins[0]
        else:
            move = rng.choice(legal)
        befores.append(state)
        plies.append(move)
        state = state.apply(move)
    return befores, plies, blunder, missed


PLANTED_SEED = 16
"""The first seed whose 六面体 game has such a position (at ply 25 of 26)."""


def described(message: dict[str, Any]) -> str:
    """What a Discord message says, one part per line (a lesson's text)."""
    return payloads.text_of(message)


async def digests(service: GameService) -> list[Reply]:
    """The digests the outbox hands out now (written as they fall due), after the clocks' due
    events, as in a round of the timers' loop; each reported delivered as the adapter would
    after sending it."""
    await service.process_due()
    out = await service.pending_announcements(kind=Kind.DIGEST)
    for reply in out:
        assert reply.outbox is not None
        await service.announced(reply.outbox)
    return out


# --- the planted game: reviews, retries, analysis boards (issues 32, 50, 52) -----------------

REVIEW_NODES = 50
"""Nodes a ply is searched past the plain first ply by the reviews of these tests (that ply is
always searched: it sees the planted game's missed win)."""


def review_settings(db_path: str, nodes: int = REVIEW_NODES) -> Settings:
    return Settings(db_path=db_path, review_nodes=nodes)


async def planted_game(service: GameService) -> tuple[int, int, list[str]]:
    """The planted 六面体 game of tests/engines/test_review.py played through the service
    (alice first): its id, the blunder's ply (from 1) and the wins it missed, as displayed."""
    befores, plies, blunder, missed = planted("rokumentai", PLANTED_SEED)
    reply = await service.play.create_game(ALICE, "rokumentai", seated=[BOB], seating="listed")
    gid = reply.game_id
    assert gid is not None
    for before, move in zip(befores, plies, strict=True):
        user = (ALICE, BOB)[before.current_player()]
        await service.play.move(gid, user, before.format_move(move))
    info = await service.play.game_info(gid)
    assert info.status == "finished"
    shown = [befores[blunder].display_move(m, "en") for m in missed]
    return gid, blunder + 1, shown


async def planted_in_the_sandbox(
    tmp_path: Path, after: list[str], before: tuple[str, ...] = ()
) -> str:
    """The sandbox's output for the planted game (game #1, alice against bob) played by
    script, with the lines ``before`` its moves (once the challenge is accepted) and ``after``
    them."""
    from bot.sandbox import run_sandbox

    befores, plies, _, _ = planted("rokumentai", PLANTED_SEED)
    lines = ["/as alice", "/play rokumentai @bob", "/as bob", "/accept", *before]
    for here, move in zip(befores, plies, strict=True):
        lines += [f"/as {('alice', 'bob')[here.current_player()]}", here.format_move(move)]
    script = tmp_path / "script.txt"
    script.write_text("\n".join(lines + after) + "\n", encoding="utf-8")
    out = io.StringIO()
    db = str(tmp_path / "sandbox.db")
    out_dir = str(tmp_path / "out")
    code = await run_sandbox(
        review_settings(db), script=str(script), out_dir=out_dir, out=out, user="alice"
    )
    text = out.getvalue()
    assert code == 0, text
    return text


async def solitaire_game(service: GameService, seed: str) -> int:
    """A finished 略式易双六 game of alice's, the first choice offered taken every time."""
    gid = (await service.play.create_game(ALICE, "yosuko", seed=seed)).game_id
    assert gid is not None
    while (await service.play.game_info(gid)).status == "active":
        choices = await service.play.legal_move_choices(gid, ALICE.id, "")
        await service.play.move(gid, ALICE, choices[-1])
    return gid


def signing_settings(db_url: str, double: DiscordDouble) -> Settings:
    """A site with Discord sign-in against ``double``'s OAuth2 (issue 51)."""
    return Settings(
        db_path=db_url,
        discord_api_base=double.api_base,
        oauth_client_id=CLIENT_ID,
        oauth_client_secret=CLIENT_SECRET,
        oauth_authorize_url=f"{double.base_url}/oauth2/authorize",
    )


def activity_settings(db_url: str, double: DiscordDouble) -> Settings:
    """A site that also serves the board as a Discord Activity (issue 51, 3) against
    ``double``: its OAuth2, and the bot's token for the instances."""
    return replace(signing_settings(db_url, double), activity=True, discord_token=double.token)


async def placed(service: GameService, game_id: int, channel: int, thread: int) -> None:
    """``game_id`` recorded as living in ``thread`` of ``channel`` (as the Discord adapter
    records a game it placed)."""
    await service.play.set_game_location(game_id, str(channel), str(thread), None)


# --- a reader of positions in words (render/describe.py; issue 46) ------------------------------


def sentences(text: str) -> dict[str, str]:
    """The labelled sentences (``Label: body``) of an English description, by label; the first
    two sentences (game and ply, then the turn) as ``head`` and ``turn``."""
    assert text.endswith(".")
    parts = text[:-1].split(". ")
    out = {"head": parts[0], "turn": parts[1]}
    for part in parts[2:]:
        label, sep, body = part.partition(": ")
        if sep:
            out.setdefault(label, body)
    return out


def army(body: str) -> list[tuple[str, str]]:
    """``occupy 占 四04, 六06; warrior 武 五04`` as (kind label, square) pairs."""
    if body == "none":
        return []
    out = []
    for group in body.split("; "):
        first, *rest = group.split(", ")
        kind, square = first.rsplit(" ", 1)
        out += [(kind, sq) for sq in (square, *rest)]
    return out


# --- the browser (tests/web) --------------------------------------------------------------------


def chromium() -> str | None:
    """Debian's Chromium (or ``BANMEN_CHROMIUM``)."""
    for path in (
        os.environ.get("BANMEN_CHROMIUM"),
        "/usr/bin/chromium",
        "/usr/bin/chromium-browser",
    ):
        if path and os.access(path, os.X_OK):
            return path
    return shutil.which("chromium")


@contextlib.asynccontextmanager
async def site_in_chromium(
    db_url: str, settings: Callable[[str, DiscordDouble], Settings]
) -> AsyncIterator[tuple[GameService, DiscordDouble, str, Any]]:
    """A service with ``settings(db_url, double)`` against a fresh Discord double, its site
    served on 127.0.0.1 and a Chromium driven by Playwright: (service, double, the site's
    address, the browser)."""
    from playwright.async_api import async_playwright

    async with DiscordDouble() as double:
        service = await GameService.open(
            db_url, clock=FakeClock(), settings=settings(db_url, double)
        )
        app = create_app(service, limit=RateLimit(rate=1000.0, burst=10_000.0))
        server = TestServer(app, host="127.0.0.1")
        await server.start_server()
        try:
            async with async_playwright() as p:
                chrome = await p.chromium.launch(executable_path=chromium())
                yield service, double, str(server.make_url("")).rstrip("/"), chrome
                await chrome.close()
        finally:
            await server.close()
            await service.close()


def needs_chromium() -> pytest.MarkDecorator:
    """The mark of a module of browser tests: skipped, saying why, only without a Chromium."""
    return pytest.mark.skipif(
        chromium() is None,
        reason="no Chromium to drive (as root: apt-get install chromium, or set BANMEN_CHROMIUM)",
    )


# --- the opening explorer -----------------------------------------------------------------------

EXPLORED = "rokumentai"
"""The game the explorer's tests import records of."""


def explorer_record(rng: random.Random) -> tuple[list[str], dict[str, Any]]:
    """A short game of 六面体 from a few popular moves, resigned or agreed drawn."""
    state: State[Any] = get_game(EXPLORED).new_game()
    moves: list[str] = []
    for _ in range(rng.randint(2, 6)):
        legal = state.legal_moves()
        move = rng.choice(legal[:3])
        moves.append(state.format_move(move))
        state = state.apply(move)
    end = rng.random()
    if end < 0.2:
        result = {"termination": "agreement", "winners": [], "ranks": [1, 1]}
    else:
        winner = rng.randint(0, 1)
        ranks = [1, 2] if winner == 0 else [2, 1]
        result = {"termination": "resignation", "winners": [winner], "ranks": ranks}
    return moves, result | {"en": "over", "ja": "終局"}


def record_json(moves: list[str], result: dict[str, Any]) -> str:
    return json.dumps(
        {
            "game": EXPLORED,
            "players": 2,
            "options": {},
            "seed": "s",
            "moves": [{"by": i % 2, "move": m} for i, m in enumerate(moves)],
            "banmen": {"result": result},
        }
    )


async def one_move_resigned(
    service: GameService, guild_id: str = "123456789012345678", *, rated: bool = False
) -> tuple[int, str]:
    """A 六面体 game in a server: alice plays the first legal move, bob resigns (a finished
    game the explorer counts). Its id and that move (notation)."""
    made = await service.play.create_game(
        ALICE, "rokumentai", seated=[BOB], seating="listed", guild_id=guild_id, rated=rated
    )
    gid = made.game_id
    assert gid is not None
    state = service.play.current_state(gid)
    assert state is not None
    first = state.format_move(state.legal_moves()[0])
    await service.play.move(gid, ALICE, first)
    await service.play.resign(gid, BOB)
    return gid, first
