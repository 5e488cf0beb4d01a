"""The terminal sandbox: the bot's slash-command grammar in a terminal, over the same service.

One person can act as several users (``/as bob``); pictures are written to files whose paths are
printed; commands come from the keyboard, a script file or a pipe, so a whole game can be scripted.
"""

from __future__ import annotations

import asyncio
import re
import shlex
import sys
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import IO, Any

from bot import i18n, web
from bot.clock import Clock, ClockError, SystemClock, parse_duration
from bot.config import Settings
from bot.i18n import Lang, clean_text
from bot.service import (
    ACTIONS,
    AI_DEFAULT_LEVEL,
    ANSWERS,
    MAX_GAME_ID,
    Action,
    GameService,
    GameTarget,
    Kind,
    Practice,
    Press,
    Refusal,
    Reply,
    Scope,
    Takes,
    TournamentOptions,
    User,
    button_words,
    catalogue,
)

TICK_RANGE = (1, 366 * 86400)
"""One ``/tick`` moves the sandbox clock by 1 second to 366 days."""
MAX_OFFSET = timedelta(days=3653)
"""The sandbox clock never runs more than about 10 years ahead."""
LEGAL_SHOWN = 200
"""``/legal`` lists at most this many moves (and says how many more there are)."""
_GAME_ID = re.compile(r"#?[0-9]+")
_AI = re.compile(r"@ai(?::([0-9]{1,3}))?", re.IGNORECASE)
"""``@ai`` or ``@ai:4``: a computer player (at that level) takes a seat."""
_GAME_OPTION = re.compile(r"game[=:](.*)", re.IGNORECASE)
_PICTURE = re.compile(r"(?:game-[0-9]+|[a-z]+)-([0-9]{4,9})-.*\.[a-z]{3,4}")
"""A picture's file: ``game-12-0003-seat0.png``, or of no game, by what it shows
(``lesson-0004-seat0.png``, ``puzzle-…``, ``rating-…``, ``tournament-…``)."""


def card_tail(reply: Reply, lang: str) -> list[str]:
    """What a card shows after its text, picture and files: a line per seat, the buttons and,
    for a leaderboard of several pages, how to turn them."""
    out = ["  " + i18n.t(seat.key, lang, **seat.params).replace("**", "") for seat in reply.seats]
    if labels := [button_words(b, lang) for b in reply.actions]:
        out.append(i18n.t("sandbox.buttons", lang, buttons=" ".join(f"[{x}]" for x in labels)))
    if reply.page is not None and reply.page.count > 1:
        page = reply.page
        more = " provisional" if page.provisional else ""
        usage = f"/leaderboard {page.game_type} {page.scope.value} <1-{page.count}>{more}"
        out.append(i18n.t("sandbox.pages", lang, page=page.number, pages=page.count, usage=usage))
    return out


UseCase = Callable[[GameService, int, User], Awaitable[Reply]]
SIMPLE: dict[str, UseCase] = {
    "/abort": lambda s, gid, me: s.play.abort(gid, me),
    "/hint": lambda s, gid, me: s.play.hint(gid, me),
}
"""Commands that are one use case of a game and no button: ``/hint [id]`` and the like."""
BUTTONS = {
    f"/{a.value}": a
    for a in (
        *(Action.JOIN, Action.ACCEPT, Action.DECLINE, Action.LEAVE, Action.START, Action.CANCEL),
        *(Action.MOVE, Action.SETUP, Action.RESIGN, Action.MOVES, Action.RECORD),
        Action.REMATCH,
    )
}
"""Commands that do what a button does, run through the same table: ``/join [id]``,
``/move [id] <move>`` (``/draw`` and ``/takeback`` are :data:`ANSWERS`; ``/replay`` takes more)."""
LEARN_BUTTONS = {
    "restart": Action.LEARN_RESTART,
    "next": Action.LEARN_NEXT,
    "stop": Action.LEARN_STOP,
}
"""``/learn restart|next|stop``: a lesson's buttons, on the user's practice board."""
PRACTICE = frozenset({"/move", "/legal", "/hint"})
"""Commands that go to the user's open lesson or puzzle when they name no game (``/learn``,
``/puzzle``)."""


def _game_id(token: str) -> int:
    """A game id as typed; only a plain ASCII number below 2**63 can be one ("²" or "١" are
    digits too)."""
    if not _GAME_ID.fullmatch(token) or not 0 < int(token.lstrip("#")) < MAX_GAME_ID:
        raise Refusal("refuse.unknown_game", id=token.lstrip("#"))
    return int(token.lstrip("#"))


