"""Looking at a game: the board, the move list, the record files; importing a record.

What a viewer gets is computed from their seats: secret moves of others stay hidden.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from bot import i18n
from bot.clock import from_ms, to_ms
from bot.i18n import clean_text
from bot.kifu import (
    MAX_RECORD_BYTES,
    ReadRecord,
    RecordError,
    RecordMeta,
    decode_record,
    export_json,
    kif_files,
    kif_text,
    read_record,
    too_large,
)
from bot.model import (
    GameRow,
    GameStatus,
    MoveRow,
    NewGame,
    SeatKind,
    SeatRow,
    StoredOutcome,
    new_seed,
)
from bot.service import present
from bot.service.actions import Action, Button
from bot.service.cache import Loaded
from bot.service.context import Context
from bot.service.play.timers import Timers
from bot.service.values import Event, File, Line, Refusal, Reply, User
from engines.core import CHANCE, Termination, Text
from engines.record import Entry, Record


def record_of(loaded: Loaded, hidden: set[int], *, seed_shown: bool) -> Record:
    """The game's record with the log entries in ``hidden`` masked, and its seed only when
    ``seed_shown`` (see :func:`seed_released`)."""
    entries = tuple(Entry(e.actor, "?" if e.ply in hidden else e.move) for e in loaded.entries)
    row = loaded.row
    return Record(row.game_type, row.players, row.options, row.seed if seed_shown else "", entries)


def daily_reveal_ms(day: str, hours: int) -> int:
    """When the seed of ``day``'s daily deal may be shown: ``hours`` after that UTC day ends."""
    start = datetime.fromisoformat(day).replace(tzinfo=UTC)
    return to_ms(start + timedelta(days=1, hours=hours))


def seed_released(row: GameRow, now_ms: int, reveal_hours: int) -> bool:
    """May the game's seed (which decides every chance outcome still to come) be shown, as far
    as the game itself tells? Only once the game is over; and a daily game's only once its day
    is over for everyone (every player of that day shares the seed: a finished daily would tell
    the others their deal). :meth:`Records.seed_shown` also waits for that day's last game."""
    if row.status.is_live:
        return False
    return row.daily_day is None or now_ms >= daily_reveal_ms(row.daily_day, reveal_hours)


async def day_over(ctx: Context, row: GameRow) -> bool:
    """Is the day of the daily deal ``row`` over for everyone: its UTC day and the reveal delay
    past, and no game of that day still open or running anywhere?"""
    assert row.daily_day is not None
    if ctx.now_ms() < daily_reveal_ms(row.daily_day, ctx.settings.daily_reveal_hours):
        return False
    return not await ctx.store.daily_in_play(row.game_type, row.daily_day)


async def check_daily_view(ctx: Context, loaded: Loaded, viewer: User | None) -> None:
    """Refuse anyone but its player a daily deal while its day is not over: every player of a
    day gets the same deal, so one game's draws would tell the others theirs still to come."""
    row = loaded.row
    if row.daily_day is None or (viewer is not None and loaded.seats_of(viewer.id)):
        return
    if not await day_over(ctx, row):
        raise Refusal("refuse.daily_private", id=row.id, day=row.daily_day)


def to_act(loaded: Loaded, viewer: User | None) -> bool:
    """True when ``viewer`` is due to act in the game now (their turn, their setup)."""
    return viewer is not None and loaded.is_turn_of(viewer.id)


def answered_publicly(loaded: Loaded, viewer: User | None, hidden: set[int]) -> bool:
    """Whether a look at the game (the board, the moves) goes to the thread: only for the host
    itself (no viewer), or for the player whose turn it is when they see no more than a
    spectator. A spectator's or a waiting player's look is theirs alone, so the thread stays
    the game's own story."""
    if viewer is None:
        return True
    return to_act(loaded, viewer) and shown_to_everyone(loaded, hidden)


def shown_to_everyone(loaded: Loaded, hidden: set[int]) -> bool:
    """True when a viewer who may not see ``hidden`` sees no more than a spectator: only then may
    what they asked for be posted publicly (else it goes to them alone)."""
    return hidden == loaded.hidden_from(())


