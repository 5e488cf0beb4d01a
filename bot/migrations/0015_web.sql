-- The web pages (issue 35). A game's page is reached by an unguessable token (never by its
-- counting id), made once for the game when its first link is posted.

CREATE TABLE web_tokens (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    token       TEXT NOT NULL UNIQUE
);
