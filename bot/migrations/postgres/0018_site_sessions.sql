-- PostgreSQL twin of ../0018_site_sessions.sql.

CREATE TABLE site_sessions (
    secret_hash TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL,
    name        TEXT NOT NULL,
    csrf        TEXT NOT NULL,
    created_ms  BIGINT NOT NULL,
    expires_ms  BIGINT NOT NULL
);

CREATE INDEX site_sessions_expiry ON site_sessions (expires_ms);