class OffsetClock:
    """The real clock plus an offset that ``/tick`` moves forward (to try clocks quickly)."""

    def __init__(self, base: Clock | None = None) -> None:
        self.base = base or SystemClock()
        self.offset = timedelta()

    def now(self) -> datetime:
        return self.base.now() + self.offset


class UnknownCommand(Exception):
    pass


def picture_text(reply: Reply, path: Path, lang: str) -> str:
    """Where a reply's picture was written, and its words (what a screen reader reads in its
    place) on the next line."""
    shown = i18n.t("sandbox.image", lang, path=path)
    if reply.image_alt is None:
        return shown
    return shown + "\n" + i18n.t("sandbox.image_alt", lang, words=reply.image_alt.get(lang))


@dataclass
class Sandbox:
    """Reads commands, calls the service, prints the replies (see ``/help``)."""

    service: GameService
    out_dir: Path = Path("out")
    lang: Lang = Lang.EN
    user: User = field(default_factory=lambda: User("you", "you"))
    out: IO[str] = field(default_factory=lambda: sys.stdout)
    clock: OffsetClock | None = None
    current: dict[str, int] = field(default_factory=dict)
    images: int | None = None
    """The number of the last picture written (``None``: not yet read from ``out_dir``)."""
    target: int | None = None
    """The game the command being run went to (refusals name it)."""
    shown: list[str] = field(default_factory=list)
    """Announcements printed since the outbox was last told (see :meth:`report`)."""
    site: str | None = None
    """The address of the web pages while they run (each started game's link is printed)."""
    linked: set[int] = field(default_factory=set)

    # -- output ----------------------------------------------------------------------------
    def say(self, text: str) -> None:
        print(clean_text(text), file=self.out, flush=True)

    def t(self, key: str, **params: Any) -> str:
        return i18n.t(key, self.lang, **params)

    def show_all(self, replies: Reply | Sequence[Reply]) -> None:
        for reply in [replies] if isinstance(replies, Reply) else replies:
            self.show(reply)

    def show(self, reply: Reply) -> None:
        who = reply.audience or self.user.id
        prefix = "" if reply.public else self.t("sandbox.private", name=who) + " "
        self.say(prefix + reply.text(self.lang))
        if reply.notify:
            self.say("  @" + " @".join(reply.notify))
        if reply.image is not None:
            view = "spectator" if reply.image_viewer is None else f"seat{reply.image_viewer}"
            what = f"game-{reply.game_id}" if reply.game_id is not None else reply.subject
            path = self._picture_path(what, view, reply.image_format)
            path.write_bytes(reply.image)
            self.say(picture_text(reply, path, self.lang))
        for f in reply.files:
            self.out_dir.mkdir(parents=True, exist_ok=True)
            path = self.out_dir / f.name
            path.write_bytes(f.data)
            self.say(self.t("sandbox.file", path=path))
        for line in card_tail(reply, self.lang):  # the card's seats and buttons, in its order
            self.say(line)
        self.shown += reply.announcements
        if reply.game_id is not None:
            for uid in {self.user.id, *reply.to_move}:
                self.current.setdefault(uid, reply.game_id)
            self.current[self.user.id] = reply.game_id

    def _picture_path(self, what: str, view: str, ext: str = "png") -> Path:
        """A new file for a picture: numbered after every picture already in ``out_dir`` (an
        earlier session's included), so nothing is ever overwritten."""
        self.out_dir.mkdir(parents=True, exist_ok=True)
        if self.images is None:
            numbers = (_PICTURE.fullmatch(p.name) for p in self.out_dir.glob("*-*"))
            self.images = max((int(m[1]) for m in numbers if m), default=0)
        while True:
            self.images += 1
            path = self.out_dir / f"{what}-{self.images:04d}-{view}.{ext}"
            if not path.exists():
                return path

    # -- parsing ---------------------------------------------------------------------------
    @staticmethod
    def _user(token: str) -> User:
        name = clean_text(token.lstrip("@").strip())
        return User(name, name)

    async def _game_and_rest(
        self, args: list[str], min_rest: int = 0, *, to_play: bool = False
    ) -> tuple[int, list[str]]:
        """The game a command names (``/move 3 …``, ``/move #3 …`` or ``game=3`` anywhere),
        else the user's game: for a move, the one game where it is their turn (the current one
        first), else the last game they used. The command's output then says which it was."""
        named = [m[1] for a in args if (m := _GAME_OPTION.fullmatch(a))]
        if named:
            args = [a for a in args if not _GAME_OPTION.fullmatch(a)]
            self.target = _game_id(named[-1])
            return self.target, args
        if args and len(args) > min_rest and args[0].lstrip("#").isdigit():
            self.target = _game_id(args[0])
            return self.target, args[1:]
        gid = self.current.get(self.user.id)
        if to_play:
            waiting = await self.service.play.games_to_play(self.user.id)
            if gid not in waiting and len(waiting) == 1:
                gid = waiting[0]
            elif gid not in waiting and len(waiting) > 1:
                games = ", ".join(f"#{g}" for g in waiting)
                raise Refusal("sandbox.which_game", games=games, example=waiting[0])
        if gid is None:
            raise Refusal("sandbox.no_game")
        self.target = gid
        if len(self.service.play.game_choices(self.user.id, limit=2)) > 1:
            self.say(self.t("sandbox.to_game", id=gid))
        return gid, args

    async def handle(self, line: str) -> None:
        """Run one command line; refusals are printed, unknown commands raise UnknownCommand."""
        line = line.strip()
        if not line or line.startswith("#"):
            return
        try:
            parts = shlex.split(line)
        except ValueError:
            parts = line.split()
        command, args = parts[0].lower(), parts[1:]
        if not command.startswith("/"):
            command, args = "/move", parts
        self.target = None
        try:
            await self._dispatch(command, args)
        except Refusal as exc:
            text = exc.text(self.lang)
            if self.target is not None and f"#{self.target}" not in text:
                text = f"#{self.target}: {text}"  # which game refused it
            self.say("✗ " + text)
        for reply in await self.service.process_due():
            self.show(reply)
        for reply in await self.service.pending_announcements(kind=Kind.DIGEST):
            self.show(reply)  # a digest due by the sandbox's clock: the outbox's
        await self.settle()
        await self.report()

    async def settle(self) -> None:
        """The computer players' turns, and whatever that does to tournaments (a computer-only
        round plays through to the next, and on to the end)."""
        while True:
            replies = await self.service.play.settle_ai()
            replies += await self.service.compete.settle_tournaments()
            if not replies:
                return
            self.show_all(replies)

    async def report(self) -> None:
        """Tell the outbox that what was printed is delivered."""
        shown, self.shown = self.shown, []
        await self.service.announced(*shown)

    async def catch_up(self) -> None:
        """Print what an earlier session committed but never printed (it was killed): every
        row of the outbox, whatever its kind (the one delivery loop of the sandbox)."""
        for reply in await self.service.pending_announcements():
            self.show(reply)
        await self.report()

    async def _dispatch(self, command: str, args: list[str]) -> None:
        s, me = self.service, self.user
        if command in PRACTICE and (kind := await practising(self, args)) is not None:
            await practice_command(self, kind, command, args)
            return
        if command == "/help":
            self.say(self.t("sandbox.help"))
            self.say(self.t("sandbox.help_puzzle"))
            self.say(self.t("sandbox.help_retry"))
            self.say(self.t("sandbox.help_tournament"))
            self.say(self.t("sandbox.games", games=", ".join(g.id for g in catalogue())))
        elif command == "/as":
            if not args:
                self.say(self.t("sandbox.usage", usage="/as <user>"))
                return
            self.user = self._user(args[0])
            self.say(self.t("sandbox.as", name=self.user.name))
        elif command == "/lang":
            self.lang = Lang.of(args[0] if args else None)
        elif command == "/play":
            await self._play(args)
        elif command in SIMPLE:
            gid, _ = await self._game_and_rest(args)
            self.show(await SIMPLE[command](s, gid, me))
        elif command in BUTTONS:
            await self._button(BUTTONS[command], args)
        elif command == "/legal":
            # a lone number is a game of yours, else the start of a move (/legal 12)
            mine = {g for g, _ in s.play.game_choices(me.id, limit=1000)}
            lone = len(args) == 1 and args[0].isdigit() and int(args[0]) not in mine
            gid, rest = await self._game_and_rest(args, 1 if lone else 0, to_play=True)
            found = await s.play.legal_moves(gid, me.id, " ".join(rest), LEGAL_SHOWN, self.lang)
            self.say(", ".join(found.moves) or "-")
            if found.total > len(found.moves):
                self.say(self.t("sandbox.legal_more", shown=len(found.moves), total=found.total))
        elif command[1:] in ANSWERS:
            gid, rest = await self._game_and_rest(args)
            answers = ANSWERS[command[1:]]
            action = answers.get(rest[0].lower() if rest else None, answers[None])
            self.show_all(await s.act(action, Press(GameTarget(gid), me)))
        elif command == "/games":
            self.show(await s.play.list_games(me))
        elif command == "/stats":
            await self._stats(args)
        elif command == "/rating":
            await self._stats(args, rating=True)
        elif command == "/leaderboard":
            await self._leaderboard(args)
        elif command == "/rules":
            await self._rules(args)
        elif command == "/replay":
            await self._replay(args)
        elif command == "/tick":
            if self.clock is None:
                self.say(self.t("sandbox.no_clock"))
                return
            text = args[0] if args else "1m"
            try:
                seconds = parse_duration(text, "m", TICK_RANGE)
            except ClockError:
                seconds = 0
            if not seconds or self.clock.offset + timedelta(seconds=seconds) > MAX_OFFSET:
                self.say("✗ " + self.t("sandbox.bad_tick", text=text))
                return
            self.clock.offset += timedelta(seconds=seconds)
        elif command in ("/vacation", "/premove", "/notify"):
            await correspondence(self, command, args)
        elif command in COMMANDS:
            await COMMANDS[command](self, args)
        elif command in ("/quit", "/exit"):
            raise EOFError
        else:
            raise UnknownCommand(command)

    async def _button(self, action: Action, args: list[str]) -> None:
        """A command that does what a button does; ``/move`` and ``/setup`` take the text the
        button would ask for."""
        if ACTIONS[action].takes is not Takes.TEXT:
            gid, _ = await self._game_and_rest(args)
            self.show_all(await self.service.act(action, Press(GameTarget(gid), self.user)))
            return
        gid, rest = await self._game_and_rest(args, min_rest=1, to_play=True)
        if not rest:
            self.say(self.t("sandbox.usage", usage=f"/{action} [id] <move>"))
            return
        press = Press(GameTarget(gid), self.user, " ".join(rest))
        self.show_all(await self.service.act(action, press))

    async def _replay(self, args: list[str]) -> None:
        """``/replay [id]``: the GIF, written to a file; ``/replay [id] at=N``: the picture after
        move N (0: the start)."""
        at = [a for a in args if a.startswith("at=")]
        gid, _ = await self._game_and_rest([a for a in args if not a.startswith("at=")])
        if not at:
            self.show(await self.service.review.replay(gid, self.user))
            return
        ply = at[-1].removeprefix("at=")
        if not re.fullmatch(r"[0-9]{1,6}", ply):
            self.say(self.t("sandbox.usage", usage="/replay [id] [at=<move number>]"))
            return
        self.show(await self.service.review.replay_step(gid, self.user, int(ply)))

    async def _stats(self, args: list[str], *, rating: bool = False) -> None:
        """``/stats [game] [user]`` and ``/rating [user] [game]``: a registered game id narrows
        to that game."""
        games = {g.id for g in catalogue()}
        game_type = next((a for a in args if a in games), None)
        who = [a for a in args if a != game_type]
        user = self._user(who[0]) if who else self.user
        if rating:
            self.show(await self.service.compete.rating(user, game_type))
        else:
            self.show(await self.service.play.stats(user, game_type, self.user))

    async def _leaderboard(self, args: list[str]) -> None:
        """``/leaderboard <game> [server|global] [page] [provisional]`` (the sandbox is one
        server: games played here have no server id)."""
        usage = "/leaderboard <game> [server|global] [page] [provisional]"
        if not args:
            self.say(self.t("sandbox.usage", usage=usage))
            return
        scope, page, provisional = Scope.SERVER, 1, False
        for a in args[1:]:
            word = a.lower()
            if word in ("server", "global"):
                scope = Scope(word)
            elif word in ("provisional", "provisional=true", "provisional:true"):
                provisional = True
            elif re.fullmatch(r"[0-9]{1,6}", word) and int(word) > 0:
                page = int(word)
            else:
                self.say(self.t("sandbox.usage", usage=usage))
                return
        self.show(
            await self.service.compete.leaderboard(
                args[0], None, scope, page, provisional=provisional
            )
        )

    async def _rules(self, args: list[str]) -> None:
        """``/rules <game> [page]``: a page of the game's rules (1-based), its text printed and
        its picture written to ``out_dir``."""
        usage = "/rules <game> [page]"
        if not args or len(args) > 2 or (len(args) == 2 and not args[1].isdigit()):
            self.say(self.t("sandbox.usage", usage=usage))
            return
        number = int(args[1]) if len(args) == 2 and len(args[1]) <= 6 else 1
        page = await self.service.learn.rules_page(args[0], max(number, 1) - 1)
        lang = self.lang
        self.say(f"{page.title.get(lang)} · {page.sections[page.section][1].get(lang)}")
        self.say(f"{page.heading.get(lang)}\n{page.body.get(lang)}")
        if page.link:
            self.say(page.link)
        if page.png is not None:
            self.out_dir.mkdir(parents=True, exist_ok=True)
            path = self.out_dir / f"rules-{page.game}-{page.index + 1:02d}.png"
            path.write_bytes(page.png)
            self.say(self.t("sandbox.image", path=path))
        comma = "、" if lang == "ja" else ", "
        sections = comma.join(f"{first + 1} {title.get(lang)}" for first, title in page.sections)
        self.say(self.t("sandbox.rules_sections", sections=sections))
        more = f"/rules {page.game} <1-{page.count}>"
        self.say(self.t("sandbox.pages", page=page.index + 1, pages=page.count, usage=more))

    async def _play(self, args: list[str]) -> None:
        if not args:
            self.say(self.t("sandbox.usage", usage="/play <game> [@user ...] [key=value ...]"))
            return
        if args[1:] in (["daily"], ["daily=on"]):  # /play yosuko daily: today's deal
            if args[0] != self.service.play.daily_game:
                self.say(
                    self.t("sandbox.usage", usage=f"/play {self.service.play.daily_game} daily")
                )
                return
            self.show(await self.service.play.daily(self.user))
            return
        game_type, invite, options = args[0], [], {}
        kw: dict[str, Any] = {}
        ai: list[int] = []
        for a in args[1:]:
            if match := _AI.fullmatch(a):
                ai.append(int(match[1]) if match[1] else AI_DEFAULT_LEVEL)
            elif a.startswith("@"):
                invite.append(self._user(a))
            elif "=" in a:
                k, _, v = a.partition("=")
                if k in ("open", "host", "players"):
                    if not re.fullmatch(r"[0-9]{1,3}", v):
                        self.say(self.t("sandbox.usage", usage=f"{k}=<number>"))
                        return
                    kw[{"open": "open_seats", "host": "host_seats"}.get(k, k)] = int(v)
                elif k == "clock":
                    kw["clock"] = v
                elif k == "rated":
                    if v.lower() not in ("true", "false", "on", "off", "yes", "no"):
                        self.say(self.t("sandbox.usage", usage="rated=true|false"))
                        return
                    kw["rated"] = v.lower() in ("true", "on", "yes")
                elif k == "seats":
                    if v not in ("random", "listed"):
                        self.say(self.t("sandbox.usage", usage="seats=random|listed"))
                        return
                    kw["seating"] = v
                else:
                    options[k] = v
            else:
                invite.append(self._user(a))
        reply = await self.service.play.create_game(
            self.user, game_type, invite=invite, options=options, ai=ai, **kw
        )
        self.show(reply)
        if reply.game_id is not None:  # each invited player's commands now default to it
            for u in invite:
                self.current[u.id] = reply.game_id

    async def run(
        self, lines: Iterable[str] | AsyncIterable[str], *, echo: bool, strict: bool
    ) -> int:
        """Run every line; returns the exit status (2: unknown command under ``strict``)."""
        await self.catch_up()
        async for line in _each(lines):
            if echo and line.strip():
                self.say(f"{self.user.name}> {line.rstrip()}")
            try:
                await self.handle(line)
            except UnknownCommand as exc:
                self.say("✗ " + self.t("sandbox.unknown", command=str(exc)))
                if strict:
                    return 2
            except EOFError:
                break
            await self.link_pages()
        return 0

    async def link_pages(self) -> None:
        """Print the page of each game that started since (when the site runs)."""
        if self.site is None:
            return
        for game_id in sorted(set(self.current.values()) - self.linked):
            if (await self.service.play.game_info(game_id)).started_ms is not None:
                self.linked.add(game_id)
                url = await self.service.review.page_link(game_id, self.site)
                self.say(self.t("web.link", url=url))


