-- Computer players (issue 14): a host seat with a level is played by the host's AI at that
-- strength; it moves by itself whenever it is due, also after a restart (found by this column).
-- A host seat without a level keeps its meaning: the host's own code plays it as HOST_ID.

ALTER TABLE seats ADD COLUMN ai_level INTEGER
    CHECK (ai_level IS NULL OR (kind = 'host' AND ai_level BETWEEN 1 AND 8));

CREATE INDEX seats_ai ON seats (game_id) WHERE ai_level IS NOT NULL;
