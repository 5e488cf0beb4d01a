-- The computer's reviews of finished games (issue 32): computed once, served again at once.
-- ``data`` is the review as JSON (bot/service/review.py: per ply the mover, the played and the
-- better move, the chances); ``public``: shown in the game's thread (1) or to each asker (0).

CREATE TABLE reviews (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    data        TEXT NOT NULL,
    public      INTEGER NOT NULL DEFAULT 0,
    created_ms  INTEGER NOT NULL
);
