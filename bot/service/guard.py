"""What every service entry point checks before it does anything, and answers the same way.

- Text from outside (a move, a day, a setting, a game type, an id) must be text every store and
  adapter can hold: a lone surrogate (half a UTF-16 pair), NUL or another control character
  (tab and line breaks aside) is refused with ``refuse.bad_text``, before anything is read or
  written. User names are not refused but cleaned (:func:`bot.service.context.clean_user`): they
  come from the platform. A record file's text is checked by the record reader, which names the
  line (``refuse.bad_record``).
- A store that cannot be reached within ``Settings.store_timeout`` (PostgreSQL down) is answered
  with ``refuse.store_unreachable``: a private refusal, nothing changed. A store that went away
  during the COMMIT itself is answered with ``refuse.store_uncertain``: the change may have been
  written (its acknowledgement lost), so the player is told to look before trying again; the
  game is read afresh and, if it was written, its announcement comes through the outbox. What
  runs by itself (the timers, the outbox) retries as before.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar, cast

from bot.service.values import Refusal
from bot.store import StoreUncertain, StoreUnreachable

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])
"""An entry point's own type, kept whole by :func:`entry` (mypy reads the methods of
:class:`~bot.service.GameService` through an import cycle, where a ParamSpec decorator's type
cannot be determined)."""

ALLOWED_CONTROLS = frozenset("\t\n\r")


def bad_text(text: str) -> bool:
    """True for text a store or an adapter cannot hold as it is (see the module docstring)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return any((c < " " and c not in ALLOWED_CONTROLS) or "\x7f" <= c <= "\x9f" for c in text)


def check_text(value: Any) -> None:
    """Refuse ``value`` (a text, or texts in a mapping, list or tuple) holding bad text."""
    if isinstance(value, str):
        if bad_text(value):
            raise Refusal("refuse.bad_text")
    elif isinstance(value, Mapping):
        for k, v in value.items():
            check_text(k)
            check_text(v)
    elif isinstance(value, list | tuple):
        for item in value:
            check_text(item)


FILES = frozenset({"data"})
"""Arguments that are a file's content, not text typed in: their reader checks them."""


def entry(fn: F) -> F:
    """A service entry point (a method of :class:`~bot.service.GameService`): its text arguments
    are checked first, and an unreachable store becomes ``refuse.store_unreachable``."""
    names = list(inspect.signature(fn).parameters)

    @functools.wraps(fn)
    async def checked(*args: Any, **kwargs: Any) -> Any:
        given = [*zip(names[1:], args[1:], strict=False), *kwargs.items()]
        for name, value in given:
            if name not in FILES:
                check_text(value)
        try:
            return await fn(*args, **kwargs)
        except StoreUncertain as exc:
            raise Refusal("refuse.store_uncertain") from exc
        except StoreUnreachable as exc:
            raise Refusal("refuse.store_unreachable") from exc

    return cast(F, checked)
