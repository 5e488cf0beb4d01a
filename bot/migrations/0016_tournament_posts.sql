-- A tournament's own announcements (issue 34): a round's boards, the final standings, a call-off.
-- Each is written once, by the step that causes it (a round whose games are all made; the
-- tournament's end, in the same transaction), and kept until the adapter reports it posted: a
-- crash between the step and the post leaves it here for the next delivery round, as the games'
-- outbox does for their announcements.

CREATE TABLE tournament_posts (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    name          TEXT NOT NULL,              -- 'round3', 'final', 'cancelled'
    body          TEXT NOT NULL,              -- the presentation-neutral reply, as JSON
    created_ms    INTEGER NOT NULL,
    attempts      INTEGER NOT NULL DEFAULT 0,
    next_ms       INTEGER NOT NULL,           -- not tried again before this time
    delivered_ms  INTEGER,
    PRIMARY KEY (tournament_id, name)
);

CREATE INDEX tournament_posts_pending ON tournament_posts (next_ms) WHERE delivered_ms IS NULL;
