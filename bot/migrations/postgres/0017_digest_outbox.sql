-- PostgreSQL twin of ../0017_digest_outbox.sql (times BIGINT).

ALTER TABLE notify_prefs ADD COLUMN digest_body TEXT;      -- the reply as JSON (NULL: none waits)
ALTER TABLE notify_prefs ADD COLUMN digest_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE notify_prefs ADD COLUMN digest_next_ms BIGINT;   -- not tried again before this time

CREATE INDEX notify_prefs_digests ON notify_prefs (digest_next_ms) WHERE digest_body IS NOT NULL;

-- A digest lists the challenges that keep a seat for its user: found by an index, not a scan of
-- every seat for each of thousands of users due in the same hour.
CREATE INDEX seats_invited ON seats (invited_id) WHERE invited_id IS NOT NULL;
