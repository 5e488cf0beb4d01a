-- PostgreSQL twin of ../0007_ratings.sql. DOUBLE PRECISION is SQLite's REAL (IEEE doubles, read
-- back bit for bit).

ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;

CREATE TABLE ratings (
    user_id     TEXT NOT NULL REFERENCES users (id),
    game_type   TEXT NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    ordinal     DOUBLE PRECISION NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    losses      INTEGER NOT NULL,
    draws       INTEGER NOT NULL,
    PRIMARY KEY (user_id, game_type)
);

CREATE INDEX ratings_board ON ratings (game_type, ordinal DESC, user_id, games);

CREATE TABLE rating_history (
    seq          INTEGER NOT NULL,
    game_id      BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id      TEXT NOT NULL REFERENCES users (id),
    game_type    TEXT NOT NULL,
    guild_id     TEXT,
    place        INTEGER NOT NULL,
    result       TEXT NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
    games_before INTEGER NOT NULL,
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after     DOUBLE PRECISION NOT NULL,
    sigma_after  DOUBLE PRECISION NOT NULL,
    at_ms        BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX rating_history_seq ON rating_history (seq);
CREATE INDEX rating_history_user ON rating_history (user_id, game_type, seq);

CREATE TABLE rating_members (
    guild_id    TEXT NOT NULL,
    game_type   TEXT NOT NULL,
    user_id     TEXT NOT NULL REFERENCES users (id),
    PRIMARY KEY (guild_id, game_type, user_id)
);
