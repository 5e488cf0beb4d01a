-- PostgreSQL twin of ../0023_jobs.sql.
-- Heavy work handed to worker processes (issue 49, 4): `python -m bot worker` takes the oldest
-- job of the most urgent priority (0: a computer's move, 1: a hint, 2: a picture, a review, an
-- analysis), keeps it with a lease it renews while it works, and writes its result; whoever
-- queued it waits for that, reads it and deletes the row. ``payload`` and ``result`` are signed
-- pickles (bot/service/jobs.py). A job nobody took in time is withdrawn and done locally.

CREATE TABLE jobs (
    id          BIGSERIAL PRIMARY KEY,
    kind        TEXT NOT NULL,
    priority    INTEGER NOT NULL,
    payload     BYTEA NOT NULL,
    queued_ms   BIGINT NOT NULL,
    deadline_ms BIGINT,
    taken_by    TEXT,
    lease_ms    BIGINT,
    done_ms     BIGINT,
    result      BYTEA,
    failed      TEXT
);

CREATE INDEX jobs_queued ON jobs (priority, id) WHERE taken_by IS NULL;
