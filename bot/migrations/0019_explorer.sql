-- The opening explorer (issue 50): per position, the moves played from it and what followed.
-- ``position`` is a key of engines/explore.py (blake2b of the position text, signed 64-bit);
-- ``scope`` is '' (every server) or a guild id; ``rated`` 1 counts rated games only (a rated
-- game is counted in both pools). One lookup is an index range over one position's moves.
-- Written in the transaction that ends a game; rebuilt from the move logs by
-- ``python -m bot rebuild-explorer``.

CREATE TABLE explorer (
    game_type   TEXT NOT NULL,
    position    INTEGER NOT NULL,
    scope       TEXT NOT NULL,
    rated       INTEGER NOT NULL,
    move        TEXT NOT NULL,
    games       INTEGER NOT NULL,
    draws       INTEGER NOT NULL,
    win0        INTEGER NOT NULL,
    win1        INTEGER NOT NULL,
    win2        INTEGER NOT NULL,
    PRIMARY KEY (game_type, position, scope, rated, move)
);
