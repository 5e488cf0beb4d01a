"""``/board text`` (issue 46, 3): the board in words, privately, whole or in part, with
lichess-style filters: the pieces of one kind, one rank or hex row, the last move, the legal
moves of one piece, the clocks. Each from what the asker may see (a player's own view, or a
spectator's), in both languages; a filter that names nothing here says what there is.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from bot.clock import from_ms
from bot.i18n import text
from bot.learn import move_cells
from bot.model import GameStatus
from bot.service import present
from bot.service.cache import Loaded
from bot.service.context import Context
from bot.service.play.records import check_daily_view
from bot.service.play.timers import Timers, clock_of
from bot.service.values import Event, Refusal, Reply, User
from engines.core import Text
from render import describe as words

FILTERS = ("all", "kind", "row", "last", "moves", "clocks")
"""What ``/board text`` shows: everything, or one part."""
NEEDS_VALUE = frozenset({"kind", "row", "moves"})
TEXT_LIMIT = 1900
"""The longest board in words a reply carries (Discord's message, with room for its label)."""


def _both(make: Any) -> Text:
    return Text(make("en"), make("ja"))


class BoardWords:
    def __init__(self, ctx: Context, timers: Timers) -> None:
        self.ctx = ctx
        self.timers = timers

    async def board_text(
        self, game_id: int, viewer: User | None, what: str | None = None, value: str | None = None
    ) -> Reply:
        """The board of ``game_id`` in words as ``viewer`` may see it: all of it (``what``
        none or ``all``), or the part a filter names (``kind``, ``row``, ``moves`` take a
        ``value``: a kind, a row, a square)."""
        what = (what or "all").strip().lower()
        if what not in FILTERS:
            raise Refusal("boardtext.refuse.filter", asked=what, filters=", ".join(FILTERS))
        value = (value or "").strip() or None
        if what in NEEDS_VALUE and value is None:
            raise Refusal(f"boardtext.refuse.{what}_needed")
        async with self.ctx.games.lock(game_id):
            loaded = await self.timers.check(await self.ctx.games.load(game_id))
        await check_daily_view(self.ctx, loaded, viewer)
        seat = loaded.viewer_seat(viewer.id if viewer else None)
        last, outcome = present.shown_last(loaded, seat)
        state = loaded.state
        if what == "all":
            text = _both(lambda lang: words.describe(state, seat, lang, last, outcome, TEXT_LIMIT))
        elif what == "last":
            text = _both(lambda lang: words.describe_head(state, seat, lang, last, outcome))
        elif what in ("kind", "row"):
            text = self._part(loaded, seat, what, value or "")
        elif what == "moves":
            text = self._moves(loaded, seat, value or "")
        else:
            text = self._clocks(loaded)
        return Reply(
            "boardtext.show",
            {"id": loaded.id, "text": text},
            event=Event.BOARD,
            game_id=loaded.id,
            public=False,
            audience=viewer.id if viewer else None,
        )

    async def choices(
        self, game_id: int, viewer: User | None, what: str | None, lang: str = "en"
    ) -> list[str]:
        """What the ``value`` of filter ``what`` may be here (autocomplete): the kinds on the
        board, its rows, or the squares of the pieces that may move now."""
        loaded = await self.ctx.games.read(game_id)
        await check_daily_view(self.ctx, loaded, viewer)
        seat = loaded.viewer_seat(viewer.id if viewer else None)
        state = loaded.state
        if what == "kind":
            return words.kinds(state, seat, lang)
        if what == "row":
            return words.rows(state, seat)
        if what == "moves" and state.observe(None) is state and state.current_player() >= 0:
            names = words.square_names(state.game.id)
            froms = {(move_cells(m) or (None, -1))[0] for m in state.legal_moves()}
            return [names[i] for i in sorted(f for f in froms if f is not None and f >= 0)]
        return []

    @staticmethod
    def _part(loaded: Loaded, seat: int | None, what: str, value: str) -> Text:
        state = loaded.state
        try:
            if what == "kind":
                return _both(lambda lang: words.describe_part(state, seat, lang, kind=value))
            return _both(lambda lang: words.describe_part(state, seat, lang, row=value))
        except words.NoSuchPart as no:
            if not no.choices:
                raise Refusal("boardtext.refuse.no_pieces", id=loaded.id) from no
            raise Refusal(
                f"boardtext.refuse.no_{no.what}", asked=value, choices=", ".join(no.choices)
            ) from no

    @staticmethod
    def _moves(loaded: Loaded, seat: int | None, square: str) -> Text:
        """The legal moves of the piece on ``square`` (its side must be to move: the engine
        knows a side's moves on its turn), from what the asker may see."""
        state = loaded.state
        if state.observe(seat) is not state and state.observe(None) is not state:
            raise Refusal("boardtext.refuse.hidden")  # a secret setup: no piece moves yet
        at = words.square_index(state, square)
        if at is None:
            raise Refusal("boardtext.refuse.no_square", asked=square)
        if state.outcome() is not None or state.current_player() < 0:
            raise Refusal("boardtext.refuse.no_turn")
        moves = [m for m in state.legal_moves() if (move_cells(m) or (None, -1))[0] == at]
        if not moves:
            mover = loaded.game.seat_name(state.current_player(), "en", loaded.row.players)
            mover_ja = loaded.game.seat_name(state.current_player(), "ja", loaded.row.players)
            raise Refusal("boardtext.refuse.no_moves", square=square, seat=Text(mover, mover_ja))
        shown = [present.display(state, m) for m in moves]
        return Text(
            f"{square}: " + ", ".join(s.en for s in shown) + ".",
            f"{square}：" + "、".join(s.ja for s in shown) + "。",
        )

    def _clocks(self, loaded: Loaded) -> Text:
        """Each seat's time: the clock, each time bank (the running one counted down to now),
        whose turn and until when, or a vacation's stop."""
        row = loaded.row
        spec = clock_of(row)
        if not spec.timed:
            return text("boardtext.clock.none")
        now = self.ctx.now_ms()
        said = [text("boardtext.clock.spec", clock=spec.text())]
        acting = set(loaded.acting_seats())
        for s in row.seats:
            if s.bank_ms is None:
                continue
            left = s.bank_ms
            if s.seat in acting and row.turn_started_ms is not None and row.paused_ms is None:
                left = max(0, left - (now - row.turn_started_ms))
            seat = Text(
                loaded.game.seat_name(s.seat, "en", row.players),
                loaded.game.seat_name(s.seat, "ja", row.players),
            )
            said.append(
                text(
                    "boardtext.clock.bank",
                    seat=seat,
                    name=loaded.name(s.seat),
                    left=timedelta(milliseconds=left),
                )
            )
        if row.paused_ms is not None:
            said.append(text("boardtext.clock.paused"))
        elif row.deadline_ms is not None and row.status is GameStatus.ACTIVE:
            said.append(
                text(
                    "boardtext.clock.deadline",
                    names=loaded.acting_names(),
                    until=from_ms(row.deadline_ms),
                    left=timedelta(milliseconds=max(0, row.deadline_ms - now)),
                )
            )
        return Text(" ".join(x.en for x in said), "".join(x.ja for x in said))
