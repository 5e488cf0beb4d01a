-- PostgreSQL twin of ../0008_ai_seats.sql.

ALTER TABLE seats ADD COLUMN ai_level INTEGER
    CHECK (ai_level IS NULL OR (kind = 'host' AND ai_level BETWEEN 1 AND 8));

CREATE INDEX seats_ai ON seats (game_id) WHERE ai_level IS NOT NULL;
