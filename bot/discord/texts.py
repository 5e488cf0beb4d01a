"""The few strings the Discord adapter says itself (button labels, apologies), in both languages.

Everything about games comes from the service's replies (``bot.i18n``); these are only the words
of the Discord surface.
"""

from __future__ import annotations

import discord

from bot.i18n import Count

TEXTS: dict[str, tuple[str, str]] = {
    "button.join": ("Join", "参加"),
    "button.leave": ("Leave", "退出"),
    "button.start": ("Start", "開始"),
    "button.cancel": ("Cancel", "取消"),
    "button.accept": ("Accept", "受ける"),
    "button.decline": ("Decline", "断る"),
    "button.move": ("Move", "指す"),
    "button.setup": ("Setup", "配置"),
    "button.resign": ("Resign", "投了"),
    "button.offer_draw": ("Draw", "引き分け"),
    "button.accept_draw": ("Accept draw", "引き分けを受ける"),
    "button.decline_draw": ("Decline draw", "引き分けを断る"),
    "button.takeback": ("Takeback", "待った"),
    "button.accept_takeback": ("Allow takeback", "待ったを認める"),
    "button.decline_takeback": ("Refuse takeback", "待ったを断る"),
    "button.board": ("Board", "盤面"),
    "button.moves": ("Moves", "手順"),
    "button.record": ("Record", "棋譜"),
    "button.pass": ("Pass", "パス"),
    "button.play": ("Play", "着手"),
    "button.step_first": ("⏮ Start", "⏮ 最初"),
    "button.step_prev": ("◀ Back", "◀ 戻る"),
    "button.step_next": ("Next ▶", "進む ▶"),
    "button.step_last": ("End ⏭", "最後 ⏭"),
    "button.replay": ("▶ Play", "▶ 再生"),
    "select.goto": ("Jump to a move…", "手数を選ぶ…"),
    "select.start": ("The start", "開始局面"),
    "select.ply": ("Move {ply}", "{ply}手目"),
    "button.previous": ("◀ Previous", "◀ 前へ"),
    "button.next": ("Next ▶", "次へ ▶"),
    "button.rematch": ("Rematch", "再戦"),
    "modal.move.title": ("Your move in game #{game}", "対局 #{game} の指し手"),
    "modal.move.label": ("Move", "指し手"),
    "modal.move.placeholder": ("e.g. {example}", "例：{example}"),
    "modal.setup.title": ("Your secret setup for game #{game}", "対局 #{game} の秘密の配置"),
    "modal.setup.label": ("Setup", "配置"),
    "error.apology": (
        "Sorry, something went wrong on our side. The game is safe; please try again.",
        "申し訳ありません、内部でエラーが起きました。対局は無事です。もう一度お試しください。",
    ),
    "error.no_game_here": (
        "There is no game of yours in this channel. Use the game option (e.g. game: 12) "
        "or run the command in the game's thread.",
        "このチャンネルにはあなたの対局がありません。game オプション（例：game: 12）を"
        "指定するか、対局のスレッドで実行してください。",
    ),
    "error.cooldown": ("Slow down: try again in {seconds}s.", "{seconds}秒後にもう一度どうぞ。"),
    "error.no_permission": (
        "You need the {permission} permission for this.",
        "この操作には「{permission}」の権限が必要です。",
    ),
    "error.owner_only": ("Only the bot owner can do this.", "ボットの所有者だけが実行できます。"),
    "error.not_for_you": (
        "This challenge is not addressed to you.",
        "この挑戦はあなた宛てではありません。",
    ),
    "error.bad_opponent": (
        "Challenge other people: not yourself, not a bot.",
        "挑戦できるのは他の人だけです（自分やボットは選べません）。",
    ),
    "error.bad_day": (
        "{day!r} is not a day: write it as YYYY-MM-DD (e.g. 2026-01-31).",
        "「{day}」は日付として読めません。YYYY-MM-DD（例：2026-01-31）で書いてください。",
    ),
    "suggestions": ("Closest legal moves: {moves}", "近い合法手：{moves}"),
    "thread.name": ("#{game} {title}", "#{game} {title}"),
    "rules.link": ("Full rules: {link}", "詳しいルール：{link}"),
    "sync.done": (
        "Synced {count} {count:command|commands} globally.",
        "{count}個のコマンドを全体に同期しました。",
    ),
    "deadline": ("Deadline", "期限"),
    "to_move": ("To move", "手番"),
}

PERMISSION_NAMES: dict[str, tuple[str, str]] = {
    "manage_threads": ("Manage Threads", "スレッドの管理"),
    "manage_guild": ("Manage Server", "サーバー管理"),
    "administrator": ("Administrator", "管理者"),
}


def t(key: str, lang: str, **params: object) -> str:
    """The adapter's text ``key`` in ``lang`` (``en`` or ``ja``), formatted with ``params``."""
    en, ja = TEXTS[key]
    template = ja if lang.startswith("ja") else en
    values = {k: Count(v) if type(v) is int else v for k, v in params.items()}
    return template.format(**values) if params else template


def lang_of_locale(locale: discord.Locale | str | None, fallback: str = "en") -> str:
    """``ja`` for a Japanese Discord client, ``en`` for an English one, else ``fallback``."""
    value = str(locale or "")
    if value.startswith("ja"):
        return "ja"
    if value.startswith("en"):
        return "en"
    return fallback
