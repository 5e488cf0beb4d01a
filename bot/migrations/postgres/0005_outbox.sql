-- PostgreSQL twin of ../0005_outbox.sql.

CREATE TABLE outbox (
    game_id      BIGINT NOT NULL REFERENCES games (id),
    version      INTEGER NOT NULL,
    n            INTEGER NOT NULL,
    ply          INTEGER NOT NULL,
    event        TEXT NOT NULL,
    body         TEXT NOT NULL,
    created_ms   BIGINT NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_ms      BIGINT NOT NULL,
    delivered_ms BIGINT,
    PRIMARY KEY (game_id, version, n)
);

CREATE INDEX outbox_pending ON outbox (next_ms) WHERE delivered_ms IS NULL;

ALTER TABLE games ADD COLUMN offers_made TEXT NOT NULL DEFAULT '[]';