async def daily_command(sb: Sandbox, args: list[str]) -> None:
    """``/daily [play | board [YYYY-MM-DD]]``: today's deal, or a day's results board."""
    what = args[0].lower() if args else "play"
    if what == "board":
        sb.show(await sb.service.play.daily_board(None, args[1] if len(args) > 1 else None))
    elif what == "play":
        sb.show(await sb.service.play.daily(sb.user))
    else:
        sb.say(sb.t("sandbox.usage", usage="/daily [play | board [YYYY-MM-DD]]"))


async def import_command(sb: Sandbox, args: list[str]) -> None:
    """``/import <file> [user ...]``: a game from a record file."""
    if not args:
        sb.say(sb.t("sandbox.usage", usage="/import <file.json|.kifu|.kif> [user ...]"))
        return
    try:
        data = Path(args[0]).read_bytes()
    except (OSError, ValueError) as exc:  # ValueError: a NUL or a lone surrogate
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        sb.say("✗ " + sb.t("sandbox.cannot_read", path=args[0], reason=reason))
        return
    seats = [sb._user(a) for a in args[1:]]
    sb.show(await sb.service.play.import_record(sb.user, data, seats=seats))


async def review_command(sb: Sandbox, args: list[str]) -> None:
    """``/review [id]``: the computer's review, its chart and the mistakes' pictures;
    ``/review [id] retry``: its Retry button (the user's mistakes, one by one)."""
    gid, rest = await sb._game_and_rest(args)
    if rest == ["retry"]:
        sb.show_all(await sb.service.act(Action.REVIEW_RETRY, Press(GameTarget(gid), sb.user)))
        return
    review = await sb.service.review.game(gid, sb.user)
    sb.show(review)
    for b in review.actions:
        if b.action is Action.BETTER and b.arg is not None:
            sb.show(await sb.service.review.better(gid, sb.user, int(b.arg)))


