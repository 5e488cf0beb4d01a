"""Settings from the environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import DEFAULT_DB, load_settings


def test_defaults() -> None:
    s = load_settings(env={})
    assert s.db_path == DEFAULT_DB and s.discord_token is None and s.max_active_per_user == 20


def test_from_env() -> None:
    s = load_settings(
        env={"DISCORD_TOKEN": "t", "BANMEN_DB": "/x.db", "LOG_LEVEL": "debug",
             "BANMEN_MAX_ACTIVE_PER_USER": "3", "DEV_GUILD_ID": "42"}
    )  # fmt: skip
    assert (s.discord_token, s.db_path, s.log_level, s.max_active_per_user, s.dev_guild_id) == (
        "t", "/x.db", "DEBUG", 3, "42",
    )  # fmt: skip
    with pytest.raises(ValueError):
        load_settings(env={"BANMEN_MAX_ACTIVE_PER_USER": "many"})


def test_dotenv_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("BANMEN_DB=/from/dotenv.db\n", encoding="utf-8")
    monkeypatch.setenv("BANMEN_DB", "placeholder")  # so the teardown removes what dotenv sets
    monkeypatch.delenv("BANMEN_DB")
    assert load_settings(env_file).db_path == "/from/dotenv.db"


def test_computer_player_settings() -> None:
    s = load_settings(env={})
    assert (s.ai_seconds, s.ai_workers) == (2.0, 1)
    s = load_settings(env={"BANMEN_AI_SECONDS": "0.5", "BANMEN_AI_WORKERS": "2"})
    assert (s.ai_seconds, s.ai_workers) == (0.5, 2)
    for bad in ("0", "-1", "61", "nan", "inf", "soon"):
        with pytest.raises(ValueError, match="BANMEN_AI_SECONDS"):
            load_settings(env={"BANMEN_AI_SECONDS": bad})
    with pytest.raises(ValueError, match="BANMEN_AI_WORKERS"):
        load_settings(env={"BANMEN_AI_WORKERS": "0"})


def test_a_database_url_in_the_logs_and_the_heartbeat() -> None:
    from bot.config import masked_location

    url = "postgresql://banmen:s3cret@db:5432/banmen"
    assert masked_location(url) == "postgresql://banmen:***@db:5432/banmen"
    assert masked_location("./data/banmen.db") == "./data/banmen.db"
    s = load_settings(None, {"BANMEN_DB": url, "BANMEN_PG_POOL": "4"})
    assert s.db_path == url and s.pg_pool_size == 4
    assert s.heartbeat_file == Path("data") / "heartbeat"  # not inside the URL


def test_the_daily_reveal_hour_cannot_come_before_the_day_ends() -> None:
    """A negative delay would show a daily's seed while its day still runs somewhere."""
    assert load_settings(env={"BANMEN_DAILY_REVEAL_HOURS": "0"}).daily_reveal_hours == 0
    with pytest.raises(ValueError, match="BANMEN_DAILY_REVEAL_HOURS must be at least 0"):
        load_settings(env={"BANMEN_DAILY_REVEAL_HOURS": "-3"})


def test_the_state_cache_is_sized_by_memory_and_by_games() -> None:
    s = load_settings(env={})
    assert (s.state_cache_mb, s.state_cache_size) == (256, 100_000)
    s = load_settings(env={"BANMEN_STATE_CACHE_MB": "64", "BANMEN_STATE_CACHE": "500"})
    assert (s.state_cache_mb, s.state_cache_size) == (64, 500)
    assert load_settings(env={"BANMEN_STATE_CACHE_MB": "0"}).state_cache_mb == 0  # no limit
    with pytest.raises(ValueError, match="BANMEN_STATE_CACHE_MB"):
        load_settings(env={"BANMEN_STATE_CACHE_MB": "-1"})
