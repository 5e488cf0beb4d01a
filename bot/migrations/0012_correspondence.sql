-- Correspondence life (issue 33): vacations pause a player's correspondence and time-bank clocks.
-- A game whose clock is stopped keeps its deadline and turn start as they were when it stopped
-- (``paused_ms``); when the clock runs again both move on by the time it stood still.
-- ``paused_until_ms`` is the absent player's announced return (NULL: until they say so).

ALTER TABLE games ADD COLUMN paused_ms INTEGER;
ALTER TABLE games ADD COLUMN paused_until_ms INTEGER;
-- A waiting player's conditional moves (JSON: their seat, the lines "if they play X I reply Y",
-- and the reply due now if a line matched), written with the moves that match them.
ALTER TABLE games ADD COLUMN conditional TEXT;
CREATE INDEX games_conditional ON games (id) WHERE conditional IS NOT NULL;

-- One row per user who ever took a vacation: the one running (``since_ms`` set) and the
-- allowance spent in ``year`` (UTC), by the hour, only while it held a clock.
CREATE TABLE vacations (
    user_id TEXT PRIMARY KEY,
    since_ms INTEGER,
    until_ms INTEGER,
    year INTEGER NOT NULL,
    used_ms INTEGER NOT NULL DEFAULT 0,
    holding_ms INTEGER
);

-- How each user is told (``/notify``): a ping on their turn, a daily digest by direct message at
-- an hour of their own time zone, quiet hours; ``dm_closed`` is set once when their direct
-- messages refuse a digest (no retry every day).
CREATE TABLE notify_prefs (
    user_id TEXT PRIMARY KEY,
    ping INTEGER NOT NULL DEFAULT 1,
    digest INTEGER NOT NULL DEFAULT 0,
    digest_hour INTEGER NOT NULL DEFAULT 8,
    tz TEXT NOT NULL DEFAULT 'UTC',
    quiet_from INTEGER,
    quiet_to INTEGER,
    last_digest_ms INTEGER,
    dm_closed INTEGER NOT NULL DEFAULT 0
);
