-- PostgreSQL twin of ../0020_login_turns.sql. Queued logins (issue 49, 2): Discord lets a bot IDENTIFY once per max_concurrency bucket
-- every 5 s, across all its processes. Each process takes its turn here before a shard logs in:
-- ``last_ms`` is when the bucket's latest login began.

CREATE TABLE login_turns (
    bucket  INTEGER PRIMARY KEY,
    last_ms BIGINT NOT NULL
);
