-- PostgreSQL twin of ../0011_puzzles.sql (times in BIGINT milliseconds). Puzzles (issue 31):
-- each user's open puzzle, their attempts and solved puzzles, their daily streak, and the
-- daily puzzle's posts (one row a server and day: a restart neither loses nor doubles a post).
-- Puzzles never touch the games, statistics or ratings.

CREATE TABLE puzzle_open (
    user_id     TEXT PRIMARY KEY,
    puzzle_id   TEXT NOT NULL,
    moves       TEXT NOT NULL DEFAULT '[]',  -- the line played so far, JSON list of notation
    daily_day   TEXT,                        -- UTC date of the daily puzzle it was opened as
    opened_ms   BIGINT NOT NULL
);

CREATE TABLE puzzle_progress (
    user_id     TEXT NOT NULL,
    puzzle_id   TEXT NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,  -- wrong answers
    solved_ms   BIGINT,                      -- NULL: not solved
    PRIMARY KEY (user_id, puzzle_id)
);

CREATE TABLE puzzle_streaks (
    user_id     TEXT PRIMARY KEY,
    last_day    TEXT NOT NULL,               -- the last UTC day the daily puzzle was solved
    streak      INTEGER NOT NULL,
    best        INTEGER NOT NULL
);

CREATE TABLE puzzle_posts (
    guild_id     TEXT NOT NULL,
    day          TEXT NOT NULL,              -- UTC date, YYYY-MM-DD
    channel_id   TEXT NOT NULL,
    puzzle_id    TEXT NOT NULL,
    delivered_ms BIGINT,
    PRIMARY KEY (guild_id, day)
);
