-- The move log is the source of truth: games, their seats, and every action in order.
-- Times are whole milliseconds since the epoch (UTC).

CREATE TABLE users (
    id          TEXT PRIMARY KEY,           -- platform user id (Discord snowflake, sandbox name)
    name        TEXT NOT NULL,              -- latest display name seen
    updated_ms  INTEGER NOT NULL
);

CREATE TABLE games (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    game_type       TEXT NOT NULL,          -- engines registry id
    players         INTEGER NOT NULL CHECK (players >= 1),
    options         TEXT NOT NULL,          -- JSON object of resolved options
    seed            TEXT NOT NULL,          -- seed for the host's chance picks
    status          TEXT NOT NULL CHECK (status IN ('open', 'active', 'finished', 'cancelled', 'aborted')),
    guild_id        TEXT,                   -- NULL: DM or sandbox
    channel_id      TEXT,
    thread_id       TEXT,
    message_id      TEXT,
    creator_id      TEXT NOT NULL,
    clock           TEXT NOT NULL DEFAULT 'none',   -- bot.clock.ClockSpec.text()
    reminders       TEXT NOT NULL DEFAULT '',       -- seconds before a deadline, comma separated
    created_ms      INTEGER NOT NULL,
    started_ms      INTEGER,
    finished_ms     INTEGER,
    result          TEXT,                   -- JSON: termination, winners, ranks, text (en/ja)
    turn_started_ms INTEGER,
    deadline_ms     INTEGER,                -- NULL: no clock running
    reminders_sent  TEXT NOT NULL DEFAULT '',       -- reminder points already sent for this deadline
    offer           TEXT,                   -- JSON: a pending draw / takeback offer
    version         INTEGER NOT NULL DEFAULT 0      -- bumped by every change (optimistic lock)
);

CREATE INDEX games_status ON games (status);
CREATE INDEX games_guild ON games (guild_id, status);
CREATE INDEX games_deadline ON games (deadline_ms) WHERE deadline_ms IS NOT NULL;

CREATE TABLE seats (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    kind        TEXT NOT NULL CHECK (kind IN ('human', 'open', 'host')),  -- host: played by the host (AI)
    user_id     TEXT REFERENCES users (id),
    bank_ms     INTEGER,                    -- time bank left (bank clocks)
    PRIMARY KEY (game_id, seat)
);

CREATE INDEX seats_user ON seats (user_id);

CREATE TABLE moves (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply         INTEGER NOT NULL CHECK (ply >= 0),  -- index in the log (chance steps included)
    actor       INTEGER NOT NULL,           -- seat, or -1 for a chance outcome
    move        TEXT NOT NULL,              -- canonical notation
    user_id     TEXT,                       -- who sent it (NULL for chance)
    secret      INTEGER NOT NULL DEFAULT 0, -- made at a simultaneous (secret) step
    at_ms       INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)              -- two writers for one ply cannot both succeed
) WITHOUT ROWID;
