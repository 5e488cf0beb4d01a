-- PostgreSQL twin of ../0003_challenges.sql.

ALTER TABLE seats ADD COLUMN invited_id TEXT;
ALTER TABLE games ADD COLUMN expires_ms BIGINT;

CREATE INDEX games_expiry ON games (expires_ms) WHERE expires_ms IS NOT NULL;

CREATE INDEX games_thread ON games (thread_id) WHERE thread_id IS NOT NULL;
CREATE INDEX games_channel ON games (channel_id, status);
