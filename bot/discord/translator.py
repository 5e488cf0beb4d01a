"""Japanese localisations of the slash commands (名前と説明の日本語化).

Commands are declared in English with ``locale_str``; :class:`BanmenTranslator` gives Discord the
Japanese name or description for the ``ja`` locale from :data:`JA`. Game titles and option help
come from the engines' bilingual texts through ``locale_str(..., ja=...)`` extras.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands

JA: dict[str, str] = {
    # command names
    "play": "対局",
    "move": "指す",
    "board": "盤面",
    "open": "盤を開く",
    "moves": "手順",
    "resign": "投了",
    "draw": "引き分け",
    "takeback": "待った",
    "record": "棋譜",
    "games": "対局一覧",
    "rules": "ルール",
    "abort": "中止",
    "settings": "設定",
    "setup": "配置",
    "sync": "同期",
    "join": "参加",
    "stats": "成績",
    "daily": "日替わり",
    "replay": "再生",
    "import": "取り込み",
    "rating": "レーティング",
    "leaderboard": "ランキング",
    "hint": "ヒント",
    "Join an open game (a lobby).": "募集中の対局に参加します。",
    "The game number (e.g. 12).": "対局番号（例：12）。",
    # command descriptions
    "Start a game: challenge players, or open a lobby anyone can join.": (
        "対局を始めます。相手を指名して挑戦するか、誰でも参加できる募集を出します。"
    ),
    "Make a move in this game (the choices are the legal moves).": (
        "この対局で手を指します（候補は合法手です）。"
    ),
    "Show the board of this game.": "この対局の盤面を表示します。",
    "Open this game's board in Discord (an Activity), or its page on the site.": (
        "この対局の盤をDiscordの中（アクティビティ）で、またはサイトのページで開きます。"
    ),
    "Show the moves played so far.": "これまでの指し手を表示します。",
    "Resign this game.": "この対局を投了します。",
    "Offer a draw, or answer an offer.": "引き分けを提案するか、提案に答えます。",
    "Take back your last move, or answer a request.": (
        "直前の手を戻すか、待ったの申し出に答えます。"
    ),
    "Get the game record as a file.": "棋譜をファイルで受け取ります。",
    "Replay this game as an animation, with buttons to step through it.": (
        "この対局をアニメーションで再生します（ボタンで一手ずつ見られます）。"
    ),
    "Import a game record (.json, .kifu or .kif) as an unrated game you can replay.": (
        "棋譜（.json、.kifu、.kif）を取り込み、再生できる対局（レーティング対象外）にします。"
    ),
    "Your active games, those where it is your move first.": (
        "参加中の対局（手番の対局が先）を表示します。"
    ),
    "A game's rules, page by page.": "ゲームのルールを図付きでページごとに表示します。",
    "Stop a game without a result (moderators).": "対局を結果なしで中止します（モデレーター）。",
    "Server settings: language, threads, default clock, limits (admins).": (
        "サーバー設定：言語、スレッド、既定の持ち時間、上限（管理者）。"
    ),
    "Submit your secret setup (only you see it).": (
        "秘密の初期配置を提出します（自分だけに表示）。"
    ),
    "Sync the slash commands globally (bot owner).": (
        "スラッシュコマンドを全体に同期します（所有者）。"
    ),
    "Statistics: games, wins, win rate and streaks.": "成績：対局数、勝ち数、勝率、連勝。",
    "Today's deal of the tarot solitaire: the same for everyone, once a day.": (
        "タロットの一人遊びの今日の一局：全員に同じ配り、一日一回。"
    ),
    "Play today's deal (the same for everyone, UTC day).": (
        "今日の一局を遊びます（協定世界時の一日ごとに全員同じ配り）。"
    ),
    "This server's results for a day's deal.": "このサーバーのその日の一局の結果。",
    "The solitaire's choices with their estimated win chances (only for you).": (
        "一人遊びの選択肢と推定勝率を表示します（自分だけに表示）。"
    ),
    "Play today's deal instead (the same for everyone, once a day, UTC).": (
        "代わりに今日の一局を遊びます（全員同じ配り、協定世界時で一日一回）。"
    ),
    "Ratings: number, record and last rated games.": (
        "レーティング：数値、成績、最近のレーティング対局。"
    ),
    "The best ratings of a game, here or everywhere.": (
        "ゲームごとのレーティング上位（このサーバー、または全体）。"
    ),
    # option names
    "game": "ゲーム",
    "opponent": "相手",
    "opponent2": "相手2",
    "players": "人数",
    "clock": "持ち時間",
    "answer": "返事",
    "key": "項目",
    "value": "値",
    "text": "内容",
    "notation": "指し手",
    "user": "ユーザー",
    "day": "日付",
    "file": "ファイル",
    "scope": "範囲",
    "provisional": "暫定も表示",
    "share": "共有",
    "rated": "レーティング",
    "level": "レベル",
    "ai_seats": "ai席",
    # option descriptions
    "The game (default: the game of this thread).": "対局（省略時はこのスレッドの対局）。",
    "Which game.": "どのゲームか。",
    "Your move, as the game writes it (any spelling is read).": (
        "指し手（盤面や棋譜と同じ表記。ほかの書き方も読めます）。"
    ),
    "The player you challenge (none: an open lobby; this bot: the computer).": (
        "挑戦する相手（省略すると募集。このボットを選ぶとコンピュータ対局）。"
    ),
    "The third player (three-player games).": "三人目の相手（三人用ゲーム）。",
    "How many players.": "人数。",
    "Play the computer at this level, 1 (weakest) to 8 (strongest).": (
        "このレベルのコンピュータと対局します。1（最弱）〜8（最強）。"
    ),
    "How many seats the computer takes (the others: players).": (
        "コンピュータが座る席の数（残りは人の席）。"
    ),
    "Time per move: none, live:5 (minutes), corr:3 (days), bank:7d+1d/14d.": (
        "持ち時間：none、live:5（分）、corr:3（日）、bank:7d+1d/14d。"
    ),
    "Accept or decline the other player's request.": "相手の申し出を受けるか断るか。",
    "The setting to change (none: show them all).": "変更する項目（省略すると一覧）。",
    "The new value.": "新しい値。",
    "Your setup, in the game's notation.": "初期配置（そのゲームの表記）。",
    "Only this game (default: every game).": "このゲームだけ（省略するとすべて）。",
    "Whose statistics (default: yours).": "誰の成績か（省略すると自分）。",
    "The day, YYYY-MM-DD (default: today, UTC).": "日付 YYYY-MM-DD（省略すると今日、協定世界時）。",
    "The record file, as /record gives it.": "棋譜ファイル（/record で受け取れる形式）。",
    "Whose ratings (default: yours).": "誰のレーティングか（省略すると自分）。",
    "Show it to the channel (default: only to you).": "チャンネルに表示する（省略時は自分だけ）。",
    "This server (default) or all servers.": "このサーバー（既定）か全サーバーか。",
    "Also list provisional players (too few rated games).": (
        "暫定の人（レーティング対局がまだ少ない人）も表示します。"
    ),
    "Rated (the default between people); false: a casual game.": (
        "レーティング対局にするか（人同士では既定で対象）。false で非公式戦。"
    ),
    # choice names
    "accept": "受ける",
    "decline": "断る",
    "language": "言語",
    "threads": "スレッド",
    "default clock": "既定の持ち時間",
    "games per user": "一人あたりの対局数",
    "games per server": "サーバーの対局数",
    # /learn (issue 31)
    "learn": "レッスン",
    "Interactive lessons: a game's next lesson, or the menu with your stars.": (
        "対話式のレッスン。ゲームの次のレッスン、または星の一覧を表示します。"
    ),
    "Which game (leave empty for the menu of all lessons).": (
        "どのゲームか（空欄ならレッスン一覧）。"
    ),
    # correspondence life (issue 33): /vacation
    "vacation": "休暇",
    "on": "開始",
    "off": "終了",
    "status": "状態",
    "Stop your correspondence clocks while you are away.": "不在の間、通信対局の時計を止めます。",
    "Go on vacation: your correspondence clocks stand still.": (
        "休暇に入ります。通信対局の時計が止まります。"
    ),
    "When you are back: 2026-08-31, 2026-08-31 18:00 (UTC) or 10d (default: until off).": (
        "戻る日時：2026-08-31、2026-08-31 18:00（UTC）または10d（既定：終了するまで）。"
    ),
    "Back from vacation: your clocks run again.": "休暇を終えます。時計が再び動きます。",
    "Whether you are on vacation, and the allowance left.": "休暇中かどうかと、残りの休暇日数。",
    "premove": "条件手",
    "archive finished threads after": "終局スレッドのアーカイブまで",
    "notify": "通知",
    "How you are told: turn pings, a daily digest by DM, quiet hours.": (
        "通知の受け取り方：手番の通知、毎日のまとめ（DM）、おやすみ時間。"
    ),
    "A ping in the thread on your turn (default on).": "手番のときスレッドで通知（既定：on）。",
    "A daily direct message with your games (default off).": (
        "対局の毎日のまとめをDMで（既定：off）。"
    ),
    "The digest's hour, in your time zone (0-23; default 8).": (
        "まとめの時刻（あなたの時刻で0〜23、既定8）。"
    ),
    "Your time zone, e.g. Asia/Tokyo (default UTC).": "タイムゾーン（例：Asia/Tokyo、既定UTC）。",
    "Quiet hours, e.g. 22-7 (messages come silently), or off.": (
        "おやすみ時間（例：22-7、通知なしで届きます）または off。"
    ),
    "add": "追加",
    "list": "一覧",
    "clear": "消去",
    "Conditional moves: if they play X, you reply Y (kept privately).": (
        "条件付きの手：相手がXを指したらYで応じます（非公開）。"
    ),
    "Add a line: their move, your reply, …": "行を追加します：相手の手、あなたの応手…",
    "Their move, your reply (then their next, your reply …), space-separated.": (
        "相手の手、あなたの応手（続けて相手の手、応手…）を空白で区切って。"
    ),
    "Your conditional moves in this game.": "この対局でのあなたの条件付きの手。",
    "Forget your conditional moves here.": "この対局の条件付きの手を消します。",
    # tournaments (issue 34)
    "tournament": "大会",
    "create": "作成",
    "start": "開始",
    "standings": "順位",
    "withdraw": "棄権",
    "remove": "除外",
    "cancel": "中止",
    "Call off a tournament that has not started (managers).": (
        "開始前の大会を中止します（マネージャー）。"
    ),
    "Tournaments in this server.": "このサーバーの大会。",
    "Create a tournament (managers).": "大会を作成します（マネージャー）。",
    "Start a tournament now.": "大会を今すぐ開始します。",
    "A tournament's standings.": "大会の順位表を表示します。",
    "Leave a tournament (your remaining games are lost).": (
        "大会を棄権します（残りの対局は負けになります）。"
    ),
    "Take a player out of a tournament (managers).": (
        "大会からプレイヤーを除外します（マネージャー）。"
    ),
    "The rule set.": "ルール（ゲーム）。",
    "How players are paired.": "組み合わせの方式。",
    "The clock of every game (default: the server's).": "各対局の持ち時間（既定: サーバー設定）。",
    "Rate the games (default: yes).": "対局をレーティング対象にします（既定: はい）。",
    "Rounds (Swiss and tables of three).": "ラウンド数（スイス式と3人卓）。",
    "The most players it takes.": "参加できる最大人数。",
    "Hours until it starts by itself (none: /tournament start).": (
        "自動開始までの時間（なし: /tournament start で開始）。"
    ),
    "Its name.": "大会名。",
    "The tournament number.": "大会番号。",
    "The player.": "プレイヤー。",
    "round-robin": "総当たり",
    "double round-robin": "2回総当たり",
    "Swiss": "スイス式",
    "tables of three (三国志)": "3人卓（三国志）",
    "tournament managers (a role)": "大会マネージャー（ロール）",
}

_NAME = re.compile(r"^[-_\w]{1,32}$")


class BanmenTranslator(app_commands.Translator):
    """English strings to Japanese (``ja``); an extra ``ja=`` on a ``locale_str`` wins."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is not discord.Locale.japanese:
            return None
        text = string.extras.get("ja") or JA.get(string.message)
        if text is None:
            return None
        location = context.location
        if location in (
            app_commands.TranslationContextLocation.command_name,
            app_commands.TranslationContextLocation.group_name,
            app_commands.TranslationContextLocation.parameter_name,
        ) and not _NAME.match(text):
            return None
        if location is app_commands.TranslationContextLocation.choice_name:
            return text[:100]
        return text[:100] if len(text) > 100 else text