async def explore_command(sb: Sandbox, args: list[str]) -> None:
    """``/explore <game> [moves ...] [rated|computer]``: the opening explorer (every server's
    games, or the computer's self-play)."""
    if not args:
        sb.say(sb.t("sandbox.usage", usage="/explore <game> [moves ...] [rated|computer]"))
        return
    pool = args[-1].lower() if args[-1].lower() in ("rated", "computer") else ""
    moves = " ".join(args[1 : len(args) - int(bool(pool))])
    explored = sb.service.review.explore(
        args[0], moves, None, rated=pool == "rated", computer=pool == "computer"
    )
    sb.show(await explored)


async def learn_command(sb: Sandbox, args: list[str]) -> None:
    """``/learn``: the menu; ``/learn <game|lesson>``: a game's next lesson or that lesson;
    ``/learn restart|next|stop``: the open lesson again, the one after it, or close it."""
    word = args[0] if args else None
    if len(args) > 1:
        sb.say(sb.t("sandbox.usage", usage="/learn [game | lesson | restart | next | stop]"))
    elif word in LEARN_BUTTONS:  # the lesson's own buttons, through the same table
        sb.show_all(await sb.service.act(LEARN_BUTTONS[word], Press(Practice(), sb.user)))
    else:
        sb.show(await sb.service.learn.lesson(sb.user, word))


