"""Every game's rules pages, by game id."""

from __future__ import annotations

from bot.learn import Rules, rokumentai, sangokushi, socrates, suji_shogi, yosuko

RULES: dict[str, Rules] = {
    r.game: r
    for r in (
        sangokushi.RULES,
        sangokushi.RULES_2P,
        suji_shogi.RULES,
        rokumentai.RULES,
        yosuko.RULES,
        socrates.RULES_UCHU,
        socrates.RULES_SHINKEN,
        socrates.RULES_KOKUTAN,
        socrates.RULES_TWOTHREE,
    )
}
"""The nine rule sets' pages (the four Socrates games share the board's pages)."""


def rules_of(game_id: str) -> Rules | None:
    return RULES.get(game_id)
