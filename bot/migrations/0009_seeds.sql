-- Seeds (issue 30). A daily deal's game knows its day, so its seed stays out of every record
-- until the day is over for everyone (the day's other players share the seed); filled in here
-- for the daily games played so far.
-- An imported unfinished game goes on with a fresh secret seed: ``reseed`` picks every chance
-- step from ``reseed_from`` on (the engine's ply count), ``seed`` (the file's) the ones before.

ALTER TABLE games ADD COLUMN daily_day TEXT;       -- UTC date, YYYY-MM-DD; NULL: no daily
UPDATE games SET daily_day = (SELECT d.day FROM daily_games d WHERE d.game_id = games.id);
ALTER TABLE games ADD COLUMN reseed TEXT;          -- NULL: ``seed`` picks every chance step
ALTER TABLE games ADD COLUMN reseed_from INTEGER NOT NULL DEFAULT 0;
