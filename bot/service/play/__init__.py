"""Playing a game: lobbies and challenges, rematches, turns, offers, clocks, the computer player,
finding games, records and the community around them. Imports only the kernel
(:mod:`bot.service`'s top-level modules); its front is :class:`~bot.service.play.front.Play`."""
