-- Signing in to the site with Discord (issue 51, 1). A session is a secret in an HTTP-only
-- cookie; the store keeps only its SHA-256 (a copy of the database opens no session), the
-- Discord user it is, the token every write from that session must carry (CSRF), and when it
-- ends.

CREATE TABLE site_sessions (
    secret_hash TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL,
    name        TEXT NOT NULL,
    csrf        TEXT NOT NULL,
    created_ms  INTEGER NOT NULL,
    expires_ms  INTEGER NOT NULL
);

CREATE INDEX site_sessions_expiry ON site_sessions (expires_ms);