async def puzzle_command(sb: Sandbox, args: list[str]) -> None:
    """``/puzzle [game | id]``, ``/puzzle daily [YYYY-MM-DD]``, ``/puzzle solution``,
    ``/puzzle quit``."""
    learn, me = sb.service.learn, sb.user
    what = args[0].lower() if args else None
    if what == "daily":  # a daily post's Solve button (the day: its argument)
        press = Press(Practice(), me, args[1] if len(args) > 1 else None)
        sb.show_all(await sb.service.act(Action.PUZZLE_SOLVE, press))
    elif what == "solution":
        sb.show_all(await sb.service.act(Action.PUZZLE_SOLUTION, Press(Practice(), me)))
    elif what == "quit":
        sb.show(await learn.give_up_puzzle(me))
    elif args and args[0].rsplit("-", 1)[-1].isdigit():  # a puzzle's id: rokumentai-004
        sb.show(await learn.open_puzzle(me, args[0]))
    else:
        sb.show(await learn.puzzle(me, args[0] if args else None))


# --- the practice board (a lesson or a puzzle takes /move, /legal and /hint that name no game) --


async def practising(sb: Sandbox, args: list[str]) -> str | None:
    """Where a ``/move``, ``/legal`` or ``/hint`` goes when it names no game (``game=3``,
    ``#3``, ``3 <move>``): the kind of practice board the user has open (the service's one
    routing rule), else None (a game)."""
    named = any(_GAME_OPTION.fullmatch(a) or a.startswith("#") for a in args)
    numbered = bool(args) and args[0].isdigit() and len(args) > 1
    if named or numbered:
        return None
    return await sb.service.practice_of(sb.user.id)


