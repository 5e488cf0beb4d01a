-- Play anywhere (issue 48): how the bot reaches a game's place. NULL: it posts there (a
-- server's channel or thread, its own direct messages); 'interaction': only through the
-- interactions people make there (a DM or group DM between people, a server that did not add
-- the bot: a user-installed app), so an announcement waits for the next one.

ALTER TABLE games ADD COLUMN reach TEXT;
