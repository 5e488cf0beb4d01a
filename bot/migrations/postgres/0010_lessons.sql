-- PostgreSQL twin of ../0010_lessons.sql.

-- Lessons (issue 31): each learner's best stars per lesson, and the one practice board a
-- learner has open (a lesson in progress: its moves so far), so a restart continues it.
-- Neither table is a game: nothing here reaches statistics, ratings or the games' lists.

CREATE TABLE lesson_stars (
    user_id TEXT NOT NULL,
    lesson TEXT NOT NULL,
    stars INTEGER NOT NULL,            -- the best so far, 1..3
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (user_id, lesson)
);

CREATE TABLE practice (
    user_id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,                -- 'lesson'
    item TEXT NOT NULL,                -- the lesson's id
    moves TEXT NOT NULL,               -- JSON list of the moves since the start, in notation
    learner INTEGER NOT NULL,          -- how many of them were the learner's (accepted)
    tries INTEGER NOT NULL,            -- the learner's moves tried, wrong ones included
    hints INTEGER NOT NULL,
    at_ms BIGINT NOT NULL
);
