-- Per-server settings, personal statistics and the daily deal (later issues).

CREATE TABLE guild_settings (
    guild_id    TEXT NOT NULL,
    key         TEXT NOT NULL,
    value       TEXT NOT NULL,
    PRIMARY KEY (guild_id, key)
) WITHOUT ROWID;

CREATE TABLE user_stats (
    user_id     TEXT NOT NULL REFERENCES users (id),
    game_type   TEXT NOT NULL,
    games       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    streak      INTEGER NOT NULL DEFAULT 0,  -- current run of wins
    best_streak INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, game_type)
) WITHOUT ROWID;

CREATE TABLE daily_games (
    game_type   TEXT NOT NULL,
    day         TEXT NOT NULL,               -- UTC date, YYYY-MM-DD
    user_id     TEXT NOT NULL REFERENCES users (id),
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    guild_id    TEXT,
    PRIMARY KEY (game_type, day, user_id)
) WITHOUT ROWID;

CREATE INDEX daily_guild ON daily_games (guild_id, game_type, day);
