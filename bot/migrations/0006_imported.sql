-- Games made from a record file (/import) say so: they are unrated and count in no statistics,
-- also when an imported unfinished game is played on to its end.

ALTER TABLE games ADD COLUMN imported_ms INTEGER;   -- when it was imported; NULL: played here
