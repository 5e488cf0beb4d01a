-- PostgreSQL twin of ../0004_secrets.sql.

CREATE TABLE host_secrets (
    name        TEXT PRIMARY KEY,
    value       TEXT NOT NULL
);
