-- Ratings (docs/ratings.md): one openskill Plackett-Luce rating per (user, game), and every rated
-- game's before/after values, so a rating's history can be shown and rebuilt from the games.
-- Floats are REAL (IEEE doubles): a rebuild in the same order gives the same numbers bit for bit.

-- 1: the game was created rated (the default for human-only games of two or more players;
-- `rated:false` makes it casual). Games from before ratings existed, and imports, stay 0.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;

CREATE TABLE ratings (
    user_id     TEXT NOT NULL REFERENCES users (id),
    game_type   TEXT NOT NULL,
    mu          REAL NOT NULL,
    sigma       REAL NOT NULL,
    ordinal     REAL NOT NULL,               -- mu - 3 sigma: the conservative number boards sort by
    games       INTEGER NOT NULL,            -- rated games played (provisional below a threshold)
    wins        INTEGER NOT NULL,
    losses      INTEGER NOT NULL,
    draws       INTEGER NOT NULL,
    PRIMARY KEY (user_id, game_type)
) WITHOUT ROWID;

-- A leaderboard page is a walk down this index (no scan of the games).
CREATE INDEX ratings_board ON ratings (game_type, ordinal DESC, user_id, games);

CREATE TABLE rating_history (
    seq          INTEGER NOT NULL,           -- end order of rated games (one number per game)
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id      TEXT NOT NULL REFERENCES users (id),
    game_type    TEXT NOT NULL,
    guild_id     TEXT,                       -- the server it was played in (NULL: DM, sandbox)
    place        INTEGER NOT NULL,           -- 1 = first; shared places repeat
    result       TEXT NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
    games_before INTEGER NOT NULL,
    mu_before    REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu_after     REAL NOT NULL,
    sigma_after  REAL NOT NULL,
    at_ms        INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;

CREATE INDEX rating_history_seq ON rating_history (seq);
CREATE INDEX rating_history_user ON rating_history (user_id, game_type, seq);

-- Who played rated games of a kind in a server (the server leaderboard walks these, so its cost
-- grows with the server's players, not its games). Derived from rating_history; '' = no server.
CREATE TABLE rating_members (
    guild_id    TEXT NOT NULL,
    game_type   TEXT NOT NULL,
    user_id     TEXT NOT NULL REFERENCES users (id),
    PRIMARY KEY (guild_id, game_type, user_id)
) WITHOUT ROWID;
