"""``/rules``: a game's whole rules as pages (from :mod:`bot.learn`), each with its diagram.

A page is presentation-neutral (:class:`~bot.service.values.RulesPage`): both languages, the
page's place in the sections, and its picture drawn off the event loop once and kept (the
pages never change while the bot runs). A link appears only when the operator configured where
the rules documents are published; no page ever names a file.
"""

from __future__ import annotations

import asyncio
import logging
import threading

import render
from bot.learn import build
from bot.learn.catalogue import rules_of
from bot.service import present
from bot.service.context import Context
from bot.service.values import Refusal, RulesPage
from engines.core import EngineError, Text
from engines.registry import get_game
from render.describe import DISCORD_LIMIT

log = logging.getLogger("banmen.service.rules")


class RulesPages:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._pictures: dict[tuple[str, int], tuple[bytes | None, Text | None]] = {}
        self._lock = threading.Lock()

    async def page(self, game_id: str, index: int = 0) -> RulesPage:
        """Page ``index`` (0-based; clamped, so an old button still lands on a page) of
        ``game_id``'s rules."""
        try:
            game = get_game(game_id)
        except EngineError as exc:
            raise Refusal("refuse.unknown_game_type", reason=exc.text) from exc
        rules = rules_of(game.id)
        if rules is None:
            raise Refusal("refuse.unknown_game_type", reason=present.title(game))
        pages = rules.pages
        index = min(max(index, 0), len(pages) - 1)
        section, page = pages[index]
        png, alt = await self._picture(game.id, index)
        base = self.ctx.settings.rules_base_url
        site = self.ctx.settings.public_url
        return RulesPage(
            game=game.id,
            title=present.title(game),
            index=index,
            count=len(pages),
            heading=page.title,
            body=page.body,
            section=section,
            sections=tuple((rules.first_page(i), s.title) for i, s in enumerate(rules.sections)),
            png=png,
            alt=alt,
            link=f"{base.rstrip('/')}/{rules.doc}.md"
            if base
            else (f"{site}/rules/{game.id}?page={index}" if site else None),
        )

    async def _picture(self, game_id: str, index: int) -> tuple[bytes | None, Text | None]:
        """The page's diagram and the position it shows in words, drawn once."""
        key = (game_id, index)
        with self._lock:
            if key in self._pictures:
                return self._pictures[key]
        drawn: tuple[bytes | None, Text | None] = (None, None)
        if self.ctx.pictures.enabled:
            drawn = await asyncio.to_thread(self._draw, game_id, index)
        with self._lock:
            self._pictures[key] = drawn
        return drawn

    @staticmethod
    def _draw(game_id: str, index: int) -> tuple[bytes | None, Text | None]:
        rules = rules_of(game_id)
        assert rules is not None
        diagram = rules.pages[index][1].diagram
        if diagram is None:
            return None, None
        try:
            built = build(game_id, diagram)
            png = render.render_png(built.state, diagram.viewer, built.last_move, marks=built.marks)
        except Exception:  # a broken picture must not hide the page's text
            log.exception("rules picture failed: %s page %d", game_id, index)
            return None, None
        title = rules.pages[index][1].title
        room = DISCORD_LIMIT - max(len(title.en), len(title.ja)) - 2
        words = present.alt_text(built.state, diagram.viewer, built.last_move, limit=room)
        if words is None:
            return png, title
        return png, Text(f"{title.en}. {words.en}", f"{title.ja}。{words.ja}")
