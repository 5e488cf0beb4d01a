-- PostgreSQL twin of ../0009_seeds.sql.

ALTER TABLE games ADD COLUMN daily_day TEXT;       -- UTC date, YYYY-MM-DD; NULL: no daily
UPDATE games SET daily_day = (SELECT d.day FROM daily_games d WHERE d.game_id = games.id);
ALTER TABLE games ADD COLUMN reseed TEXT;          -- NULL: ``seed`` picks every chance step
ALTER TABLE games ADD COLUMN reseed_from INTEGER NOT NULL DEFAULT 0;
