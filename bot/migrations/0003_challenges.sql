-- Challenges belong to the game: an open seat may be kept for one invited user, and an open
-- challenge lapses at expires_ms (the timers end it; a late accept is refused).

ALTER TABLE seats ADD COLUMN invited_id TEXT;   -- open seat of a challenge: only this user may take it
ALTER TABLE games ADD COLUMN expires_ms INTEGER; -- open challenge: when it lapses

CREATE INDEX games_expiry ON games (expires_ms) WHERE expires_ms IS NOT NULL;

-- Which game a thread or channel holds (a command run there means that game).
CREATE INDEX games_thread ON games (thread_id) WHERE thread_id IS NOT NULL;
CREATE INDEX games_channel ON games (channel_id, status);
