-- PostgreSQL twin of ../0016_tournament_posts.sql (ids and times BIGINT).

CREATE TABLE tournament_posts (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    name          TEXT NOT NULL,              -- 'round3', 'final', 'cancelled'
    body          TEXT NOT NULL,              -- the presentation-neutral reply, as JSON
    created_ms    BIGINT NOT NULL,
    attempts      INTEGER NOT NULL DEFAULT 0,
    next_ms       BIGINT NOT NULL,            -- not tried again before this time
    delivered_ms  BIGINT,
    PRIMARY KEY (tournament_id, name)
);

CREATE INDEX tournament_posts_pending ON tournament_posts (next_ms) WHERE delivered_ms IS NULL;
