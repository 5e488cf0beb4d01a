"""Competing: ratings' profiles and leaderboards, and tournaments with their posts and replies.
Imports the kernel and :mod:`bot.service.play`; its front is
:class:`~bot.service.compete.front.Compete`."""