def meta_of(loaded: Loaded, *, seed_shown: bool = False) -> RecordMeta:
    row = loaded.row
    game = loaded.game
    return RecordMeta(
        game_id=row.id,
        title_en=game.title_en,
        title_ja=game.title_ja,
        players=tuple(
            loaded.name(s.seat) if s.kind is not SeatKind.OPEN else "" for s in row.seats
        ),
        seat_names=tuple(
            (game.seat_name(s.seat, "en", row.players), game.seat_name(s.seat, "ja", row.players))
            for s in row.seats
        ),
        created=from_ms(row.created_ms),
        started=from_ms(row.started_ms) if row.started_ms else None,
        finished=from_ms(row.finished_ms) if row.finished_ms else None,
        status=row.status.value,
        result=row.result,
        clock=row.clock,
        reseed=(row.reseed_from, row.reseed) if seed_shown and row.reseed is not None else None,
    )


class Records:
    def __init__(self, ctx: Context, timers: Timers) -> None:
        self.ctx = ctx
        self.timers = timers

    async def board(self, game_id: int, viewer: User | None = None) -> Reply:
        """The current picture for ``viewer`` (their seat's view; spectators see the public one)."""
        async with self.ctx.games.lock(game_id):
            loaded = await self.timers.check(await self.ctx.games.load(game_id))
        await check_daily_view(self.ctx, loaded, viewer)
        seat = loaded.viewer_seat(viewer.id if viewer else None)
        image = await self.ctx.pictures.of(loaded, seat)
        lines: tuple[Line, ...] = ()
        if image is None:
            lines = (Line("board.text", {"position": loaded.state.observe(seat).position()}),)
        own_view = seat is not None and loaded.state.hides_moves()
        private = viewer is not None and (own_view or not to_act(loaded, viewer))
        return present.reply(
            loaded,
            Event.BOARD,
            f"board.{loaded.status}",
            params={"players": present.seat_list(loaded), "ply": loaded.move_number()},
            image=image,
            image_alt=self.ctx.pictures.alt_of(loaded, seat) if image is not None else None,
            image_viewer=seat,
            public=not private,
            audience=viewer.id if private and viewer else None,
            notify=(),
            lines=lines + present.end_lines(loaded),
        )

    async def moves(self, game_id: int, viewer: User | None = None) -> Reply:
        """The numbered move list (secret moves of others shown as hidden)."""
        loaded = await self.ctx.games.read(game_id)
        await check_daily_view(self.ctx, loaded, viewer)
        seats = loaded.seats_of(viewer.id) if viewer else []
        hidden = loaded.hidden_from(seats)
        rec = record_of(loaded, hidden, seed_shown=False)  # the list shows no seed
        meta = meta_of(loaded)
        text = Text(
            kif_text(meta, rec, "en", header=False), kif_text(meta, rec, "ja", header=False)
        )
        public = answered_publicly(loaded, viewer, hidden)
        return present.reply(
            loaded,
            Event.MOVES,
            "moves.list" if loaded.entries else "moves.none",
            params={"moves": text, "count": loaded.move_number()},
            notify=(),
            public=public,
            audience=None if public or viewer is None else viewer.id,
        )

    async def record(self, game_id: int, viewer: User | None = None) -> Reply:
        """The game record as KIF-like text (``.kifu`` in UTF-8 and, when every character fits,
        ``.kif`` in Shift-JIS) and as JSON (secret moves masked; no JSON when any is)."""
        loaded = await self.ctx.games.read(game_id)
        await check_daily_view(self.ctx, loaded, viewer)
        seats = loaded.seats_of(viewer.id) if viewer else []
        hidden = loaded.hidden_from(seats)
        shown = await self.seed_shown(loaded.row)
        meta, rec = meta_of(loaded, seed_shown=shown), record_of(loaded, hidden, seed_shown=shown)
        files = [File(name, data) for name, data in kif_files(meta, rec, f"banmen-{game_id}")]
        lines: tuple[Line, ...] = ()
        if not any(f.name.endswith(".kif") for f in files):
            lines = (Line("record.no_sjis", {}),)
        if not hidden:
            files.append(File(f"banmen-{game_id}.json", export_json(meta, rec).encode("utf-8")))
        public = shown_to_everyone(loaded, hidden)
        over = loaded.status in (GameStatus.FINISHED, GameStatus.ABORTED)
        return present.reply(
            loaded,
            Event.RECORD,
            "record.ready",
            notify=(),
            files=tuple(files),
            actions=(
                (*(Button(a) for a in present.actions(loaded)), Button(Action.ANALYSE))
                if over and loaded.row.players > 1
                else None
            ),
            lines=lines,
            public=public,
            audience=None if public or viewer is None else viewer.id,
        )

    async def seed_shown(self, row: GameRow) -> bool:
        """The seed is shown once :func:`seed_released` allows it and, for a daily, once no game
        of its day is still open or running anywhere (one begun at 23:59 UTC may go on for days:
        the shared seed would tell its player every draw still to come)."""
        if not seed_released(row, self.ctx.now_ms(), self.ctx.settings.daily_reveal_hours):
            return False
        return row.daily_day is None or await day_over(self.ctx, row)

    async def export(self, game_id: int) -> Record:
        """The full record (no masking: for the host's own use and tests)."""
        return record_of(await self.ctx.games.read(game_id), set(), seed_shown=True)

    async def import_record(
        self,
        user: User,
        data: str | bytes,
        *,
        guild_id: str | None = None,
        seats: Sequence[User] = (),
    ) -> Reply:
        """Re-create a game from a record file: the JSON this host exports, or its KIF-like
        text (UTF-8 or Shift-JIS). A finished record stays finished; an unfinished one goes on
        with a fresh secret seed for the chance still to come (the file's seed, which whoever
        edits the file knows, stays with the part already played). Either way the game is
        marked imported: unrated, in no statistics. A file that does not replay is refused with
        the line that is wrong; nothing is written until everything has been checked."""
        try:
            text = data if isinstance(data, str) else decode_record(data)
            read = read_record(text)
        except RecordError as exc:
            raise Refusal("refuse.bad_record", reason=exc.text) from exc
        rec = read.record
        users = list(seats) or [user] * rec.players
        if len(users) != rec.players:
            raise Refusal(
                "refuse.bad_record",
                reason=i18n.text("record.wrong_players", players=rec.players, given=len(users)),
            )
        result = imported_result(read)
        status = GameStatus.FINISHED if result else GameStatus.ACTIVE
        if result and result.termination == Termination.ABORTED.value:
            status = GameStatus.ABORTED
        for u in {u.id: u for u in [user, *users]}.values():
            await self.ctx.remember_user(u)
        now = self.ctx.now_ms()
        rows = tuple(
            MoveRow(
                i,
                e.actor,
                e.move,
                None if e.actor == CHANCE else users[e.actor].id,
                secret,
                now,
            )
            for i, (e, secret) in enumerate(zip(rec.entries, read.secret, strict=True))
        )
        new = NewGame(
            game_type=rec.game,
            players=rec.players,
            options=dict(rec.options),
            # a NUL (PostgreSQL cannot store it) is cleaned; a record may show no seed at all
            seed=clean_text(rec.seed),
            status=status,
            guild_id=guild_id,
            creator_id=user.id,
            created_ms=now,
            seats=tuple(SeatRow(i, SeatKind.HUMAN, u.id, u.name) for i, u in enumerate(users)),
            started_ms=now,
            finished_ms=now if result else None,
            result=result,
            turn_started_ms=None if result else now,
            entries=rows,
            imported_ms=now,
            reseed=None if result else new_seed(),
            reseed_from=read.state.ply,
        )
        loaded, _ = await self.ctx.games.create(new)
        reply = present.reply(
            loaded,
            Event.IMPORTED,
            "record.imported",
            params={"count": loaded.move_number()},
            lines=present.end_lines(loaded),
        )
        return await self.ctx.pictures.on(reply, loaded, None)


def check_record_size(size: int) -> None:
    """Refuse a record file of ``size`` bytes that is too large to import."""
    if size > MAX_RECORD_BYTES:
        raise Refusal("refuse.bad_record", reason=too_large(size).text)


def imported_result(read: ReadRecord) -> StoredOutcome | None:
    """The result an imported game is stored with: its rules' own end when the moves reach one,
    else the end the file states (one the host decides: resignation, timeout, agreed draw,
    abort), else none (the game goes on). A stated end that does not fit is refused."""
    outcome = read.state.outcome()
    if outcome is not None:
        return present.stored_outcome(outcome)
    if not read.result:
        return None
    try:
        stated = StoredOutcome.from_json(read.result)
    except ValueError as exc:
        error = RecordError(read.result_line, "kif.unreadable_result", reason=str(exc))
        raise Refusal("refuse.bad_record", reason=error.text) from exc
    if present.host_end(stated, read.record.players) is None:
        error = RecordError(read.result_line, "kif.unfit_result", end=stated.termination)
        raise Refusal("refuse.bad_record", reason=error.text)
    return stated
