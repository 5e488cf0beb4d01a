"""Correspondence play: vacations, conditional moves (premoves), turn notices and digests, and the
threads' archiving, each with its pure rules beside it. Imports the kernel and
:mod:`bot.service.play`; its front is :class:`~bot.service.correspond.front.Correspond`."""