async def practice_command(sb: Sandbox, kind: str, command: str, args: list[str]) -> None:
    board, me = sb.service.practice_board(kind), sb.user
    if command == "/hint":
        sb.show(await board.hint(me))
    elif command == "/legal":
        found = await board.legal(me, " ".join(args), LEGAL_SHOWN, sb.lang)
        sb.say(", ".join(found.moves) or "-")
    elif not args:
        sb.say(sb.t("sandbox.usage", usage="/move <move>"))
    else:
        sb.show(await board.move(me, " ".join(args)))


async def correspondence(sandbox: Sandbox, command: str, args: list[str]) -> None:
    """Correspondence life (issue 33): ``/vacation on [until] | off | status``,
    ``/premove [id] add <their move> <your reply> … | list | clear`` and ``/notify
    [ping=on|off] [digest=on|off] [hour=H] [timezone=Zone] [quiet=22-7|off]``."""
    s, me = sandbox.service, sandbox.user
    if command == "/vacation":
        what = args[0].lower() if args else "status"
        if what == "on":
            sandbox.show_all(await s.correspond.start_vacation(me, " ".join(args[1:]) or None))
        elif what == "off":
            sandbox.show_all(await s.correspond.end_vacation(me))
        else:
            sandbox.show(await s.correspond.vacation_status(me))
    elif command == "/premove":
        gid, rest = await sandbox._game_and_rest(args, 1)
        what = rest[0].lower() if rest else "list"
        if what == "add":
            sandbox.show(await s.correspond.add_premove(gid, me, " ".join(rest[1:])))
        elif what == "clear":
            sandbox.show(await s.correspond.clear_premoves(gid, me))
        else:
            sandbox.show(await s.correspond.premove_lines(gid, me))
    else:
        given = dict(a.split("=", 1) for a in args if "=" in a)
        on = {"on": True, "off": False}
        hour = given.get("hour")
        sandbox.show(
            await s.correspond.configure_notices(
                me,
                ping=on.get(given.get("ping", "").lower()),
                digest=on.get(given.get("digest", "").lower()),
                hour=int(hour) if hour is not None and hour.isdigit() else None,
                timezone=given.get("timezone"),
                quiet=given.get("quiet"),
            )
        )


