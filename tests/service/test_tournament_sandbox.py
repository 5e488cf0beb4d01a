"""The sandbox plays a whole tournament with scripted computer players (``@ai:N``)."""

from __future__ import annotations

import io
from pathlib import Path

from bot.config import Settings
from bot.sandbox import run_sandbox

SCRIPT = """\
/tournament create rokumentai swiss rounds=1 name=Bots play=false
/tournament join 1 @ai:1 @ai:2 @ai:1/2
/tournament join 1
/tournament leave 1
/tournament start 1
/tournament standings 1
/tournament start 1
/tournament
"""


async def test_a_tournament_of_computer_players_plays_through(tmp_path: Path) -> None:
    path = tmp_path / "script.txt"
    path.write_text(SCRIPT, encoding="utf-8")
    out = io.StringIO()
    settings = Settings(db_path=str(tmp_path / "sandbox.db"), ai_seconds=0.02)
    code = await run_sandbox(settings, script=str(path), out_dir=str(tmp_path / "out"), out=out)
    text = out.getvalue()
    assert code == 0, text
    assert "Players 3/32: Banmen AI Lv.1, Banmen AI Lv.2, Banmen AI Lv.1 #2" in text
    assert "Players 4/32" in text  # you joined, then left again
    assert "**Bots**, round 1 of 1:" in text
    assert ": bye" in text  # three players: one sits out
    assert "**Bots** is over. Winner:" in text
    assert "✗ Bots has already started." in text
    assert "/tournament create <game>" in text  # the usage
    pictures = sorted((tmp_path / "out").glob("tournament-*.png"))
    assert len(pictures) == 2  # the final standings and /tournament standings: crosstables
