"""Looking back at games: replays, the computer's review and the read-only web site's pages.
Imports the kernel and :mod:`bot.service.play`; its front is
:class:`~bot.service.review.reviews.front.Review`."""