async def tournament_command(sandbox: Sandbox, args: list[str]) -> None:
    """``/tournament create <game> <format> [rounds=N] [players=N] [clock=...]
    [name=...] [rated=false]``, ``join <id> [@ai:N ...]`` (you, or computer players),
    ``leave|start|standings|cancel <id>``. The sandbox's user manages every tournament."""
    s, me = sandbox.service, sandbox.user
    what = args[0].lower() if args else ""
    if what == "create" and len(args) >= 3:
        named = dict(a.split("=", 1) for a in args[3:] if "=" in a)
        number = {k: int(v) for k, v in named.items() if k in ("rounds", "players") and v.isdigit()}
        how = TournamentOptions(
            args[1],
            args[2],
            name=named.get("name"),
            clock=named.get("clock"),
            rated=named.get("rated", "true").lower() != "false",
            rounds=number.get("rounds"),
            max_players=number.get("players"),
            join=named.get("play", "true").lower() != "false",
        )
        sandbox.show(await s.compete.create_tournament(me, how, manager=True))
        return
    if what not in ("join", "leave", "start", "standings", "cancel") or len(args) < 2:
        sandbox.say(sandbox.t("sandbox.usage", usage=sandbox.t("sandbox.help_tournament")))
        return
    tid = _game_id(args[1])
    if what == "join":
        ai = [User(a.lower(), a) for a in args[2:] if a.lower().startswith("@ai:")]
        for user in ai or [me]:
            sandbox.show(await s.compete.join_tournament(tid, user))
    elif what == "leave":
        sandbox.show_all(await s.compete.leave_tournament(tid, me))
    elif what == "start":
        sandbox.show_all(await s.compete.start_tournament(tid, me, manager=True))
    elif what == "cancel":
        sandbox.show(await s.compete.cancel_tournament(tid, me, manager=True))
    else:
        sandbox.show(await s.compete.tournament_standings(tid))


