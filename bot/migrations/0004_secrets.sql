-- Secrets the host generates once and keeps: the key of the daily deal's seeds (an HMAC of the
-- day), so every player gets the same deal and nobody can compute tomorrow's offline.

CREATE TABLE host_secrets (
    name        TEXT PRIMARY KEY,
    value       TEXT NOT NULL
) WITHOUT ROWID;
