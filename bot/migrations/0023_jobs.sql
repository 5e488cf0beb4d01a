-- Heavy work handed to worker processes (issue 49, 4): `python -m bot worker` takes the oldest
-- job of the most urgent priority (0: a computer's move, 1: a hint, 2: a picture, a review, an
-- analysis), keeps it with a lease it renews while it works, and writes its result; whoever
-- queued it waits for that, reads it and deletes the row. ``payload`` and ``result`` are signed
-- pickles (bot/service/jobs.py). A job nobody took in time is withdrawn and done locally.

CREATE TABLE jobs (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    kind        TEXT NOT NULL,
    priority    INTEGER NOT NULL,
    payload     BLOB NOT NULL,
    queued_ms   INTEGER NOT NULL,
    deadline_ms INTEGER,
    taken_by    TEXT,
    lease_ms    INTEGER,
    done_ms     INTEGER,
    result      BLOB,
    failed      TEXT
);

CREATE INDEX jobs_queued ON jobs (priority, id) WHERE taken_by IS NULL;