async def board_command(sb: Sandbox, args: list[str]) -> None:
    """``/board [id]``: the picture (the Board button's use case);
    ``/board [id] text [all | kind <kind> | row <row> | last | moves <square> | clocks]``: the
    board in words (the same use case as Discord's ``/board text:``)."""
    if "text" not in args:
        await sb._button(Action.BOARD, args)
        return
    at = args.index("text")
    gid, _ = await sb._game_and_rest(args[:at])
    what, *rest = args[at + 1 :] or ["all"]
    sb.show(await sb.service.play.board_text(gid, sb.user, what, " ".join(rest) or None))


async def analyse_command(sb: Sandbox, args: list[str]) -> None:
    """``/analyse [id] [move]``: the analysis board of a finished game at that move (none: its
    end); ``/analyse back | best | stop``: the board's buttons."""
    buttons = {
        "back": Action.ANALYSIS_BACK,
        "best": Action.ANALYSIS_BEST,
        "stop": Action.LEARN_STOP,
    }
    if len(args) == 1 and args[0] in buttons:
        sb.show_all(await sb.service.act(buttons[args[0]], Press(Practice(), sb.user)))
        return
    gid, rest = await sb._game_and_rest(args)
    if len(rest) > 1 or (rest and not rest[0].isdigit()):
        sb.say(sb.t("sandbox.usage", usage="/analyse [id] [move] | back | best | stop"))
        return
    sb.show(await sb.service.review.analyse(sb.user, gid, int(rest[0]) if rest else None))


async def retry_command(sb: Sandbox, args: list[str]) -> None:
    """``/retry solution | stop``: the open retry's buttons (Show the move, Close)."""
    buttons = {"solution": Action.RETRY_SOLUTION, "stop": Action.LEARN_STOP}
    if len(args) != 1 or args[0] not in buttons:
        sb.say(sb.t("sandbox.usage", usage="/retry solution | stop"))
        return
    sb.show_all(await sb.service.act(buttons[args[0]], Press(Practice(), sb.user)))


COMMANDS: dict[str, Callable[[Sandbox, list[str]], Awaitable[None]]] = {
    "/learn": learn_command,
    "/puzzle": puzzle_command,
    "/daily": daily_command,
    "/review": review_command,
    "/board": board_command,
    "/retry": retry_command,
    "/analyse": analyse_command,
    "/explore": explore_command,
    "/tournament": tournament_command,
    "/import": import_command,
}
"""Commands run by a function of their own beside :class:`Sandbox` (the class stays small)."""


async def _each(lines: Iterable[str] | AsyncIterable[str]) -> AsyncIterator[str]:
    if isinstance(lines, AsyncIterable):
        async for line in lines:
            yield line
    else:
        for line in lines:
            yield line


async def _interactive_lines(sandbox: Sandbox) -> AsyncIterator[str]:
    """The keyboard's lines, read in a thread (the site keeps serving while one is typed)."""
    while True:
        try:
            yield await asyncio.to_thread(input, f"{sandbox.user.name}> ")
        except EOFError:
            return


async def run_sandbox(
    settings: Settings,
    *,
    script: str | None = None,
    out_dir: str = "out",
    lang: str = "en",
    user: str = "you",
    strict: bool = False,
    stdin: IO[str] | None = None,
    out: IO[str] | None = None,
    clock: Clock | None = None,
) -> int:
    """Open the store, run the commands (script file, pipe or keyboard) and close."""
    offset = OffsetClock(clock)
    service = await GameService.open(settings.db_path, clock=offset, settings=settings)
    sandbox = Sandbox(
        service,
        Path(out_dir),
        Lang.of(lang),
        User(user, user),
        out or sys.stdout,
        offset,
    )
    try:
        if script is not None:
            text = Path(script).read_text(encoding="utf-8", errors="replace")
            lines: Iterable[str] = text.splitlines()
            return await sandbox.run(lines, echo=True, strict=strict)
        source = stdin or sys.stdin
        if source.isatty():
            sandbox.say(sandbox.t("sandbox.welcome", name=sandbox.user.name))
            site = await web.serve(service)
            sandbox.site = site.url if site else None
            try:
                return await sandbox.run(_interactive_lines(sandbox), echo=False, strict=False)
            finally:
                if site is not None:
                    await site.stop()
        return await sandbox.run(source, echo=True, strict=strict)
    finally:
        await service.close()
