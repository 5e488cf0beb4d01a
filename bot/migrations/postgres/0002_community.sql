-- PostgreSQL twin of ../0002_community.sql.

CREATE TABLE guild_settings (
    guild_id    TEXT NOT NULL,
    key         TEXT NOT NULL,
    value       TEXT NOT NULL,
    PRIMARY KEY (guild_id, key)
);

CREATE TABLE user_stats (
    user_id     TEXT NOT NULL REFERENCES users (id),
    game_type   TEXT NOT NULL,
    games       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    streak      INTEGER NOT NULL DEFAULT 0,
    best_streak INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, game_type)
);

CREATE TABLE daily_games (
    game_type   TEXT NOT NULL,
    day         TEXT NOT NULL,
    user_id     TEXT NOT NULL REFERENCES users (id),
    game_id     BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    guild_id    TEXT,
    PRIMARY KEY (game_type, day, user_id)
);

CREATE INDEX daily_guild ON daily_games (guild_id, game_type, day);
