"""Vacations (休暇): ``/vacation on [until]`` stops a player's correspondence and time-bank
clocks while it is their turn; ``/vacation off``, the return date or a spent allowance runs them
again, each deadline moved on by exactly the time its clock stood still.

The rules (allowance, pausing, resuming) are :mod:`bot.service.correspond.vacation_rules`; this
module reads and writes. Every commit of every game asks :meth:`Vacations.amend` (the game cache's
hook) whether the turn it starts belongs to an absent player, so a turn that passes to one (in a
three-player game, after the others played on) stops in the same transaction that starts it.
The vacations that run are kept in memory (restored at start-up) with the games whose clocks
each holds; their ends are due points of the timers' loop (:meth:`next_at_ms`,
:meth:`process_due`), so an end that fell while the process was down is applied at the next
start, at the moment it fell.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from datetime import datetime
from typing import Any

from bot.clock import from_ms, parse_clock, to_ms
from bot.model import Change, GameRow, GameStatus, Update, VacationRow
from bot.service import pausing, present
from bot.service.cache import Loaded
from bot.service.context import Context
from bot.service.correspond import vacation_rules as rules
from bot.service.guard import entry
from bot.service.values import Event, Line, Refusal, Reply, User
from engines.core import State

log = logging.getLogger("banmen.vacation")


def acting_users(row: GameRow, state: State[Any]) -> tuple[str, ...]:
    """The users to move in ``row`` at ``state`` (nobody once it is over)."""
    if row.status is not GameStatus.ACTIVE or state.is_over():
        return ()
    seats = row.seats
    return tuple(
        uid
        for seat in state.acting_players()
        if 0 <= seat < len(seats) and (uid := seats[seat].user_id) is not None
    )


class Vacations:
    """The running vacations, the clocks they hold, and the use cases that start and end them."""

    def __init__(self, ctx: Context, changed: asyncio.Event) -> None:
        self.ctx = ctx
        self.changed = changed
        """The timers' event: set whenever :meth:`next_at_ms` may have moved."""
        self._away: dict[str, VacationRow] = {}
        self._held: dict[str, set[int]] = {}
        """Per absent user, the games whose clocks their vacation holds now."""
        self._unsaved: set[str] = set()
        """Users whose holding changed through another use case's commit (saved when due)."""
        ctx.games.amend_with(self.amend)
        ctx.games.listen(self.track)

    @property
    def days_per_year(self) -> float:
        return self.ctx.settings.vacation_days

    # -- the game cache's hooks -----------------------------------------------------------
    def _allowed(self, row: GameRow) -> bool:
        return self.ctx.guild_cached(row.guild_id).vacation

    def amend(self, row: GameRow, state: State[Any], change: Change) -> Update:
        if not self._away and row.paused_ms is None:
            return Update()
        update = change.update
        return pausing.amended(row, update, acting_users(row, state), self._away, self._allowed)

    def track(self, row: GameRow) -> None:
        """Keep who holds which clock in step with a committed row."""
        holder = None
        if row.paused_ms is not None and (loaded := self.ctx.games.cached(row.id)) is not None:
            holder = next((u for u in acting_users(row, loaded.state) if u in self._away), None)
        now = self.ctx.now_ms()
        for user, games in self._held.items():
            if user != holder and row.id in games:
                games.discard(row.id)
                if not games:
                    self._away[user] = rules.release(self._away[user], now)
                    self._unsaved.add(user)
        if holder is not None and row.paused_ms is not None:
            self._note_held(holder, row.id, row.paused_ms)
        if self._unsaved:
            self.changed.set()

    def _note_held(self, user_id: str, game_id: int, since_ms: int) -> None:
        """``user_id``'s vacation holds the clock of ``game_id`` (stopped at ``since_ms``)."""
        games = self._held.setdefault(user_id, set())
        if not games and self._away[user_id].holding_ms is None:
            self._away[user_id] = rules.hold(self._away[user_id], since_ms)
            self._unsaved.add(user_id)
        games.add(game_id)

    # -- start-up ---------------------------------------------------------------------------
    async def restore(self) -> None:
        """Read the running vacations and find the clocks each holds (after the game cache's
        live index is restored; before the timers look at any deadline)."""
        self._away = {v.user_id: v for v in await self.ctx.store.vacations()}
        self._held = {}
        made = await self._run_orphans()
        for user in list(self._away):
            made += await self._stop_clocks(user)
        for reply in made:  # nobody here posts them: the outbox's loop does, at once
            if reply.outbox is not None:
                self.ctx.games.claims.release(reply.outbox)
        self.changed.set()

    # -- the timers' loop -------------------------------------------------------------------
    def next_at(self, timers: datetime | None) -> datetime | None:
        """When :meth:`process_due` or the timers (due at ``timers``) next have something to
        do (None: nothing)."""
        ours = self.next_at_ms()
        if ours is None:
            return timers
        return from_ms(ours) if timers is None else min(timers, from_ms(ours))

    def next_at_ms(self) -> int | None:
        """When :meth:`process_due` next has something to do (None: nothing)."""
        if self._unsaved:
            return self.ctx.now_ms()
        points = []
        for row in self._away.values():
            if row.until_ms is not None:
                points.append(row.until_ms)
            out = rules.runs_out_at(row, self.days_per_year)
            if out is not None:
                points.append(out)
        return min(points, default=None)

    async def process_due(self, now: datetime | None = None) -> list[Reply]:
        """End the vacations whose return date came or whose allowance ran out (at that very
        moment), and save what other commits changed."""
        now_ms = to_ms(now) if now is not None else self.ctx.now_ms()
        out: list[Reply] = []
        for user, row in sorted(self._away.items()):
            out_at = rules.runs_out_at(row, self.days_per_year)
            ends = [(t, key) for t, key in ((row.until_ms, "over"), (out_at, "spent")) if t]
            due = sorted((t, key) for t, key in ends if t <= now_ms)
            if due:
                at, key = due[0]
                out += await self._end(user, at, f"vacation.ended_{key}")
        for user in sorted(self._unsaved):
            await self._save(user)
        return out

    async def _save(self, user_id: str) -> None:
        self._unsaved.discard(user_id)
        if user_id in self._away:
            await self.ctx.store.save_vacation(self._away[user_id])

    # -- the use cases ------------------------------------------------------------------------
    @entry
    async def start(self, user: User, until: str | None = None) -> list[Reply]:
        """Go on vacation now, until ``until`` (a date, a date and UTC time, or a duration) or
        until :meth:`stop`. Refuses a return in the past or past the allowance left."""
        if user.id in self._away:
            raise Refusal("refuse.vacation_already_on")
        now = self.ctx.now_ms()
        stored = await self.ctx.store.vacation(user.id)
        row = rules.in_year(stored or VacationRow(user.id, None, None, rules.year_of(now)), now)
        left = rules.left_ms(row, self.days_per_year, now)
        until_ms = None
        if until is not None and until.strip():
            try:
                until_ms = rules.parse_until(until, now)
            except ValueError as exc:
                raise Refusal("refuse.vacation_until", value=until.strip()[:40]) from exc
            if until_ms <= now:
                raise Refusal("refuse.vacation_past", until=from_ms(until_ms))
            if until_ms - now > left:
                raise Refusal(
                    "refuse.vacation_allowance", days=rules.days(left), until=from_ms(until_ms)
                )
        if left < rules.HOUR_MS:
            raise Refusal("refuse.vacation_none_left", days=rules.days(left))
        await self.ctx.remember_user(user)
        row = replace(row, since_ms=now, until_ms=until_ms, holding_ms=None)
        self._away[user.id] = row
        await self.ctx.store.save_vacation(row)
        out = await self._stop_clocks(user.id)
        await self._save(user.id)  # with the clocks it holds now
        live, forbidden = await self._not_stopped(user.id)
        lines = [Line("vacation.live_runs", {"count": live})] if live else []
        if forbidden:
            lines.append(Line("vacation.forbidden_runs", {"count": forbidden}))
        reply = Reply(
            "vacation.on" if until_ms is not None else "vacation.on_open",
            {
                "until": from_ms(until_ms) if until_ms is not None else "",
                "days": rules.days(left),
                "count": len(self._held.get(user.id, ())),
            },
            event=Event.VACATION,
            public=False,
            audience=user.id,
            lines=tuple(lines),
        )
        self.changed.set()
        return [reply, *out]

    @entry
    async def stop(self, user: User) -> list[Reply]:
        """Back from vacation: every clock it held runs again from now."""
        if user.id not in self._away:
            raise Refusal("refuse.vacation_not_on")
        now = self.ctx.now_ms()
        out = await self._end(user.id, now, "vacation.ended_back")
        row = self._away.get(user.id) or await self.ctx.store.vacation(user.id)
        left = rules.left_ms(row, self.days_per_year, now) if row else 0
        reply = Reply(
            "vacation.off",
            {"days": rules.days(left)},
            event=Event.VACATION,
            public=False,
            audience=user.id,
        )
        return [reply, *out]

    @entry
    async def status(self, user: User) -> Reply:
        """Whether the user is away, and the allowance left this year."""
        now = self.ctx.now_ms()
        row = self._away.get(user.id) or await self.ctx.store.vacation(user.id)
        left = rules.left_ms(row, self.days_per_year, now) if row else 0
        if row is None:
            left = rules.accrued_ms(self.days_per_year, now)
        held = len(self._held.get(user.id, ()))
        if row is not None and row.holding_ms is not None:
            left = rules.held_left_ms(row, self.days_per_year, now)
        away = row is not None and row.since_ms is not None
        return Reply(
            "vacation.status_on" if away else "vacation.status_off",
            {
                "days": rules.days(left),
                "count": held,
                "until": from_ms(row.until_ms) if away and row and row.until_ms else "—",
            },
            event=Event.VACATION,
            public=False,
            audience=user.id,
        )

    def away_until(self, user_id: str) -> int | None:
        """When an absent user said they would be back (None: not away, or no date)."""
        row = self._away.get(user_id)
        return None if row is None else row.until_ms

    def is_away(self, user_id: str) -> bool:
        return user_id in self._away

    # -- stopping and running clocks ------------------------------------------------------
    async def _games_of(self, user_id: str) -> list[int]:
        return sorted(gid for gid, _ in self.ctx.games.live_games(user_id))

    async def _not_stopped(self, user_id: str) -> tuple[int, int]:
        """The user's running games a vacation does not stop: with a live clock, and in a
        server that forbids vacations."""
        live = forbidden = 0
        for game_id in await self._games_of(user_id):
            row = (await self.ctx.games.read(game_id)).row
            if row.status is not GameStatus.ACTIVE:
                continue
            kind = parse_clock(row.clock).kind
            if kind == "live":
                live += 1
            elif kind in pausing.PAUSED_KINDS and not self._allowed(row):
                forbidden += 1
        return live, forbidden

    async def _stop_clocks(self, user_id: str) -> list[Reply]:
        """Stop every clock of ``user_id``'s games where they are to move (those a vacation may
        stop): each game says so in its thread."""
        row = self._away[user_id]
        assert row.since_ms is not None
        out: list[Reply] = []
        for game_id in await self._games_of(user_id):
            async with self.ctx.games.lock(game_id):
                loaded = await self.ctx.games.load(game_id)
                await self.ctx.guild(loaded.row.guild_id)  # warm: commits read it synchronously
                game = loaded.row
                if not pausing.pausable(game) or not self._allowed(game):
                    continue
                if user_id not in acting_users(game, loaded.state):
                    continue
                if game.paused_ms is not None:
                    self._note_held(user_id, game_id, game.paused_ms)
                    continue
                at = max(row.since_ms, game.turn_started_ms or row.since_ms)
                if game.deadline_ms is not None and at > game.deadline_ms:
                    continue  # its time ran out before the vacation began: the timers end it
                update = pausing.pause(game, at, row.until_ms)
                out.append(await self._commit(loaded, update, "vacation.stopped"))
        return out

    async def _end(self, user_id: str, at_ms: int, key: str) -> list[Reply]:
        """End ``user_id``'s vacation at ``at_ms``: every clock it held runs again from then.
        The end is stored first: a process killed while the clocks run again leaves clocks
        stopped by a vacation that is over, which the next start runs again from ``at_ms``
        (:meth:`_run_orphans`), never a vacation that stops them again."""
        row = rules.ended(self._away.pop(user_id), at_ms)
        held = sorted(self._held.pop(user_id, set()))
        self._unsaved.discard(user_id)
        await self.ctx.store.save_vacation(row)
        out = [r for game_id in held if (r := await self._run_again(game_id, at_ms, key))]
        self.changed.set()
        return out

    async def _run_again(self, game_id: int, at_ms: int, key: str) -> Reply | None:
        """Run ``game_id``'s stopped clock again from ``at_ms`` (None: it runs already)."""
        async with self.ctx.games.lock(game_id):
            loaded = await self.ctx.games.load(game_id)
            if loaded.row.paused_ms is None:
                return None
            update = pausing.resume(loaded.row, max(at_ms, loaded.row.paused_ms))
            return await self._commit(loaded, update, key)

    async def _run_orphans(self) -> list[Reply]:
        """At start-up: the clocks still stopped for a player who is not away (the process
        died while their vacation ended) run again from when it ended."""
        out: list[Reply] = []
        for game in await self.ctx.store.paused_games():
            loaded = await self.ctx.games.read(game.id)
            acting = acting_users(loaded.row, loaded.state)
            if any(u in self._away for u in acting):
                continue
            ends = [
                v.until_ms
                for u in acting
                if (v := await self.ctx.store.vacation(u)) is not None and v.since_ms is None
            ]
            at = max([t for t in ends if t is not None], default=self.ctx.now_ms())
            if (reply := await self._run_again(game.id, at, "vacation.ended_back")) is not None:
                out.append(reply)
        return out

    async def _commit(self, loaded: Loaded, update: Update, key: str) -> Reply:
        """One game's clock stopped or run again, and its thread told (in the outbox)."""
        change = Change(loaded.id, loaded.row.version, update=update)
        names = loaded.acting_names()
        return await self.ctx.announce(
            loaded,
            change,
            lambda new: [
                present.reply(
                    new,
                    Event.VACATION,
                    key,
                    params={"name": names},
                    # nobody is pinged to a clock that stopped, nor the player who just said
                    # they are back; a vacation that ended by itself pings its player
                    notify=()
                    if new.row.paused_ms is not None or key == "vacation.ended_back"
                    else new.user_ids(new.acting_seats()),
                )
            ],
        )
