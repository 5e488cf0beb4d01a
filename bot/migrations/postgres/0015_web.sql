-- PostgreSQL twin of ../0015_web.sql.

CREATE TABLE web_tokens (
    game_id     BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    token       TEXT NOT NULL UNIQUE
);
