"""The rules pages are checked against the engines and the rules documents: every diagram is a
real position, every mark is what the engine says, and every section of each rules document has
a page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import render
from bot.learn import Diagram, Page, Rules, build, captures, cell_names, destinations, move_cells
from bot.learn import sangokushi as sangokushi_pages
from bot.learn.catalogue import RULES, rules_of
from engines.registry import all_games
from render.base import Marks

ROOT = Path(__file__).resolve().parents[2]
DIAGRAMS = [
    pytest.param(rules.game, page, id=f"{rules.game}-{n}")
    for rules in RULES.values()
    for n, (_, page) in enumerate(rules.pages)
    if page.diagram is not None
]


def test_every_game_has_rules_pages() -> None:
    assert {g.id for g in all_games()} == set(RULES)
    for game in all_games():
        rules = rules_of(game.id)
        assert rules is not None and rules.pages
        assert game.rules_doc.endswith(f"/{rules.doc}.md")


def _headings(doc: str) -> set[str]:
    text = (ROOT / "docs" / "rules" / f"{doc}.md").read_text(encoding="utf-8")
    return {m[1].strip() for m in re.finditer(r"^#{2,3} (.+)$", text, re.MULTILINE)}


@pytest.mark.parametrize("doc", sorted({r.doc for r in RULES.values()}))
def test_every_section_of_the_rules_document_has_a_page(doc: str) -> None:
    covered = {
        heading
        for rules in RULES.values()
        if rules.doc == doc
        for section in rules.sections
        for heading in (section.heading, *section.covers)
    }
    assert _headings(doc) <= covered, sorted(_headings(doc) - covered)
    assert covered <= _headings(doc), sorted(covered - _headings(doc))


@pytest.mark.parametrize("rules", list(RULES.values()), ids=list(RULES))
def test_pages_are_bilingual_and_name_no_file(rules: Rules) -> None:
    for section in rules.sections:
        assert section.title.en and section.title.ja
        for page in section.pages:
            for text in (page.title, page.body):
                assert text.en.strip() and text.ja.strip()
                assert "docs/" not in text.en + text.ja and ".md" not in text.en + text.ja


@pytest.mark.parametrize(("game_id", "page"), DIAGRAMS)
def test_marks_are_what_the_engine_plays(game_id: str, page: Page) -> None:
    diagram = page.diagram
    assert isinstance(diagram, Diagram)
    built = build(game_id, diagram)
    marks = built.marks
    names = cell_names(diagram.game or game_id)
    if diagram.reach:
        engine = destinations(built.state, marks.origin)
        assert marks.reach == engine, sorted(names[c] for c in engine)
    else:
        assert diagram.piece is None
    if diagram.moves:
        cells = move_cells(built.last_move)
        if cells is not None:
            assert set(marks.moved) == {c for c in cells if c is not None}
        assert marks.captured == captures(built.before, built.last_move)
    else:
        assert not marks.moved and not diagram.captured
    if diagram.next_seat:
        assert marks.next_seat == built.state.current_player()


@pytest.mark.parametrize(("game_id", "page"), DIAGRAMS[::4])
def test_marks_are_drawn_over_the_games_own_picture(game_id: str, page: Page) -> None:
    assert page.diagram is not None
    built = build(game_id, page.diagram)
    plain = render.render_png(built.state, page.diagram.viewer, built.last_move)
    again = render.render_png(built.state, page.diagram.viewer, built.last_move, marks=None)
    assert plain == again
    marked = render.render_png(built.state, page.diagram.viewer, built.last_move, marks=built.marks)
    if built.marks != Marks():
        assert marked != plain
    assert marked.startswith(b"\x89PNG")


def test_a_reach_that_differs_from_the_engine_is_caught() -> None:
    wrong = Diagram(
        sangokushi_pages.PAWN,
        piece="E5",
        reach=("F5",),
    )
    built = build("sangokushi", wrong)
    assert built.marks.reach != destinations(built.state, built.marks.origin)
