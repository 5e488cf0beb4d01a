-- Tournaments (issue 34, docs/tournaments.md): an event, its players and its boards. Each board
-- of a round is one normal game (``game_id``), written in the same transaction as the game
-- itself (``Store.create_game``), so a round's game is never made twice; a bye or a forfeit is a
-- board without a game, its result written when the round is paired.

CREATE TABLE tournaments (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        TEXT,
    channel_id      TEXT,
    message_id      TEXT,                    -- the sign-up message (edited in place)
    creator_id      TEXT NOT NULL,
    name            TEXT NOT NULL,
    game_type       TEXT NOT NULL,
    options         TEXT NOT NULL,           -- JSON, the rule set's options as resolved
    format          TEXT NOT NULL CHECK (format IN ('round-robin', 'double-round-robin',
                                                    'swiss', 'tables')),
    clock           TEXT NOT NULL,
    rated           INTEGER NOT NULL,
    rounds          INTEGER NOT NULL,        -- Swiss and tables: as asked; round-robin: at start
    max_players     INTEGER NOT NULL,
    signup_until_ms INTEGER,                 -- starts by itself then (NULL: by /tournament start)
    status          TEXT NOT NULL CHECK (status IN ('signup', 'running', 'finished',
                                                    'cancelled')),
    round           INTEGER NOT NULL DEFAULT 0,  -- the round being played (0: not started)
    seed            TEXT NOT NULL,           -- draws round one's tables
    created_ms      INTEGER NOT NULL,
    started_ms      INTEGER,
    finished_ms     INTEGER
);

CREATE INDEX tournaments_live ON tournaments (status, guild_id);

CREATE TABLE tournament_players (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id         TEXT NOT NULL,           -- a user, or ``@ai:N`` (a computer player)
    name            TEXT NOT NULL,
    joined_ms       INTEGER NOT NULL,
    withdrawn_round INTEGER,                 -- NULL: still in; else the round they left in
    PRIMARY KEY (tournament_id, user_id)
);

CREATE TABLE tournament_boards (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round           INTEGER NOT NULL,
    board           INTEGER NOT NULL,        -- 1, 2, ... within the round
    players         TEXT NOT NULL,           -- JSON list of user ids in seat order
    game_type       TEXT NOT NULL,           -- the event's, or sangokushi-2p for a table of two
    game_id         INTEGER UNIQUE REFERENCES games (id),
    result          TEXT,                    -- JSON {"points", "ranks", "forfeit"}; NULL: playing
    PRIMARY KEY (tournament_id, round, board)
);
