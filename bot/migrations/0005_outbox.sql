-- The outbox: what a committed change must announce (a move's turn message and ping, a result,
-- a reminder, an offer), written in the same transaction as the change. A delivery loop posts
-- each one and marks it delivered; at start-up it posts whatever a crash left pending.

CREATE TABLE outbox (
    game_id      INTEGER NOT NULL REFERENCES games (id),
    version      INTEGER NOT NULL,   -- the game's version the change produced
    n            INTEGER NOT NULL,   -- the announcement's place among that change's
    ply          INTEGER NOT NULL,   -- the log's length after the change (the position shown)
    event        TEXT NOT NULL,
    body         TEXT NOT NULL,      -- the presentation-neutral reply, as JSON
    created_ms   INTEGER NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_ms      INTEGER NOT NULL,   -- not tried again before this time
    delivered_ms INTEGER,
    PRIMARY KEY (game_id, version, n)
) WITHOUT ROWID;

CREATE INDEX outbox_pending ON outbox (next_ms) WHERE delivered_ms IS NULL;

-- Offers and takebacks each seat has made in a game, as JSON [[kind, seat, move number], ...]:
-- a seat may take back at most a few moves per game and not offer a draw again at once.
ALTER TABLE games ADD COLUMN offers_made TEXT NOT NULL DEFAULT '[]';
