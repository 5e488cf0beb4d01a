"""Learning the games: the rules pages, lessons on a practice board and puzzles (the teaching
material itself is data in :mod:`bot.learn`). Imports the kernel and :mod:`bot.service.play`; its
front is :class:`~bot.service.learn.front.Learn`."""
