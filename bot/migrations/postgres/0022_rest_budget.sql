-- One REST budget for every process (issue 49, 1): Discord allows a bot 50 requests a second
-- across all its processes. Each request takes a slot here first, by the generic cell rate
-- algorithm: ``tat_ms`` is the theoretical arrival time of the next request at the budget's
-- rate; a request may go when it is at most a burst ahead of now.

CREATE TABLE rest_budget (
    id     INTEGER PRIMARY KEY,
    tat_ms BIGINT NOT NULL
);

INSERT INTO rest_budget (id, tat_ms) VALUES (0, 0);
