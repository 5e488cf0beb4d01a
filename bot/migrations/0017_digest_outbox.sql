-- Digests as a kind of the outbox (issue 45, 4): a user's digest is written with its mark, in
-- the same row and statement (``last_digest_ms``: when it fell due), and kept until the adapter
-- reports it delivered. A process killed between marking and sending leaves it here for the next
-- delivery round: no digest is lost, and none is marked twice.

ALTER TABLE notify_prefs ADD COLUMN digest_body TEXT;      -- the reply as JSON (NULL: none waits)
ALTER TABLE notify_prefs ADD COLUMN digest_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE notify_prefs ADD COLUMN digest_next_ms INTEGER; -- not tried again before this time

CREATE INDEX notify_prefs_digests ON notify_prefs (digest_next_ms) WHERE digest_body IS NOT NULL;

-- A digest lists the challenges that keep a seat for its user: found by an index, not a scan of
-- every seat for each of thousands of users due in the same hour.
CREATE INDEX seats_invited ON seats (invited_id) WHERE invited_id IS NOT NULL;
