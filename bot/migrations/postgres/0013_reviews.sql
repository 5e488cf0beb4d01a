-- PostgreSQL twin of ../0013_reviews.sql.

CREATE TABLE reviews (
    game_id     BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    data        TEXT NOT NULL,
    public      INTEGER NOT NULL DEFAULT 0,
    created_ms  BIGINT NOT NULL
);
