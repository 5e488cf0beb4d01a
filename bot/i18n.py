"""The message catalogue: every message the host says, in English and Japanese.

:func:`t` renders a key with parameters. Parameters may be plain values, an
``engines.core.Text`` (resolved to the language), a ``datetime`` (shown in UTC), a ``timedelta``
(a short duration) or a list (joined).

A count picks its noun in the template: ``{open} {open:seat|seats}`` reads "1 seat" or "2 seats"
(Japanese templates need no plural).
"""

from __future__ import annotations

import unicodedata
from datetime import datetime, timedelta
from typing import Any

from bot.clock import remaining_text
from bot.lang import Lang as Lang
from engines.core import Text

MESSAGES: dict[str, tuple[str, str]] = {
    # -- refusals ---------------------------------------------------------------------------
    "refuse.unknown_game": ("There is no game #{id}.", "対局 #{id} はありません。"),
    "refuse.button_target": (
        "That button does not belong here: nothing was done.",
        "このボタンはここでは使えません。何も変わっていません。",
    ),
    "refuse.button_argument": (
        "That button's value is not understood: nothing was done.",
        "このボタンの値を読み取れません。何も変わっていません。",
    ),
    "refuse.unknown_game_type": ("{reason}", "{reason}"),
    "refuse.not_a_player": (
        "You are not a player in game #{id}.",
        "あなたは対局 #{id} の対局者ではありません。",
    ),
    "refuse.not_your_turn": (
        "It is not your turn in game #{id}: {to_move} to move.",
        "対局 #{id} はあなたの手番ではありません（手番: {to_move}）。",
    ),
    "refuse.broken_game": (
        "Game #{id} no longer replays with this version of its rules; a moderator has been told.",
        "対局 #{id} は現在のルール実装では再現できません。管理者に報告しました。",
    ),
    "refuse.game_over": ("Game #{id} is over.", "対局 #{id} は終了しています。"),
    "refuse.not_finished": (
        "Game #{id} has no result to play again: a rematch follows a finished game.",
        "対局 #{id} には結果がありません。再戦は終局した対局のあとにできます。",
    ),
    "refuse.rematch_waiting": (
        "The rematch is already asked for: game #{id} waits for the others.",
        "再戦はすでに申し込まれています。対局 #{id} が相手の返事を待っています。",
    ),
    "refuse.not_started": (
        "Game #{id} has not started yet: it is waiting for players.",
        "対局 #{id} はまだ始まっていません（参加者を待っています）。",
    ),
    "refuse.already_started": (
        "Game #{id} has already started (or ended).",
        "対局 #{id} はすでに始まっています（または終了しています）。",
    ),
    "refuse.bad_move": ("{reason}", "{reason}"),
    "refuse.bad_text": (
        "That text holds characters I cannot take (half of a character pair, or a control "
        "character such as NUL): nothing was changed.",
        "受け付けられない文字（対になっていないサロゲート、NUL などの制御文字）が含まれています。"
        "何も変更していません。",
    ),
    "refuse.store_uncertain": (
        "The game store stopped answering while saving this; it may or may not have been "
        "saved. Look at the game before you try again.",
        "保存の途中で対局データベースが応答しなくなりました。保存されたかどうか分かりません。"
        "もう一度試す前に対局の状況を確かめてください。",
    ),
    "refuse.store_unreachable": (
        "The game store is unreachable; nothing was changed, try again shortly.",
        "対局データベースに接続できません。何も変更していません。少し待ってからもう一度"
        "お試しください。",
    ),
    "refuse.suggestions": ("Closest legal moves: {moves}", "近い合法手：{moves}"),
    "refuse.too_long": (
        "That is too long for a move ({length} characters; at most {limit}).",
        "指し手として長すぎます（{length}文字、最大{limit}文字）。",
    ),
    "refuse.position_changed": (
        "The position of game #{id} has changed since you looked: look at the board and try again.",
        "対局 #{id} の局面が変わりました。盤面を確認してからもう一度どうぞ。",
    ),
    "refuse.setup_done": (
        "You have already sent your setup for game #{id}.",
        "対局 #{id} の配置はすでに送信済みです。",
    ),
    "refuse.not_setup": (
        "Game #{id} is not at a secret setup: use /move.",
        "対局 #{id} は秘密の配置の段階ではありません。/move を使ってください。",
    ),
    "refuse.use_setup": (
        "Game #{id} is at a secret setup: send yours with /setup (only you will see it).",
        "対局 #{id} は秘密の配置の段階です。/setup で送ってください（あなたにしか見えません）。",
    ),
    "refuse.game_full": ("Game #{id} has no free seat.", "対局 #{id} に空席はありません。"),
    "refuse.not_invited": (
        "Game #{id} is a challenge: only the invited players can accept or decline it.",
        "対局 #{id} は挑戦状です。受けたり断ったりできるのは招待された人だけです。",
    ),
    "refuse.same_player_twice": (
        "Each player can take only one seat: name each opponent once, and not yourself.",
        "一人が座れる席は一つだけです。相手は一度ずつ指定し、自分自身は指定しないでください。",
    ),
    "refuse.cannot_rate": (
        "{game} with a computer player or a single player cannot be rated: leave rated out "
        "(or set it to false).",
        "コンピューターとの対局や一人用の{game}はレーティング対象にできません。rated を指定しないか"
        " false にしてください。",
    ),
    "refuse.unrated_game": (
        "{game} is a solitaire: it has no ratings.",
        "{game}は一人用のゲームなのでレーティングはありません。",
    ),
    "refuse.rebuild_busy": (
        "Games kept being rated while the ratings were rebuilt; nothing was changed: try again.",
        "再計算中に対局の結果が入り続けたため、何も変更していません。もう一度実行してください。",
    ),
    "refuse.other_server": (
        "Game #{id} is not a game of this server.",
        "対局 #{id} はこのサーバーの対局ではありません。",
    ),
    "refuse.already_joined": (
        "You already have a seat in game #{id}.",
        "あなたはすでに対局 #{id} に参加しています。",
    ),
    "refuse.limit_user": (
        "{name} already has {limit} open or running {limit:game|games} (the limit).",
        "{name}さんはすでに上限の{limit}局を対局中・募集中です。",
    ),
    "refuse.limit_guild": (
        "This server already has {limit} open or running {limit:game|games} (the limit).",
        "このサーバーの対局数が上限（{limit}局）に達しています。",
    ),
    "refuse.bad_option": ("{reason}", "{reason}"),
    "refuse.takeback_limit": (
        "You have used all your takebacks in game #{id} (at most {limit} a game).",
        "対局 #{id} の待ったは使い切りました（1局に{limit}回まで）。",
    ),
    "refuse.draw_again": (
        "You offered a draw in game #{id} not long ago: you may offer again from move {at}.",
        "対局 #{id} では少し前に引き分けを提案しています。{at}手目からもう一度提案できます。",
    ),
    "refuse.bad_clock": (
        "That is not a clock: write none, live:5 (minutes per move), corr:3 (days per move) "
        "or bank:7d+1d/14d (a bank, plus a bonus per move, up to a cap).",
        "持ち時間として読めません。none、live:5（1手の分数）、corr:3（1手の日数）、"
        "bank:7d+1d/14d（持ち時間＋1手ごとの加算／上限）のように書いてください。",
    ),
    "refuse.clock_range": (
        "That clock cannot be used: {part} must be {range}.",
        "その持ち時間は使えません。{part}は{range}にしてください。",
    ),
    "refuse.too_many_players": (
        "{game} is for {players} {players:player|players}: too many were named.",
        "{game}は{players}人用です。指名した人数が多すぎます。",
    ),
    "refuse.bad_level": (
        "There is no AI level {level}: choose a level from {low} (weakest) to {high} (strongest).",
        "AIのレベル{level}はありません。{low}（最弱）〜{high}（最強）から選んでください。",
    ),
    "refuse.no_ai_solo": (
        "{game} is a solitaire: it has no opponent to play. Use /hint for advice.",
        "{game}は一人遊びなので、相手はいません。助言は /hint でどうぞ。",
    ),
    "refuse.no_hint": (
        "Hints are for solitaires only (略式易双六): game #{id} has opponents.",
        "ヒントは一人遊び（略式易双六）専用です。対局 #{id} には相手がいます。",
    ),
    "refuse.not_full": (
        "Game #{id} still has {open} free {open:seat|seats}.",
        "対局 #{id} にはまだ空席が{open}つあります。",
    ),
    "refuse.creator_leaves": (
        "You created game #{id}: cancel it instead of leaving.",
        "対局 #{id} はあなたが作成したものです。退出ではなく中止してください。",
    ),
    "refuse.no_offer": (
        "There is no offer for you to answer in game #{id}.",
        "対局 #{id} にあなたが答えるべき申し出はありません。",
    ),
    "refuse.already_offered": (
        "An offer is already waiting for an answer in game #{id}.",
        "対局 #{id} ではすでに申し出が返事を待っています。",
    ),
    "refuse.two_player_only": (
        "Draw offers are for two-player games only.",
        "引き分けの提案は二人用の対局でのみできます。",
    ),
    "refuse.computer_plays_on": (
        "The computer does not agree to draws in game #{id}: play on, or resign.",
        "対局 #{id} のコンピューターは引き分けに応じません。指し続けるか、投了してください。",
    ),
    "refuse.no_takeback": (
        "There is no move of yours that can be taken back in game #{id}.",
        "対局 #{id} には待ったできるあなたの手がありません。",
    ),
    "refuse.not_creator": (
        "Only the player who created game #{id} can do that.",
        "対局 #{id} の作成者だけが行えます。",
    ),
    "refuse.not_moderator": (
        "Only a moderator can abort a game.",
        "対局の中止はモデレーターだけが行えます。",
    ),
    "refuse.bad_record": (
        "That is not a record I can import: {reason}",
        "取り込めない棋譜です: {reason}",
    ),
    "refuse.no_pictures": (
        "Game #{id} has no pictures to replay.",
        "対局 #{id} には再生できる盤面図がありません。",
    ),
    "refuse.replay_too_large": (
        "Even a short replay of game #{id} does not fit the upload limit here ({limit} bytes).",
        "対局 #{id} の再生は、短くしてもここでのアップロード上限（{limit}バイト）に収まりません。",
    ),
    "refuse.daily_done": (
        "You have already played today's deal. A new one comes at 00:00 UTC.",
        "今日の一局はもう遊びました。次は協定世界時 0 時に配られます。",
    ),
    "refuse.daily_private": (
        "Game #{id} is a deal of the day ({day}): until that day's deal is over for everyone, "
        "only its player may look at it.",
        "対局 #{id} は {day} の今日の一局です。その日の一局を皆が打ち終えるまで、見られるのは"
        "その対局者だけです。",
    ),
    "refuse.bad_setting": (
        "There is no server setting {key!r} (settings: {keys}).",
        "「{key}」という設定はありません（設定: {keys}）。",
    ),
    "refuse.bad_setting_value": (
        "The setting {key} cannot be {value!r}.",
        "設定 {key} に「{value}」は使えません。",
    ),
    # -- games ------------------------------------------------------------------------------
    "game.created": (
        "Game #{id} of {game} is open: {open} {open:seat|seats} free. Join with /join {id}.",
        "{game}の対局 #{id} を募集中です（空席{open}）。/join {id} で参加できます。",
    ),
    "game.joined": (
        "{name} joined game #{id} ({open} {open:seat|seats} still free).",
        "{name}さんが対局 #{id} に参加しました（残りの空席{open}）。",
    ),
    "game.left": ("{name} left game #{id}.", "{name}さんが対局 #{id} から退出しました。"),
    "game.started": (
        "Game #{id} of {game} begins. {players}",
        "{game}の対局 #{id} を開始します。{players}",
    ),
    "game.cancelled": ("Game #{id} was cancelled.", "対局 #{id} は中止されました。"),
    "challenge.created": (
        "{invited}: you are challenged to game #{id} of {game}. Accept or decline.",
        "{invited}さん、{game}の対局 #{id} への挑戦状が届きました。"
        "受けるか断るかを選んでください。",
    ),
    "rematch.created": (
        "{name} asks for a rematch of game #{old}: game #{id} of {game}, seats turned. "
        "{invited}: accept or decline.",
        "{name}さんが対局 #{old} の再戦を申し込みました（{game}の対局 #{id}、席を入れ替え）。"
        "{invited}さん、受けるか断るかを選んでください。",
    ),
    "challenge.declined": (
        "{name} declined the challenge: game #{id} is withdrawn.",
        "{name}さんが挑戦を断りました。対局 #{id} は取り下げられました。",
    ),
    "challenge.expired": (
        "Nobody answered the challenge in time: game #{id} is withdrawn.",
        "挑戦状の期限が切れました。対局 #{id} は取り下げられました。",
    ),
    "game.resigned": ("Game #{id}: {result}", "対局 #{id}: {result}"),
    "game.aborted": (
        "Game #{id} was aborted by {name}: no result.",
        "対局 #{id} は{name}さんにより中止されました（勝敗なし）。",
    ),
    "game.timeout": ("Game #{id}: time is up. {result}", "対局 #{id}: 時間切れです。{result}"),
    "game.result": ("Result: {result}", "結果: {result}"),
    "game.winner": ("Winner: {names}", "勝者: {names}"),
    "game.winners": ("Winners: {names}", "勝者: {names}"),
    "game.winner_seat": ("{name} ({seat})", "{name}さん（{seat}）"),
    "lobby.with_ai": (
        "The computer (level {levels}) takes a seat: the game will not be rated.",
        "コンピュータ（レベル{levels}）が参加します（レーティング対象外）。",
    ),
    "game.vs_ai": (
        "A game against the computer (level {levels}): not rated.",
        "コンピュータ（レベル{levels}）との対局です（レーティング対象外）。",
    ),
    "hint.show": (
        "Hint for game #{id} (win chances from up to {samples} sampled futures, "
        "never from the real deck):",
        "対局 #{id} のヒント（勝率は最大{samples}通りの仮想の展開から推定。"
        "実際の山札は見ていません）:",
    ),
    "hint.item": (
        "{move}: {chance}% ({samples} {samples:sample|samples})",
        "{move}: {chance}%（{samples}回）",
    ),
    "turn.next": ("{to_move} to move.", "手番: {to_move}"),
    "turn.deadline": ("Deadline: {deadline}", "期限: {deadline}"),
    # -- moves ------------------------------------------------------------------------------
    "move.played": ("#{id} {ply}. {name}: {move}", "#{id} {ply}手目 {name}: {move}"),
    "card.seat": (
        "{turn}**{side}** · {name}{hand}{place}",
        "{turn}**{side}** · {name}{hand}{place}",
    ),
    "card.hand": (" · hand: {hand}", " · 持ち駒: {hand}"),
    "card.place": (" · place {place} of {of}", " · {of}人中{place}位"),
    "move.listed": ("{ply}. {name}: {move}", "{ply}手目 {name}: {move}"),
    "button.explore_step": ("Step in", "進む"),
    "explore.back": ("◀ Back", "◀ 戻る"),
    "ai.folded": ("#{id} The computer's {count} moves:", "#{id} コンピュータの{count}手:"),
    "move.chance": ("Chance: {move}", "偶然: {move}"),
    "move.announcement": ("{text}", "{text}"),
    "setup.accepted": (
        "Your setup for game #{id} is in: {move} (only you can see it).",
        "対局 #{id} の配置を受け付けました: {move}（あなたにしか見えません）。",
    ),
    "setup.changed": (
        "Your setup for game #{id} is changed: {move} (only you can see it).",
        "対局 #{id} の配置を変更しました: {move}（あなたにしか見えません）。",
    ),
    "setup.changed_public": (
        "{name} has changed their secret setup for game #{id}.",
        "{name}さんが対局 #{id} の秘密の配置を変更しました。",
    ),
    "setup.waiting": (
        "{name} has sent a secret setup for game #{id}.",
        "{name}さんが対局 #{id} の秘密の配置を送りました。",
    ),
    "setup.revealed": (
        "Every setup of game #{id} is in: the board is revealed.",
        "対局 #{id} の配置がそろいました。盤面を公開します。",
    ),
    "draw.offered": (
        "{name} offers a draw in game #{id}.",
        "{name}さんが対局 #{id} で引き分けを提案しました。",
    ),
    "draw.agreed": ("Game #{id} is drawn by agreement.", "対局 #{id} は合意により引き分けです。"),
    "draw.declined": ("{name} declined the draw.", "{name}さんが引き分けの提案を断りました。"),
    "takeback.offered": (
        "{name} asks to take back their last move in game #{id}.",
        "{name}さんが対局 #{id} で待ったを求めています。",
    ),
    "takeback.declined": ("{name} declined the takeback.", "{name}さんが待ったを断りました。"),
    "takeback.done": (
        "Game #{id}: the last move of {name} was taken back.",
        "対局 #{id}: {name}さんの最後の手を戻しました。",
    ),
    "clock.reminder": (
        "Game #{id}: {to_move}, your move is due in {left}.",
        "対局 #{id}: {to_move}さん、手番の期限まであと{left}です。",
    ),
    # -- looking ----------------------------------------------------------------------------
    "board.open": (
        "Game #{id} of {game} (waiting for players). {players}",
        "{game}の対局 #{id}（参加者募集中）。{players}",
    ),
    "board.active": (
        "Game #{id} of {game}, {ply} {ply:move|moves}. {players}",
        "{game}の対局 #{id}、{ply}手。{players}",
    ),
    "board.finished": (
        "Game #{id} of {game} (finished). {players}",
        "{game}の対局 #{id}（終局）。{players}",
    ),
    "board.cancelled": ("Game #{id} of {game} (cancelled).", "{game}の対局 #{id}（中止）。"),
    "board.aborted": ("Game #{id} of {game} (aborted).", "{game}の対局 #{id}（中止）。"),
    "board.text": ("```\n{position}\n```", "```\n{position}\n```"),
    "moves.none": ("Game #{id} has no moves yet.", "対局 #{id} にはまだ指し手がありません。"),
    "moves.list": (
        "Moves of game #{id} ({count}):\n{moves}",
        "対局 #{id} の棋譜（{count}）:\n{moves}",
    ),
    "record.ready": ("The record of game #{id} is attached.", "対局 #{id} の棋譜を添付します。"),
    "record.no_sjis": (
        "No .kif in Shift-JIS: some characters of this record do not exist in it. The .kifu file "
        "is the same record in UTF-8.",
        "この棋譜には Shift-JIS にない文字があるため .kif は付けていません。.kifu が UTF-8 の"
        "同じ棋譜です。",
    ),
    "replay.alt": (
        "An animated replay of {plies} plies, ending on this position: {words}",
        "{plies}手の棋譜再生のアニメーション。最後の局面：{words}",
    ),
    "replay.ready": (
        "Replay of game #{id} ({game}): the start and {plies} {plies:move|moves}.",
        "対局 #{id}（{game}）の再生：開始局面と{plies}手。",
    ),
    "replay.fewer": (
        "{shown} of the {total} {total:picture|pictures} fit the upload limit here: the first, "
        "the last and evenly spaced ones between.",
        "アップロード上限のため、{total}枚のうち{shown}枚（最初・最後と等間隔）を表示しています。",
    ),
    "replay.sampled": (
        "A long game: the replay shows {shown} of its {total} pictures (the start, evenly "
        "spaced ones and the last {last} plies); step through it for every ply.",
        "長い対局のため、{total}枚のうち{shown}枚（最初、等間隔の局面、最後の{last}手）を"
        "表示しています。すべての手は一手ずつ再生で見られます。",
    ),
    "replay.smaller": (
        "The pictures are drawn at {percent}% size to fit the upload limit.",
        "アップロード上限のため、{percent}%の大きさで表示しています。",
    ),
    "replay.start": (
        "Game #{id} ({game}): the start (of {total} {total:move|moves}).",
        "対局 #{id}（{game}）：開始局面（全{total}手）。",
    ),
    "replay.step": (
        "Game #{id} ({game}): move {ply} of {total}, {move}.",
        "対局 #{id}（{game}）：{ply}手目（全{total}手）{move}。",
    ),
    "record.imported": (
        "Imported as game #{id} ({count} {count:move|moves}; unrated).",
        "対局 #{id} として取り込みました（{count}手、レーティング対象外）。",
    ),
    "games.list": ("Your games ({count}):", "あなたの対局（{count}）:"),
    "games.none": ("You have no open or running games.", "対局中・募集中の対局はありません。"),
    "games.item_turn": (
        "▶ #{id} {game} — your move {deadline} · {players}",
        "▶ #{id} {game} — あなたの手番 {deadline} · {players}",
    ),
    "games.item_active": (
        "  #{id} {game} — {to_move} to move · {players}",
        "  #{id} {game} — 手番: {to_move} · {players}",
    ),
    "games.item_open": (
        "  #{id} {game} (waiting) · {players}",
        "  #{id} {game}（募集中）· {players}",
    ),
    "stats.show": ("Statistics of {name}:", "{name}さんの成績:"),
    "stats.none": (
        "{name} has no finished games yet.",
        "{name}さんの終局した対局はまだありません。",
    ),
    "stats.item": (
        "{game}: {games} {games:game|games}, {wins} {wins:win|wins}, "
        "{losses} {losses:loss|losses}, {draws} {draws:draw|draws} ({rate}); "
        "streak {streak}, best {best}",
        "{game}: {games}局 {wins}勝 {losses}敗 {draws}分（勝率{rate}）連勝{streak}・最多{best}",
    ),
    # -- ratings ----------------------------------------------------------------------------
    "rating.change": (
        "Rating: {name} {before} → {after} ({delta})",
        "レーティング: {name} {before} → {after}（{delta}）",
    ),
    "rating.show": ("Ratings of {name}:", "{name}さんのレーティング:"),
    "rating.chart_alt": (
        "Chart of {name}'s rating over their last rated games; now {ratings}.",
        "{name}さんの最近のレーティング対局でのレーティングの推移のグラフ。現在は{ratings}。",
    ),
    "rating.none": (
        "{name} has no rated games yet.",
        "{name}さんのレーティング対局はまだありません。",
    ),
    "rating.none_in": (
        "{name} has no rated games of {game} yet.",
        "{name}さんの{game}のレーティング対局はまだありません。",
    ),
    "rating.item": (
        "{game}: {rating} · {games} rated {games:game|games} ({wins} {wins:win|wins}, "
        "{losses} {losses:loss|losses}, {draws} {draws:draw|draws})",
        "{game}: {rating}・レーティング対局{games}局（{wins}勝 {losses}敗 {draws}分）",
    ),
    "rating.recent": ("Last rated games:", "最近のレーティング対局:"),
    "rating.game": (
        "#{id} {game} vs {opponents}: {result}, {before} → {after} ({delta})",
        "#{id} {game} 対 {opponents}: {result}、{before} → {after}（{delta}）",
    ),
    "rating.result.win": ("won", "勝ち"),
    "rating.result.loss": ("lost", "負け"),
    "rating.result.draw": ("drew", "引き分け"),
    "rating.provisional": (
        "? = provisional: fewer than {games} rated games of that game.",
        "?は暫定（そのゲームのレーティング対局が{games}局未満）。",
    ),
    "leaderboard.show": (
        "{game} leaderboard, {scope} (page {page} of {pages}; {players} {players:player|players}):",
        "{game} レーティング順位・{scope}（{page}/{pages}ページ、{players}人）:",
    ),
    "leaderboard.item": (
        "{place}. {name} {rating} · {games} {games:game|games} ({wins}-{losses}-{draws})",
        "{place}. {name} {rating}・{games}局（{wins}勝{losses}敗{draws}分）",
    ),
    "leaderboard.empty": (
        "Nobody is on the {game} leaderboard ({scope}) yet: players appear after {games} rated "
        "games (provisional:true lists everyone).",
        "{game}のレーティング順位（{scope}）にはまだ誰もいません。レーティング対局{games}局で"
        "載ります（provisional:true で暫定の人も表示）。",
    ),
    "leaderboard.empty_all": (
        "Nobody has played rated games of {game} ({scope}) yet.",
        "{game}のレーティング対局（{scope}）はまだありません。",
    ),
    "leaderboard.scope.server": ("this server", "このサーバー"),
    "leaderboard.scope.global": ("all servers", "全サーバー"),
    "ratings.rebuilt": (
        "Rebuilt the ratings from {games} rated games: {ratings} ratings, {differ} differed from "
        "the stored ones.",
        "レーティング対局{games}局からレーティングを再計算しました: {ratings}件、保存値と違ったもの"
        "{differ}件。",
    ),
    "settings.saved": ("Server setting {key} = {value}.", "サーバー設定 {key} = {value}。"),
    "daily.board": ("Daily deal of {day}:", "{day} の今日の一局:"),
    "daily.empty": (
        "Nobody has played the deal of {day} yet.",
        "{day} の一局はまだ誰も遊んでいません。",
    ),
    "daily.item": (
        "{name} (#{id}, {ply} {ply:move|moves}): {result}",
        "{name}（#{id}、{ply}手）: {result}",
    ),
    # -- outcome texts made by the host -----------------------------------------------------
    "outcome.timeout": ("{names} ran out of time: {rest}", "{names}さんの時間切れ。{rest}"),
    "outcome.timeout_all": (
        "Nobody sent their setup in time: the game is void.",
        "誰も期限内に配置を送らなかったため、対局は無効です。",
    ),
    "outcome.resigned": ("{names} resigned: {rest}", "{names}さんの投了。{rest}"),
    "outcome.wins": ("{name} wins.", "{name}さんの勝ち。"),
    "outcome.share_first": ("{names} share first place.", "{names}さんが同率一位。"),
    "outcome.solo_lost": ("the game is lost.", "この一局は負けです。"),
    "outcome.aborted": ("Aborted by {name}.", "{name}さんにより中止。"),
    "outcome.agreed": ("Draw by agreement.", "合意による引き分け。"),
    # -- sandbox ----------------------------------------------------------------------------
    "sandbox.welcome": (
        "Banmen sandbox: you are {name}. Type /help for commands.",
        "盤面サンドボックス: あなたは{name}です。/help でコマンド一覧。",
    ),
    "sandbox.no_token": (
        "No DISCORD_TOKEN is set: starting the terminal sandbox instead.",
        "DISCORD_TOKEN が設定されていないため、端末サンドボックスを起動します。",
    ),
    "sandbox.private": ("(only for {name})", "（{name}さんにだけ表示）"),
    "sandbox.as": ("You are now {name}.", "あなたは今{name}です。"),
    "sandbox.unknown": (
        "Unknown command {command!r}: type /help.",
        "不明なコマンド「{command}」: /help を見てください。",
    ),
    "sandbox.usage": ("Usage: {usage}", "使い方: {usage}"),
    "sandbox.image": ("[image: {path}]", "[画像: {path}]"),
    "sandbox.image_alt": ("[alt: {words}]", "[代替テキスト: {words}]"),
    "sandbox.file": ("[file: {path}]", "[ファイル: {path}]"),
    "sandbox.buttons": ("  buttons: {buttons}", "  ボタン: {buttons}"),
    "sandbox.no_game": (
        "Which game? Give its number (e.g. /move 3 四04占) or start one with /play.",
        "どの対局ですか。番号を付けるか（例: /move 3 四04占）、/play で始めてください。",
    ),
    "sandbox.games": ("Games: {games}", "ゲーム: {games}"),
    "sandbox.pages": (
        "Page {page} of {pages}: {usage} for another.",
        "{page}/{pages}ページ。ほかのページは {usage}。",
    ),
    "sandbox.rules_sections": ("Sections: {sections}", "章: {sections}"),
    "sandbox.which_game": (
        "Which game? It is your turn in {games}: name one (e.g. /move {example} <move>, or "
        "game={example}).",
        "どの対局ですか。{games} であなたの手番です。番号を付けてください（例: /move {example} "
        "<指し手>、または game={example}）。",
    ),
    "sandbox.to_game": ("→ game #{id}", "→ 対局 #{id}"),
    "sandbox.legal_more": (
        "({shown} of {total} shown: type the start of a move to see the others, e.g. /legal 12)",
        "（{total}手のうち{shown}手を表示。続きは指し手の先頭を入力して絞り込めます。"
        "例: /legal 12）",
    ),
    "sandbox.cannot_read": (
        "I cannot read {path}: {reason}.",
        "{path} を読めません: {reason}。",
    ),
    "sandbox.no_clock": (
        "/tick needs the sandbox clock",
        "/tick にはサンドボックスの時計が必要です",
    ),
    "sandbox.bad_tick": (
        "I cannot move the sandbox clock by {text!r}: give 1 second to 366 days (e.g. 90s, 5m, "
        "3d), at most 10 years in all.",
        "サンドボックスの時計を「{text}」進めることはできません。1秒〜366日（例: 90s、5m、3d）、"
        "合計10年までにしてください。",
    ),
    "sandbox.help": (
        "Commands: /play <game> [@user ...] [@ai:LEVEL ...] [open=N] [clock=...] [rated=false] "
        "[seats=random|listed] [opt=value ...], /join <id>, "
        "/leave, /start, /cancel, /move [id] <move>, /setup [id] <move>, /board [id] "
        "[text [kind K | row R | last | moves SQUARE | clocks]], "
        "/moves [id], /legal [id] [text], /resign, /draw [accept|decline], "
        "/takeback [accept|decline], /abort, /record [id], /replay [id] [at=<move>], "
        "/rematch [id], /import <file>, /games, "
        "/stats [game] [user], /rating [user] [game], "
        "/leaderboard <game> [server|global] [page] [provisional], "
        "/daily [board [day]] (or /play yosuko daily), /hint [id], /rules <game> [page], "
        "/learn [game|lesson|restart|next|stop] (then /move, /legal, /hint play the lesson), "
        "/vacation on [until] | off | status, /premove [id] add <their move> <your reply> … | "
        "list | clear, /notify [ping=on|off] [digest=on|off] [hour=H] [timezone=Zone] "
        "[quiet=22-7|off], "
        "/as <user>, "
        "/lang en|ja, /tick [duration], /help, /quit. A game command goes to the game it names "
        "([id], or game=<id> anywhere), else to yours (for a move: the one where it is your "
        "turn), and says which when you have several.",
        "コマンド: /play <ゲーム> [@ユーザー ...] [@ai:レベル ...] [open=N] [clock=...] "
        "[rated=false] [seats=random|listed] [設定=値 ...]、/join <番号>、"
        "/leave、/start、/cancel、/move [番号] <指し手>、/setup [番号] <指し手>、/board [番号] "
        "[text [kind 種類 | row 列 | last | moves マス | clocks]]、"
        "/moves [番号]、/legal [番号] [文字]、/resign、/draw [accept|decline]、"
        "/takeback [accept|decline]、/abort、/record [番号]、/replay [番号] [at=<手数>]、"
        "/rematch [番号]、/import <ファイル>、/games、"
        "/stats [ゲーム] [ユーザー]、/rating [ユーザー] [ゲーム]、"
        "/leaderboard <ゲーム> [server|global] [ページ] [provisional]、"
        "/daily [board [日付]]（または /play yosuko daily）、/hint [番号]、"
        "/rules <ゲーム> [ページ]、"
        "/learn [ゲーム|レッスン|restart|next|stop]"
        "（そのあと /move・/legal・/hint でレッスンを指す）、"
        "/vacation on [戻る日時] | off | status、/premove [番号] add <相手の手> <応手> … | "
        "list | clear、/notify [ping=on|off] [digest=on|off] [hour=時] [timezone=地域] "
        "[quiet=22-7|off]、"
        "/as <ユーザー>、/lang en|ja、/tick [時間]、/help、/quit。対局のコマンドは番号"
        "（[番号] か game=<番号>）の対局へ、番号がなければあなたの対局（指し手はあなたの手番の"
        "対局）へ送られ、対局が複数あればどれかを表示します。",
    ),
    # -- words kept inside other messages -------------------------------------------------------
    "clock.part.live": ("a live clock's time per move", "ライブ対局の1手の持ち時間"),
    "clock.part.corr": ("a correspondence clock's time per move", "通信対局の1手の持ち時間"),
    "clock.part.bank": ("a time bank", "持ち時間（バンク）"),
    "clock.part.bonus": ("a time bank's bonus per move", "1手ごとの加算"),
    "clock.part.cap": ("a time bank's cap", "持ち時間の上限"),
    "list.and": ("{rest} and {last}", "{rest}さんと{last}"),
    "list.separator": (", ", "さんと"),
    "list.comma": (", ", "、"),
    "clock.unit.day": ("{n} {n:day|days}", "{n}日"),
    "clock.unit.hour": ("{n} {n:hour|hours}", "{n}時間"),
    "clock.unit.minute": ("{n} {n:minute|minutes}", "{n}分"),
    "clock.unit.second": ("{n} {n:second|seconds}", "{n}秒"),
    "clock.range": ("{low} to {high}", "{low}〜{high}"),
    "daily.playing": ("playing", "対局中"),
    "daily.not_in_thread": (
        "Start the deal of the day in a channel, not in a thread: it is played in a private "
        "thread of yours, opened from the channel.",
        "今日の一局はスレッドの中ではなくチャンネルで始めてください。チャンネルから開く"
        "あなた専用の非公開スレッドで打ちます。",
    ),
    "daily.needs_private": (
        "The deal of the day is played in a private thread (everyone gets the same deal, so "
        "nobody may watch another's), and Banmen may not open private threads in this channel. "
        "A moderator can allow Create Private Threads, or play it in a direct message to Banmen.",
        "今日の一局は非公開スレッドで打ちます（全員が同じ配牌なので、他の人の対局は見られません）。"
        "このチャンネルでは盤面が非公開スレッドを作れません。管理者が「プライベートスレッドの作成」"
        "を許可するか、盤面へのダイレクトメッセージで遊んでください。",
    ),
    "record.wrong_players": (
        "the record is for {players} players, not {given}",
        "この棋譜は{players}人用です（{given}人ではありません）",
    ),
    "record.not_banmen": ("Not a Banmen record: {reason}", "盤面の棋譜ではありません: {reason}"),
    # -- the Discord adapter's own words: buttons, the modal, apologies --------------------------
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
    "thread.name": ("#{game} {title}", "#{game} {title}"),
    "rules.first": ("⏮ First", "⏮ 最初"),
    "rules.prev": ("◀ Previous", "◀ 前へ"),
    "rules.next": ("Next ▶", "次へ ▶"),
    "rules.jump": ("Go to a section…", "章へ移動…"),
    "rules.page": ("Page {n} of {count}", "{n} / {count} ページ"),
    "rules.link": ("Full rules: {link}", "詳しいルール：{link}"),
    "sync.done": (
        "Synced {count} {count:command|commands} globally.",
        "{count}個のコマンドを全体に同期しました。",
    ),
    "embed.deadline": ("Deadline", "期限"),
    "embed.to_move": ("To move", "手番"),
    "picture.alt": ("A picture", "画像"),
    "review.chart_alt": (
        "Chart of the win chances in game #{id} ({game}) over {plies} plies; at the end {chances}.",
        "対局#{id}（{game}）の{plies}手の勝率の推移のグラフ。最後は{chances}。",
    ),
    # -- Discord permissions, as its client names them ---------------------------------------
    "permission.manage_threads": ("Manage Threads", "スレッドの管理"),
    "permission.manage_guild": ("Manage Server", "サーバー管理"),
    "permission.administrator": ("Administrator", "管理者"),
    # -- record files (棋譜): header labels, also read back on import ----------------------------
    "kif.game": ("Game", "棋戦"),
    "kif.players": ("Players", "対局者"),
    "kif.date": ("Date", "開始日時"),
    "kif.end": ("Ended", "終了日時"),
    "kif.result": ("Result", "結果"),
    "kif.clock": ("Clock", "持ち時間"),
    "kif.chance": ("chance", "偶然"),
    "kif.hidden": ("(hidden)", "（非公開）"),
    "kif.moves": ("Moves", "手数"),
    "kif.start": ("Start", "開始局面"),
    "kif.secret": ("secret", "秘密"),
    # -- what is wrong with a record file being imported ---------------------------------------
    "kif.at_line": ("line {line}: {reason}", "{line}行目: {reason}"),
    "kif.reason": ("{where}{reason}", "{where}{reason}"),
    "kif.encoding": (
        "the file is neither UTF-8 nor Shift-JIS text",
        "ファイルが UTF-8 でも Shift-JIS でもありません",
    ),
    "kif.too_large": (
        "the file is {size} bytes; a record may have at most {limit}",
        "ファイルが {size} バイトあります。棋譜は {limit} バイトまでです",
    ),
    "kif.not_text": ("the file is not text", "テキストファイルではありません"),
    "kif.not_json": ("not JSON: {reason}", "JSON として読めません: {reason}"),
    "kif.too_deep": ("nested too deeply", "入れ子が深すぎます"),
    "kif.hidden_move": (
        "this move is hidden in the record (a secret setup); import the full record, "
        "exported after the game or by the player who made it",
        "この手は棋譜の中で非公開です（秘密の配置）。終局後か、その手を指した対局者が"
        "書き出した棋譜を取り込んでください",
    ),
    "kif.chance_not_due": (
        "{where}a chance outcome, but none is due here",
        "{where}偶然の結果がありますが、ここでは起きません",
    ),
    "kif.chance_missing": (
        "{where}the record must give the chance outcome due before this move "
        "(a line '* chance: …')",
        "{where}この手の前に起きる偶然の結果（「* 偶然: …」の行）がありません",
    ),
    "kif.over": (
        "{where}the game is already over after move {ply}",
        "{where}{ply}手目で対局はすでに終わっています",
    ),
    "kif.secret_misplaced": (
        "{where}a secret setup, but this is no secret step",
        "{where}秘密の配置の行ですが、ここは秘密の段階ではありません",
    ),
    "kif.secret_due": (
        "{where}a secret setup is due here (a line '* secret: …')",
        "{where}ここは秘密の配置の段階です（「* 秘密: …」の行）",
    ),
    "kif.whose_secret": (
        "{where}say whose secret move this is (▲/△ or the seat name)",
        "{where}誰の秘密の手か（▲/△ または席の名前）が書かれていません",
    ),
    "kif.wrong_seat": (
        "{where}a move of seat {seat}, but seat {due} is to move",
        "{where}{seat}番の席の手ですが、手番は{due}番の席です",
    ),
    "kif.stops_before_chance": (
        "the record stops before the chance outcome that is due next",
        "次に起きる偶然の結果の前で棋譜が終わっています",
    ),
    "kif.bad_result": ("the result is not readable: {reason}", "結果が読めません: {reason}"),
    "kif.unreadable": (
        "I cannot read this line: a record has header lines 'name: value', numbered moves "
        "('  12 ▲move') and chance outcomes ('  * chance: outcome')",
        "この行が読めません。棋譜は「名前: 値」の見出し、番号付きの指し手（「  12 ▲指し手」）と"
        "偶然の結果（「  * 偶然: 結果」）からなります",
    ),
    "kif.out_of_order": (
        "move {ply} comes next, not {found}",
        "次は{ply}手目です（{found}ではありません）",
    ),
    "kif.no_game": (
        "the header has no 'Game: … (game-id)' line naming the game",
        "見出しにゲームを示す「棋戦: …（ゲームID）」の行がありません",
    ),
    "kif.no_game_id": (
        "the game's id must close the line in brackets, e.g. 'Game: Rokumentai (rokumentai)'",
        "ゲームIDを行末の括弧に書いてください（例：「棋戦: 六面体 (rokumentai)」）",
    ),
    "kif.not_the_start": (
        "this is not the start of {game} with these options ({position})",
        "この設定の{game}の開始局面（{position}）と違います",
    ),
    "kif.bad_option": (
        "options are written name=value, not {pair!r}",
        "設定は「名前=値」で書きます（「{pair}」ではありません）",
    ),
    "kif.seats": (
        "the header must name every seat (one line per player: {counts} players)",
        "見出しにすべての席（対局者ごとに1行、{counts}人）を書いてください",
    ),
    "kif.move_at": ("move {ply} ", "{ply}手目 "),
    "kif.unreadable_result": (
        "the result is not one I can read ({reason})",
        "結果が読めません（{reason}）",
    ),
    "kif.unfit_result": (
        "the record says the game ended ({end}), but its moves do not end it that way",
        "棋譜には終局（{end}）とありますが、指し手はそう終わっていません",
    ),
    # -- /learn: interactive lessons (issue 31) ------------------------------------------------
    "learn.menu": (
        "**Lessons**: pick a game; each lesson shows the stars you earned (★ up to three).",
        "**レッスン**：ゲームを選んでください。各レッスンの獲得した星（★最大3つ）を表示します。",
    ),
    "learn.menu.game": ("{game}: {stars} ({done}/{count})", "{game}：{stars}（{done}/{count}）"),
    "learn.lesson": (
        "**{title}** · {game}, lesson {n} of {count}\n{intro}\n🎯 {goal}",
        "**{title}** · {game} レッスン {n}/{count}\n{intro}\n🎯 {goal}",
    ),
    "learn.started": (
        "Your move: /move (its choices are your legal moves), a move button, or Move to type it.",
        "あなたの番です。/move（候補は指せる手）、手のボタン、または「指す」で入力してください。",
    ),
    "learn.hint": ("💡 {hint} Try {move}.", "💡 {hint}（{move} を指してみましょう）"),
    "learn.wrong": (
        "✗ {move}: {why} It is taken back: try again from the same position.",
        "✗ {move}：{why} この手は戻しました。同じ局面からもう一度どうぞ。",
    ),
    "learn.you_played": ("You played {move}.", "あなたの手：{move}"),
    "learn.answer": ("The reply: {move}.", "応手：{move}"),
    "learn.done": (
        "✓ {success}\nStars: {stars} (your best: {best}).",
        "✓ {success}\n星：{stars}（自己ベスト：{best}）",
    ),
    "learn.stopped": (
        "Closed: /move goes to your games again. /learn opens a lesson.",
        "閉じました。/move は対局に戻ります。/learn でレッスンを開けます。",
    ),
    "learn.refuse.none": (
        "You have no lesson open: /learn starts one.",
        "開いているレッスンはありません。/learn で始めましょう。",
    ),
    "learn.refuse.stale": (
        "That button is from an earlier position of the lesson: use the newest message.",
        "そのボタンはレッスンの前の局面のものです。最新のメッセージを使ってください。",
    ),
    "learn.refuse.no_lessons": (
        "{game} has no lessons yet.",
        "{game} にはまだレッスンがありません。",
    ),
    "learn.button.open": ("Lessons", "レッスン"),
    "learn.button.hint": ("💡 Hint", "💡 ヒント"),
    "learn.button.restart": ("↺ Restart", "↺ やり直す"),
    "learn.button.next": ("Next lesson ▶", "次のレッスン ▶"),
    "learn.button.menu": ("All lessons", "レッスン一覧"),
    "learn.button.stop": ("Close", "閉じる"),
    "learn.modal.title": ("Your move in the lesson", "レッスンの指し手"),
    # -- puzzles (issue 31: /puzzle, the daily puzzle) -------------------------------------
    "refuse.puzzle_not_open": (
        "You have no puzzle open: /puzzle gives you one.",
        "開いているパズルはありません。/puzzle で出題します。",
    ),
    "refuse.puzzle_no_game": (
        "{game} has no puzzles (a solitaire dealt by chance has no forced win).",
        "{game}のパズルはありません（偶然に左右される一人遊びには必勝手順がありません）。",
    ),
    "refuse.puzzle_none": ("There are no puzzles yet.", "パズルはまだありません。"),
    "refuse.puzzle_unknown": ("There is no puzzle {id}.", "パズル {id} はありません。"),
    "puzzle.show": (
        "Puzzle {id} ({game}, {difficulty}): {seat} to play and win in {n}.",
        "パズル {id}（{game}、{difficulty}）：{seat}の番、{n}手で勝ってください。",
    ),
    "puzzle.daily": ("The daily puzzle of {day}.", "{day} の今日のパズルです。"),
    "puzzle.streak": (
        "Your daily streak: {days} {days:day|days}.",
        "連続正解：{days}日。",
    ),
    "puzzle.right": ("{move} is right!", "{move}　正解です！"),
    "puzzle.reply": ("Reply: {moves}", "応手：{moves}"),
    "puzzle.go_on": ("Your move again.", "続けてあなたの番です。"),
    "puzzle.solved": (
        "{move}: solved! Puzzle {id} ({game}) is yours.",
        "{move}：正解！パズル {id}（{game}）を解きました。",
    ),
    "puzzle.streak_up": (
        "Daily streak: {days} {days:day|days} (best {best}).",
        "連続正解：{days}日（最高 {best}日）。",
    ),
    "puzzle.wrong": (
        "Not this one: {line} and the win is gone. Try another move (or Hint, or Solution).",
        "残念：{line} で勝ちがなくなります。別の手を指してください（ヒント・解答もあります）。",
    ),
    "puzzle.wrong_lost": (
        "Not this one: {line} and the game is lost. Try another move (or Hint, or Solution).",
        "残念：{line} で負けになります。別の手を指してください（ヒント・解答もあります）。",
    ),
    "puzzle.hint": (
        "The winning move is one of these: {moves}.",
        "勝つ手はこの中にあります：{moves}。",
    ),
    "puzzle.solution": (
        "The solution of puzzle {id}: {line}.",
        "パズル {id} の解答：{line}。",
    ),
    "puzzle.closed": (
        "Puzzle {id} is closed: your moves go to your games again.",
        "パズル {id} を閉じました。指し手は対局に戻ります。",
    ),
    "puzzle.daily_post": (
        "Daily puzzle, {day} ({game}, {difficulty}): {seat} to play and win in {n}. "
        "Press Solve to try it (only you see your answers).",
        "今日のパズル {day}（{game}、{difficulty}）：{seat}の番、{n}手で勝ってください。"
        "「解く」を押すと挑戦できます（解答はあなたにだけ見えます）。",
    ),
    "button.puzzle_solve": ("Solve", "解く"),
    "button.puzzle_hint": ("Hint", "ヒント"),
    "button.puzzle_solution": ("Solution", "解答"),
    "button.puzzle_next": ("Next puzzle", "次のパズル"),
    "modal.puzzle.title": ("Your move in the puzzle", "パズルの指し手"),
    "sandbox.help_puzzle": (
        "Puzzles: /puzzle [game | id], /puzzle daily [YYYY-MM-DD], /puzzle solution, /puzzle quit; "
        "while one is open, /move <move>, /legal [text] and /hint without a game go to it.",
        "パズル: /puzzle [ゲーム | 番号]、/puzzle daily [日付]、/puzzle solution、/puzzle quit。"
        "パズルを開いている間、番号なしの /move <指し手>、/legal [文字]、/hint は"
        "パズルへ送られます。",
    ),
    "sandbox.help_retry": (
        "Reviews: /review [id]; /review [id] retry puts your mistakes right one by one (then "
        "/move, /legal and /hint without a game go to them), /retry solution, /retry stop; "
        "/analyse [id] [move] opens an analysis board of a finished game (/move for either "
        "side, /hint or /analyse best for the computer's line, /analyse back, /analyse stop).",
        "検討: /review [番号]。/review [番号] retry で自分の悪手を1問ずつやり直します（その間、"
        "番号なしの /move、/legal、/hint はそちらへ）。/retry solution、/retry stop。"
        "/analyse [番号] [手数] で終局した対局の解析盤を開きます（/move はどちらの手番でも、"
        "/hint か /analyse best でコンピュータの読み筋、/analyse back、/analyse stop）。",
    ),
    # -- correspondence life (issue 33): vacations -------------------------------------------
    "vacation.on": (
        "You are on vacation until {until}: your correspondence and time-bank clocks stand "
        "still while it is your turn ({count} stopped now). Allowance left this year: {days} "
        "days, spent by the hour only while a clock stands still.",
        "{until}まで休暇です。通信対局と持ち時間制の対局は、あなたの手番の間は時計が止まります"
        "（いま{count}局）。今年の残り休暇: {days}日（時計が止まっている間だけ1時間単位で使い"
        "ます）。",
    ),
    "vacation.on_open": (
        "You are on vacation until you say /vacation off: your correspondence and time-bank "
        "clocks stand still while it is your turn ({count} stopped now). Allowance left this "
        "year: {days} days, spent by the hour only while a clock stands still.",
        "/vacation off まで休暇です。通信対局と持ち時間制の対局は、あなたの手番の間は時計が止まり"
        "ます（いま{count}局）。今年の残り休暇: {days}日（時計が止まっている間だけ1時間単位で使い"
        "ます）。",
    ),
    "vacation.live_runs": (
        "{count} live {count:game|games} of yours {count:is|are} not paused: a live game is "
        "played in one sitting.",
        "ライブ対局{count}局は止まりません（ライブ対局は一度に指し切ります）。",
    ),
    "vacation.forbidden_runs": (
        "{count} {count:game|games} of yours {count:is|are} in a server that allows no "
        "vacation: {count:its clock runs|their clocks run} on.",
        "{count}局は休暇を認めないサーバーの対局なので、時計は止まりません。",
    ),
    "vacation.off": (
        "Welcome back: your clocks run again, each with the time it had left. Allowance left "
        "this year: {days} days.",
        "おかえりなさい。時計は残り時間のまま再び動きます。今年の残り休暇: {days}日。",
    ),
    "vacation.status_on": (
        "You are on vacation (back {until}); {count} {count:clock stands|clocks stand} still. "
        "Allowance left this year: {days} days.",
        "休暇中です（戻り: {until}）。止まっている時計: {count}局。今年の残り休暇: {days}日。",
    ),
    "vacation.status_off": (
        "You are not on vacation. Allowance left this year: {days} days.",
        "休暇中ではありません。今年の残り休暇: {days}日。",
    ),
    "vacation.stopped": (
        "#{id} {game}: the clock stops.",
        "#{id} {game}: 時計が止まります。",
    ),
    "vacation.ended_back": (
        "#{id} {game}: {name} is back; the clock runs again.",
        "#{id} {game}: {name}さんが戻りました。時計が再び動きます。",
    ),
    "vacation.ended_over": (
        "#{id} {game}: {name}'s vacation is over; the clock runs again.",
        "#{id} {game}: {name}さんの休暇が終わりました。時計が再び動きます。",
    ),
    "vacation.ended_spent": (
        "#{id} {game}: {name}'s vacation allowance for this year is spent; the clock runs again.",
        "#{id} {game}: {name}さんの今年の休暇を使い切りました。時計が再び動きます。",
    ),
    "vacation.paused": (
        "🏖 {name} is on vacation until {until}: the clock stands still.",
        "🏖 {name}さんは{until}まで休暇中です。時計は止まっています。",
    ),
    "vacation.paused_open": (
        "🏖 {name} is on vacation: the clock stands still.",
        "🏖 {name}さんは休暇中です。時計は止まっています。",
    ),
    "refuse.vacation_until": (
        "I cannot read the return date {value!r}: write a date (2026-08-31), a date and UTC "
        "time (2026-08-31 18:00) or a duration (10d, 36h).",
        "戻る日時「{value}」が読めません。日付（2026-08-31）、日付とUTC時刻（2026-08-31 18:00）"
        "または期間（10d、36h）で書いてください。",
    ),
    "refuse.vacation_past": (
        "The return date {until} is in the past: nothing changed.",
        "戻る日時 {until} は過去です。何も変わっていません。",
    ),
    "refuse.vacation_allowance": (
        "Back {until} is past your allowance: {days} days are left this year. Nothing changed.",
        "{until}に戻ると休暇の残り（今年あと{days}日）を超えます。何も変わっていません。",
    ),
    "refuse.vacation_none_left": (
        "Your vacation allowance is spent ({days} days left this year): nothing changed.",
        "休暇を使い切っています（今年の残り{days}日）。何も変わっていません。",
    ),
    "refuse.vacation_already_on": (
        "You are already on vacation: say /vacation off first to change the return date.",
        "すでに休暇中です。戻る日時を変えるには、まず /vacation off してください。",
    ),
    "refuse.vacation_not_on": (
        "You are not on vacation: nothing changed.",
        "休暇中ではありません。何も変わっていません。",
    ),
    # -- correspondence life (issue 33): conditional moves -----------------------------------
    "premove.played": ("(a conditional move)", "（条件付きの手）"),
    "premove.added": (
        "#{id} {game}: your conditional moves ({count} of {limit} {limit:line|lines}; only "
        "you see them):",
        "#{id} {game}: 条件付きの手（{count}/{limit}行、あなただけに見えます）:",
    ),
    "premove.list": (
        "#{id} {game}: your conditional moves ({count} of {limit} {limit:line|lines}):",
        "#{id} {game}: 条件付きの手（{count}/{limit}行）:",
    ),
    "premove.cleared": (
        "#{id} {game}: your conditional moves are cleared.",
        "#{id} {game}: 条件付きの手を消しました。",
    ),
    "premove.line": ("• {line}", "・{line}"),
    "refuse.premove_players": (
        "Conditional moves are for two-player games where you hold one seat (#{id}): nothing "
        "changed.",
        "条件付きの手は、一席ずつの二人対局だけで使えます（#{id}）。何も変わっていません。",
    ),
    "refuse.premove_secret": (
        "Conditional moves wait until every secret setup is in (#{id}): nothing changed.",
        "条件付きの手は秘密の配置がすべて揃ってから使えます（#{id}）。何も変わっていません。",
    ),
    "refuse.premove_your_turn": (
        "It is your turn in #{id}: play your move; conditional moves are for while you wait.",
        "#{id}はあなたの手番です。指してください（条件付きの手は相手の手番の間に使います）。",
    ),
    "refuse.premove_empty": (
        "Write a line: their move, then your reply (then their next, your reply to it …).",
        "相手の手、あなたの応手（続けて相手の手、応手…）の順に書いてください。",
    ),
    "refuse.premove_too_long": (
        "A line holds at most {limit} moves: nothing changed.",
        "1行は{limit}手までです。何も変わっていません。",
    ),
    "refuse.premove_too_many": (
        "You keep {limit} lines already: clear them with /premove clear first.",
        "すでに{limit}行あります。先に /premove clear で消してください。",
    ),
    "refuse.premove_chance": (
        "Move {n} ({move}) comes after a chance step: a line cannot see past chance.",
        "{n}手目（{move}）の前に偶然の結果が入ります。条件付きの手は偶然の先を読めません。",
    ),
    "refuse.premove_not_their_turn": (
        "Move {n} ({move}) should be your opponent's, but it is not their turn then.",
        "{n}手目（{move}）は相手の手のはずですが、そのとき相手の手番ではありません。",
    ),
    "refuse.premove_not_yours": (
        "Move {n} ({move}) should be your reply, but it is not your turn then.",
        "{n}手目（{move}）はあなたの応手のはずですが、そのときあなたの手番ではありません。",
    ),
    "refuse.premove_illegal": (
        "Move {n} ({move}) is not legal in that position: {reason} Nothing changed.",
        "{n}手目（{move}）はその局面で指せません: {reason} 何も変わっていません。",
    ),
    "refuse.premove_no_reply": (
        "The line ends with their move {move}: end it with your reply.",
        "行が相手の手（{move}）で終わっています。あなたの応手で終えてください。",
    ),
    "refuse.premove_conflict": (
        "Move {n} ({move}) contradicts a line you keep: it answers the same moves with "
        "another reply. Nothing changed.",
        "{n}手目（{move}）は、同じ相手の手に別の応手を決めた行と矛盾します。何も変わっていません。",
    ),
    # -- correspondence life (issue 33): how you are told ------------------------------------
    "notify.saved": (
        "Saved. Ping on your turn: {ping} · daily digest: {digest} at {hour} ({tz}; next "
        "{next}) · quiet hours: {quiet}",
        "保存しました。手番の通知: {ping} ・毎日のまとめ: {digest}（{hour}、{tz}、次回 {next}）"
        "・おやすみ時間: {quiet}",
    ),
    "notify.show": (
        "Ping on your turn: {ping} · daily digest: {digest} at {hour} ({tz}; next {next}) · "
        "quiet hours: {quiet}",
        "手番の通知: {ping} ・毎日のまとめ: {digest}（{hour}、{tz}、次回 {next}）・おやすみ時間: "
        "{quiet}",
    ),
    "notify.dm_closed": (
        "Your direct messages refused the last digest: allow direct messages from this server, "
        "then change any /notify setting to get digests again.",
        "前回のまとめはダイレクトメッセージで届きませんでした。このサーバーからのDMを許可し、"
        "/notify の設定をどれか変えると再開します。",
    ),
    "refuse.notify_tz": (
        "{value!r} is no time zone I know: write one like Asia/Tokyo, Europe/Paris or UTC.",
        "「{value}」というタイムゾーンはありません。Asia/Tokyo、Europe/Paris、UTC のように"
        "書いてください。",
    ),
    "refuse.notify_hour": (
        "The digest's hour is 0 to 23, not {value}: nothing changed.",
        "まとめの時刻は0〜23時です（{value}ではありません）。何も変わっていません。",
    ),
    "refuse.notify_quiet": (
        "Quiet hours are written 22-7 (from 22:00 to 07:00, your time) or off, not {value!r}.",
        "おやすみ時間は 22-7（22時から7時、あなたの時刻）または off と書きます（「{value}」"
        "ではありません）。",
    ),
    "digest.title": (
        "Your Banmen games today: {turn} to move, {ended} ended, {challenges} "
        "{challenges:challenge|challenges} waiting.",
        "今日の盤面: あなたの手番 {turn}局、終局 {ended}局、挑戦 {challenges}件。",
    ),
    "digest.turn": (
        "▶ #{id} {game}: your move, deadline {deadline}",
        "▶ #{id} {game}: あなたの手番、期限 {deadline}",
    ),
    "digest.turn_paused": (
        "▶ #{id} {game}: your move (your clock stands still: you are on vacation)",
        "▶ #{id} {game}: あなたの手番（休暇中のため時計は止まっています）",
    ),
    "digest.ended": ("■ #{id} {game}: {result}", "■ #{id} {game}: {result}"),
    "digest.challenge": (
        "✉ #{id} {game}: a challenge waits for your answer",
        "✉ #{id} {game}: 挑戦があなたの返事を待っています",
    ),
    # -- the computer's review of a finished game (issue 32) --------------------------------------
    "refuse.review_running": (
        "Game #{id} is not over: the computer reviews finished games only.",
        "対局 #{id} はまだ終わっていません。コンピュータの検討は終局した対局だけです。",
    ),
    "refuse.review_no_plies": (
        "Game #{id} ended before its first move: there is nothing to review.",
        "対局 #{id} は1手目の前に終わったため、検討する手がありません。",
    ),
    "button.review": ("Review", "検討"),
    "button.review_public": ("Show in the thread", "スレッドに公開"),
    "button.better": ("Better move", "より良い手"),
    "button.review_retry": ("Retry my mistakes", "悪手をやり直す"),
    "button.analyse": ("Analyse", "解析"),
    "button.analysis_back": ("Take back", "一手戻す"),
    "button.analysis_best": ("Computer's line", "コンピュータの読み筋"),
    "analysis.modal.title": ("A move on the analysis board", "解析盤の指し手"),
    "analysis.position": (
        "Analysis board · game #{id} ({game}) from move {ply}; tried: {moves}. To move: "
        "{to_move}. The game's record is not changed.",
        "解析盤・対局 #{id}（{game}）{ply}手目から。試した手：{moves}。手番：{to_move}。"
        "棋譜は変わりません。",
    ),
    "analysis.started": (
        "Try moves for either side with `/move` outside a game's thread or the Move button "
        "(the game has {last} moves).",
        "ゲームのスレッドの外で `/move` か「指す」ボタンで、どちらの手も試せます"
        "（この対局は{last}手）。",
    ),
    "analysis.played": ("Played {move}.", "{move} を指しました。"),
    "analysis.nobody": ("nobody (the game is over here)", "なし（ここで終局）"),
    "analysis.back": ("Taken back.", "一手戻しました。"),
    "analysis.line": (
        "Computer: {chances}; its line: {line}.",
        "コンピュータ：{chances}。読み筋：{line}。",
    ),
    "analysis.line_none": ("Computer: {chances}.", "コンピュータ：{chances}。"),
    "analysis.refuse.running": (
        "Game #{id} is not over: only a finished game can be analysed.",
        "対局 #{id} はまだ終わっていません：解析できるのは終局した対局だけです。",
    ),
    "analysis.refuse.solitaire": (
        "Game #{id} is a solitaire dealt by chance: `/review {id}` shows its choices instead.",
        "対局 #{id} は偶然で配られる一人遊びです：代わりに `/review {id}` で選択を検討できます。",
    ),
    "analysis.refuse.hidden": (
        "Game #{id} ended before anything was revealed: there is no open position to analyse.",
        "対局 #{id} は公開前に終わりました：解析できる局面がありません。",
    ),
    "analysis.refuse.not_open": (
        "You have no analysis board open: `/analyse <game> [move]`.",
        "解析盤を開いていません：`/analyse <対局> [手数]` で開けます。",
    ),
    "analysis.refuse.over": (
        "The game is over on the board: take a move back or close it.",
        "盤上で終局しています：一手戻すか閉じてください。",
    ),
    "analysis.refuse.long": (
        "At most {most} moves on one board: take some back.",
        "1つの盤で試せるのは{most}手までです：戻してください。",
    ),
    "analysis.refuse.nothing_to_take_back": (
        "No move tried yet: nothing to take back.",
        "まだ手を試していません：戻す手はありません。",
    ),
    "button.retry_solution": ("Show the move", "正解を見る"),
    "retry.modal.title": ("Your better move", "より良い手"),
    "retry.position": (
        "Retry {k} of {n} · game #{id} ({game}), move {ply}, as {seat}: you played {played} here "
        "and kept {kept}% (the best move kept {could}%). Find a better move.",
        "やり直し {n}問中{k}問目・対局 #{id}（{game}）{ply}手目、{seat}：ここで{played}と指し、"
        "勝率は{kept}%でした（最善手なら{could}%）。より良い手を見つけてください。",
    ),
    "retry.started": (
        "{n} {n:mistake|mistakes} from the review to put right: `/move` or the Move button, "
        "outside a game's thread.",
        "検討で見つかった悪手 {n}問をやり直します：ゲームのスレッドの外で `/move` か"
        "「指す」ボタンで。",
    ),
    "retry.right": ("✓ {move} is a good move. {stars}", "✓ {move} は良い手です。{stars}"),
    "retry.again": (
        "✗ {move} is the move of the game. Try another.",
        "✗ {move} は対局で指した手です。別の手を。",
    ),
    "retry.wrong": (
        "✗ {move} gives a winning chance away too. Try again.",
        "✗ {move} も勝率を落とします。もう一度。",
    ),
    "retry.hint": (
        "Hint: the better move starts from the marked cell.",
        "ヒント：より良い手は印のマスから始まります。",
    ),
    "retry.hint_none": (
        "Hint: look again at every move; this one has no cell to mark.",
        "ヒント：すべての手を見直しましょう（印を付けるマスのない手です）。",
    ),
    "retry.shown": ("The better move: {move}.", "より良い手：{move}。"),
    "retry.finished": ("Retry of game #{id} done.", "対局 #{id} のやり直しが終わりました。"),
    "retry.done": (
        "Stars: {stars} ({total} of {most}).",
        "星：{stars}（{most}個中{total}個）",
    ),
    "retry.refuse.none": (
        "The review of game #{id} shows no mistake of yours to retry.",
        "対局 #{id} の検討には、やり直すあなたの悪手がありません。",
    ),
    "retry.refuse.no_review": (
        "Game #{id} has no review yet: `/review {id}` first.",
        "対局 #{id} はまだ検討されていません：先に `/review {id}` を。",
    ),
    "retry.refuse.not_open": (
        "You have no retry open: `/review` a game you played, then Retry my mistakes.",
        "やり直し中の問題はありません：自分の対局を `/review` して「悪手をやり直す」を。",
    ),
    "review.progress": (
        "The computer is reviewing game #{id}: move {done} of {total}…",
        "コンピュータが対局 #{id} を検討中：{total}手中{done}手…",
    ),
    "explore.show": (
        "Opening explorer, {game} ({pool}, {rated}, {table}) after {moves}: "
        "{games} {games:game|games}",
        "定跡エクスプローラー・{game}（{pool}・{rated}・{table}）{moves} の局面: {games}局",
    ),
    "explore.empty": (
        "Opening explorer, {game} ({pool}, {rated}) after {moves}: no finished game has reached "
        "this position yet.",
        "定跡エクスプローラー・{game}（{pool}・{rated}）{moves} の局面: "
        "この局面に達した終局済みの対局はまだありません。",
    ),
    "explore.here": (
        "Explorer (every server's finished games): {games} {games:game|games} went on from here",
        "エクスプローラー（全サーバーの終局した対局）：この局面から {games}局",
    ),
    "explore.none_here": (
        "Explorer: no finished game has gone on from this position yet.",
        "エクスプローラー：この局面から続いた終局済みの対局はまだありません。",
    ),
    "explore.move": (
        "{rank}. {move}: {games} {games:game|games} ({share}%): the mover won {wins}, "
        "drew {draws}, lost {losses}",
        "{rank}. {move}: {games}局（{share}%）手番側の勝ち {wins}・引き分け {draws}・負け {losses}",
    ),
    "explore.move_seats": (
        "{rank}. {move}: {games} {games:game|games} ({share}%): wins by seat 1 {w0}, seat 2 {w1}, "
        "seat 3 {w2}; draws {draws}",
        "{rank}. {move}: {games}局（{share}%）勝ち 第1席 {w0}・第2席 {w1}・第3席 {w2}・"
        "引き分け {draws}",
    ),
    "explore.pool_global": ("every server", "全サーバー"),
    "explore.pool_server": ("this server", "このサーバー"),
    "explore.pool_computer": (
        "the computer's self-play at levels 6–8, {games} {games:game|games} in all",
        "レベル6〜8のコンピュータ同士の対局・全{games}局",
    ),
    "explore.try_computer": (
        "The computer's self-play went on from here in {games} {games:game|games}: "
        'choose the pool "computer" to see its moves.',
        "コンピュータ同士の対局では、この局面から {games}局 続いています。"
        "pool に「computer」を選ぶと、その手が見られます。",
    ),
    "explore.rated": ("rated games", "レーティング対局"),
    "explore.all": ("all games", "全対局"),
    "explore.tree": ("moves", "指し手"),
    "explore.setups": ("secret setups, shown once revealed", "秘密の初期配置（公開後のもの）"),
    "refuse.leaderboard_no_server": (
        "There is no server here to rank: a server's leaderboard lives in that server. Here, "
        "ask for every server's (scope: all servers).",
        "ここにはサーバーがないため、サーバー別のランキングは出せません。"
        "全サーバーのランキング（scope: 全サーバー）をご覧ください。",
    ),
    "refuse.no_explorer": (
        "{game} has no opening explorer: it is played alone against the dice.",
        "{game}には定跡エクスプローラーがありません（サイコロ相手の一人遊びです）。",
    ),
    "refuse.explore_too_long": (
        "At most {limit} moves can lead to an explorer position.",
        "エクスプローラーの局面までの手は{limit}手までです。",
    ),
    "refuse.explore_over": (
        "The game is already over before {move}.",
        "{move} の前に対局は終わっています。",
    ),
    "refuse.explore_chance": (
        "The explorer cannot go past a chance step (before {move}).",
        "エクスプローラーは偶然の手番を越えられません（{move} の前）。",
    ),
    "review.show": (
        "Computer review of game #{id} ({game}): {plies} {plies:move|moves}, each searched over "
        "{nodes:,} positions, and every mistake shown checked again over {deeper:,}. The chart "
        "shows each player's winning chance.",
        "対局 #{id}（{game}）のコンピュータ検討：{plies}手（1手あたり{nodes:,}局面を探索し、"
        "示した悪手は{deeper:,}局面で確かめ直しました）。グラフは各対局者の勝率です。",
    ),
    "review.show_sampled": (
        "Computer review of game #{id} ({game}): {plies} {plies:move|moves}, each choice compared "
        "with the others over up to {nodes:,} imagined deals of the cards still to come, and "
        "every mistake shown over up to {deeper:,}. The chart shows the winning chance.",
        "対局 #{id}（{game}）のコンピュータ検討：{plies}手（各選択を残りの札の想定展開"
        "最大{nodes:,}通りで他の選択と比べ、示した悪手は最大{deeper:,}通りで確かめ直しました）。"
        "グラフは勝率です。",
    ),
    "review.show_timed": (
        "Computer review of game #{id} ({game}): {plies} {plies:move|moves}, about {seconds} s "
        "of search each. The chart shows each player's winning chance.",
        "対局 #{id}（{game}）のコンピュータ検討：{plies}手（1手あたり約{seconds}秒の探索）。"
        "グラフは各対局者の勝率です。",
    ),
    "review.nothing": (
        "Game #{id} ({game}) has no move to judge: it ended before anyone chose one.",
        "対局 #{id}（{game}）には判定する指し手がありません。誰かが指す前に終局しました。",
    ),
    "review.player": ("{name}: the biggest mistakes", "{name}：大きな悪手"),
    "review.clean": ("{name}: no mistake found", "{name}：悪手は見つかりませんでした"),
    "review.mistake": (
        "  move {ply}: {played} (win chance {kept}%); better {best} ({could}%)",
        "  {ply}手目：{played}（勝率{kept}%）→ {best} なら{could}%",
    ),
    "review.mistake_sampled": (
        "  move {ply}: {played} (win chance {kept}%); better {best} ({could}%), ± {spread} points",
        "  {ply}手目：{played}（勝率{kept}%）→ {best} なら{could}%（誤差±{spread}ポイント）",
    ),
    "review.luck": (
        "From {start}% as dealt to {end}% at the end: the cards {cards:+d} points, the choices "
        "{choices:+d} points.",
        "配られた時の勝率{start}%から終局の{end}%まで：札の運で{cards:+d}ポイント、"
        "選択で{choices:+d}ポイント。",
    ),
    "review.swings": ("Biggest swings after moves {plies}.", "形勢が大きく動いた手：{plies}手目"),
    "review.better": (
        "Game #{id} ({game}), move {ply}: played {played} (win chance {kept}%); the computer "
        "prefers {best} ({could}%), marked on the board.",
        "対局 #{id}（{game}）{ply}手目：実戦は{played}（勝率{kept}%）。コンピュータの推奨は"
        "{best}（{could}%）で、盤上に示しています。",
    ),
    "review.best": (
        "Game #{id} ({game}), move {ply}: {played} was the computer's choice too "
        "(win chance {kept}%).",
        "対局 #{id}（{game}）{ply}手目：{played}はコンピュータの推奨と同じです（勝率{kept}%）。",
    ),
    "review.who": ("{name} ({seat})", "{name}（{seat}）"),
    "button.better_at": ("{ply}: {move}", "{ply}手目: {move}"),
    # -- charts: a picture drawn once for every reader says its words in both languages ----------
    "chart.axis.ply": ("ply", "手数"),
    "chart.axis.win_chance": ("win chance (%)", "勝率"),
    "chart.axis.rated_games": ("rated games", "対局"),
    "chart.axis.rating": ("rating", "レーティング"),
    "chart.title.rating": ("rating", "レーティング"),
    # -- tournaments (issue 34, docs/tournaments.md) -----------------------------------------
    "refuse.tournament_unknown": ("There is no tournament #{id}.", "大会 #{id} はありません。"),
    "refuse.tournament_manager": (
        "Only a manager (the Manage Server permission, or the tournament manager role of "
        "/settings) may do that with a tournament.",
        "大会のこの操作はマネージャー（サーバー管理権限、または /settings の大会マネージャー"
        "ロール）だけができます。",
    ),
    "refuse.tournament_format": (
        "There is no tournament format {format!r} (round-robin, double-round-robin, swiss, "
        "tables).",
        "大会形式「{format}」はありません（round-robin、double-round-robin、swiss、tables）。",
    ),
    "refuse.tournament_tables": (
        "Tables of three are for 三国志三人将棋 (sangokushi) alone, not {game}.",
        "3人卓は三国志三人将棋（sangokushi）専用です。{game}では使えません。",
    ),
    "refuse.tournament_two": (
        "A {format} tournament pairs two players a game; {game} is not a two-player game.",
        "{format}の大会は1局2人で組みます。{game}は2人用ではありません。",
    ),
    "refuse.tournament_rounds": (
        "A tournament has {low} to {high} rounds.",
        "大会のラウンド数は {low}～{high} です。",
    ),
    "refuse.tournament_players": (
        "This tournament can take {low} to {high} players.",
        "この大会の定員は {low}～{high} 人です。",
    ),
    "refuse.tournament_signup": (
        "The sign-up may last 0 to {high} hours.",
        "参加受付は 0～{high} 時間です。",
    ),
    "refuse.tournament_closed": (
        "{name} is not taking players: it has started or is over.",
        "{name}は参加を受け付けていません（開始済みか終了しています）。",
    ),
    "refuse.tournament_already": (
        "You are already in {name}.",
        "すでに{name}に参加しています。",
    ),
    "refuse.tournament_full": (
        "{name} is full ({max} players).",
        "{name}は満員です（{max}人）。",
    ),
    "refuse.tournament_over": ("{name} is over.", "{name}は終了しています。"),
    "refuse.tournament_not_in": (
        "That player is not (or no longer) in {name}.",
        "そのプレイヤーは{name}に参加していません（または棄権済みです）。",
    ),
    "refuse.tournament_started": (
        "{name} has already started.",
        "{name}はすでに始まっています。",
    ),
    "refuse.tournament_few": (
        "{name} needs at least {low} players to start.",
        "{name}の開始には{low}人以上必要です。",
    ),
    "tournament.signup": (
        "**{name}** (tournament #{tournament}): {game}, {format}, {rounds} "
        "{rounds:round|rounds}, clock {clock}, {rated}. Players {count}/{max}: {players}",
        "**{name}**（大会 #{tournament}）: {game}・{format}・{rounds}ラウンド・持ち時間 "
        "{clock}・{rated}。参加者 {count}/{max}: {players}",
    ),
    "tournament.started": (
        "**{name}** (tournament #{tournament}) has started: {game}, {format}, {rounds} "
        "{rounds:round|rounds}. "
        "Players {count}: {players}",
        "**{name}**（大会 #{tournament}）が始まりました: {game}・{format}・{rounds}ラウンド。"
        "参加者 {count}人: {players}",
    ),
    "tournament.cancelled": (
        "**{name}** (tournament #{tournament}) is called off: too few players signed up ({count}).",
        "**{name}**（大会 #{tournament}）は参加者が足りず中止になりました（{count}人）。",
    ),
    "tournament.withdrawn": (
        "{player} has withdrawn from {name}: their remaining games are forfeited.",
        "{player}さんが{name}を棄権しました。残りの対局は不戦敗です。",
    ),
    "tournament.round": (
        "**{name}**, round {round} of {rounds}:",
        "**{name}** 第{round}ラウンド（全{rounds}ラウンド）:",
    ),
    "tournament.board": (
        "{board}. {players}: game {link}",
        "{board}. {players}: 対局 {link}",
    ),
    "tournament.bye": ("{board}. {players}: bye", "{board}. {players}: 不戦（休み）"),
    "tournament.standings": (
        "**{name}**, standings after round {round} (points, then {tiebreak_names}):",
        "**{name}** 第{round}ラウンド終了時の順位（得点、次に{tiebreak_names}）:",
    ),
    "tournament.ended": (
        "**{name}** is over. Winner: {winners}. Final standings (points, then {tiebreak_names}):",
        "**{name}**が終了しました。優勝: {winners}。最終順位（得点、次に{tiebreak_names}）:",
    ),
    "tournament.line": (
        "{rank}. {name}: {points} ({tiebreaks})",
        "{rank}. {name}: {points}点（{tiebreaks}）",
    ),
    "tournament.signup_until": (
        "Sign-up closes {until}; it starts then with the players there are.",
        "参加受付の締め切り: {until}。その時点の参加者で開始します。",
    ),
    "tournament.signup_open": (
        "It starts when a manager presses Start (or /tournament start {tournament}).",
        "マネージャーが「開始」を押す（または /tournament start {tournament}）と始まります。",
    ),
    "tournament.called_off": (
        "**{name}** (tournament #{tournament}) is called off by {by}.",
        "**{name}**（大会 #{tournament}）は{by}さんにより中止されました。",
    ),
    "refuse.tournament_cancel_running": (
        "{name} has started, so it can no longer be called off: a manager can take players out "
        "with /tournament remove, or let it play to its end.",
        "{name}は始まっているため中止できません。マネージャーは /tournament remove で参加者を"
        "外すか、最後まで行ってください。",
    ),
    "tournament.format.round_robin": ("round-robin", "総当たり"),
    "tournament.format.double_round_robin": ("double round-robin", "2回総当たり"),
    "tournament.format.swiss": ("Swiss", "スイス式"),
    "tournament.format.tables": ("tables of three", "3人卓"),
    "tournament.rated": ("rated", "レーティング対象"),
    "tournament.casual": ("casual", "非レート"),
    "tournament.tiebreak.sb": ("Sonneborn-Berger", "ゾンネボーン・ベルガー"),
    "tournament.tiebreak.wins": ("wins", "勝数"),
    "tournament.tiebreak.buchholz": ("Buchholz", "ブッフホルツ"),
    "tournament.tiebreak.median": ("median-Buchholz", "メジアン・ブッフホルツ"),
    "tournament.tiebreak.placement": ("placement sum", "順位合計"),
    "tournament.tiebreak.mates": ("table-mates' points", "同卓者の得点"),
    "tournament.crosstable.player": ("Player", "対局者"),
    "tournament.crosstable.points": ("Pts", "点"),
    "tournament.crosstable.words": ("Crosstable of {name}: ", "{name}のクロス表："),
    "button.t_join": ("Join", "参加"),
    "button.t_leave": ("Leave", "退出"),
    "button.t_start": ("Start", "開始"),
    "sandbox.help_tournament": (
        "Tournaments: /tournament create <game> <round-robin|double-round-robin|swiss|tables> "
        "[rounds=N] [players=N] [clock=...] [name=...] [rated=false] [play=false], "
        "/tournament join <id> [@ai:LEVEL[/N] ...], /tournament leave|start|standings|cancel <id>.",
        "大会: /tournament create <ゲーム> <round-robin|double-round-robin|swiss|tables> "
        "[rounds=N] [players=N] [clock=...] [name=...] [rated=false] [play=false]、"
        "/tournament join <番号> [@ai:レベル[/N] ...]、"
        "/tournament leave|start|standings|cancel <番号>。",
    ),
    # --- the web pages (issue 35: bot/web/, bot/service/review/site.py) ---
    "web.not_found": (
        "There is no page here (or it is not shown).",
        "ここにはページがありません（または公開されていません）。",
    ),
    "web.site": ("Banmen 盤面", "盤面 Banmen"),
    "web.other_lang": ("日本語", "English"),
    "web.intro": (
        "Rare Japanese abstract games, played on Discord. Each game has its own page.",
        "珍しい日本の盤上遊戯を Discord で。対局ごとにページがあります。",
    ),
    "web.rules": ("Rules", "ルール"),
    "web.rules_of": ("The rules of {game}", "{game}のルール"),
    "web.first": ("Start", "初形"),
    "web.prev": ("Previous", "前へ"),
    "web.next": ("Next", "次へ"),
    "web.last": ("Last", "最後"),
    "web.steps": ("Step through the game", "手順を進める"),
    "web.keys": (
        "Keys: ← and → step through the moves; Home and End (on the board or the move list) go "
        "to the start and the end.",
        "キー操作：← と → で一手ずつ、Home と End（盤面か指し手一覧で）で初形と最後へ。",
    ),
    "web.page_of": ("Page {page} of {count}", "{page} / {count} ページ"),
    "web.plies": ("{count} plies", "{count}手"),
    "web.ply_of": ("Ply {ply} of {total}", "{ply}手目 / {total}手"),
    "web.board_at": ("The board after ply {ply}", "{ply}手目の局面"),
    "web.status.open": ("Waiting for players", "参加者待ち"),
    "web.status.active": ("Playing", "対局中"),
    "web.status.finished": ("Finished", "終局"),
    "web.status.cancelled": ("Cancelled", "中止"),
    "web.status.aborted": ("Aborted", "打ち切り"),
    "web.to_move": ("to move: {names}", "手番: {names}"),
    "web.clock": ("clock {clock}", "持ち時間 {clock}"),
    "web.moves": ("Moves", "指し手"),
    "web.download": ("Record", "棋譜"),
    "web.server": ("This server's games and leaderboards", "このサーバーの対局とランキング"),
    "web.leaderboards": ("Leaderboards", "ランキング"),
    "web.player": ("Player", "プレイヤー"),
    "web.rating": ("Rating", "レーティング"),
    "web.record": ("W-L-D", "勝-敗-分"),
    "web.no_ratings": ("No rated games here yet.", "まだレーティング対局がありません。"),
    "web.games": ("Games", "対局"),
    "web.no_games": ("No games with a page yet.", "ページのある対局はまだありません。"),
    "web.game": ("Game", "ゲーム"),
    "web.rated_games": ("Rated games", "レーティング対局数"),
    "web.recent": ("Recent rated games", "最近のレーティング対局"),
    "web.link": ("Watch and replay: {url}", "観戦・再生: {url}"),
    "web.too_many": ("Too many requests", "リクエストが多すぎます"),
    "web.analysis.title": ("Analysis board: {game}", "解析盤：{game}"),
    "web.analysis.from": (
        "From move {ply} of {last}",
        "{last}手中{ply}手目から",
    ),
    "web.analysis.to_move": ("to move: {who}", "手番：{who}"),
    "web.analysis.note": (
        "Try moves for either side; the game's record does not change. Each board is a link.",
        "どちらの手も試せます。棋譜は変わりません。盤面ごとにリンクになります。",
    ),
    "web.analysis.tried": ("Moves tried", "試した手"),
    "web.analysis.none_tried": (
        "None yet: pick a move below.",
        "まだありません：下の手から選んでください。",
    ),
    "web.analysis.back": ("Take the last one back", "一手戻す"),
    "web.analysis.reset": ("Start again", "最初から"),
    "web.analysis.computer": ("The computer", "コンピュータ"),
    "web.analysis.ask": (
        "Ask for its evaluation and best line",
        "評価と読み筋を聞く",
    ),
    "web.analysis.line": ("{chances}; its line: {line}", "{chances}。読み筋：{line}"),
    "web.analysis.next": ("Moves to try", "試せる手"),
    "web.analysis.explorer": ("What players played here", "この局面で指された手"),
    "web.analysis.over": (
        "The game is over on this board.",
        "この盤では終局しています。",
    ),
    "web.analysis.start_at": ("Start the board at another move", "別の手数から始める"),
    "web.analysis.game": ("Back to the game", "対局に戻る"),
    "web.analyse": ("Analyse this position", "この局面を解析する"),
    "web.explore.title": ("Opening explorer: {game}", "定跡エクスプローラー：{game}"),
    "web.explore.start": ("The start position", "初形"),
    "web.explore.after": ("After", "手順："),
    "web.explore.all": ("all finished games", "終局したすべての対局"),
    "web.explore.rated": ("rated games only", "レーティング対局のみ"),
    "web.explore.computer": (
        "the computer's self-play (levels 6–8)",
        "コンピュータ同士の対局（レベル6〜8）",
    ),
    "web.explore.pools": ("Which games", "対象の対局"),
    "web.explore.played": (
        "Moves played from here ({games} {games:game|games})",
        "この局面から指された手（{games}局）",
    ),
    "web.explore.none": (
        "No finished game has gone on from this position yet.",
        "この局面から続いた終局済みの対局はまだありません。",
    ),
    "web.explore.back": ("One move back", "一手戻る"),
    "web.explore.to_start": ("The start", "初形へ"),
    "web.explore.link": ("Opening explorer", "定跡エクスプローラー"),
    # -- /board text (issue 46, 3) ----------------------------------------------------------
    "boardtext.show": ("Game #{id} in words: {text}", "対局 #{id}（文字）：{text}"),
    "boardtext.refuse.filter": (
        "There is no part of the board called '{asked}'. Ask for one of: {filters}.",
        "'{asked}' という盤の部分はありません。次のどれかを：{filters}。",
    ),
    "boardtext.refuse.kind_needed": (
        "Which kind? Give a kind of piece, such as warrior or 武.",
        "どの駒ですか？ warrior や 武 のように駒の種類を指定してください。",
    ),
    "boardtext.refuse.row_needed": (
        "Which row? Give a rank, file or hex row as the squares are named, such as 04, E or 三.",
        "どの列ですか？ 04・E・三 のように、マス名の段・筋・列を指定してください。",
    ),
    "boardtext.refuse.moves_needed": (
        "Whose moves? Give the square of a piece, such as 四04 or E5.",
        "どの駒の手ですか？ 四04 や E5 のように駒のあるマスを指定してください。",
    ),
    "boardtext.refuse.no_pieces": (
        "Game #{id} has no pieces on its board yet.",
        "対局 #{id} の盤上にはまだ駒がありません。",
    ),
    "boardtext.refuse.no_kind": (
        "No piece of the kind '{asked}' here. The board has: {choices}.",
        "'{asked}' という種類の駒はありません。盤上にあるのは：{choices}。",
    ),
    "boardtext.refuse.no_row": (
        "No piece on the row '{asked}'. Rows with pieces: {choices}.",
        "'{asked}' の列に駒はありません。駒のある列：{choices}。",
    ),
    "boardtext.refuse.hidden": (
        "The pieces are still set up in secret: no piece moves yet.",
        "まだ秘密の配置中です：動ける駒はありません。",
    ),
    "boardtext.refuse.no_square": (
        "There is no square '{asked}' on this board.",
        "この盤に '{asked}' というマスはありません。",
    ),
    "boardtext.refuse.no_turn": (
        "Nobody moves a piece now: the game is over or waiting.",
        "いまは誰も駒を動かせません（終局か待機中です）。",
    ),
    "boardtext.refuse.no_moves": (
        "No move from {square} now: it is {seat}'s turn, and no piece of theirs there can move.",
        "{square} から指せる手はありません：{seat}の手番で、そこに動ける駒がありません。",
    ),
    "boardtext.clock.none": ("This game has no clock.", "この対局は持ち時間なしです。"),
    "boardtext.clock.spec": ("Clock: {clock}.", "持ち時間：{clock}。"),
    "boardtext.clock.bank": (
        "{seat} ({name}): {left} in the bank.",
        "{seat}（{name}）：残り{left}。",
    ),
    "boardtext.clock.paused": (
        "The clock stands still: a vacation.",
        "休暇のため時計は止まっています。",
    ),
    "boardtext.clock.deadline": (
        "To move: {names}, until {until} ({left} left).",
        "手番：{names}、{until}まで（残り{left}）。",
    ),
    "web.sign_in": ("Sign in with Discord", "Discordでログイン"),
    "web.sign_out": ("Sign out", "ログアウト"),
    "web.my_games": ("My games", "自分の対局"),
    "web.signed_in_as": ("Signed in as", "ログイン中："),
    "web.refuse.sign_in_failed": (
        "The sign-in with Discord did not complete. Try again from the start.",
        "Discordでのログインが完了しませんでした。最初からやり直してください。",
    ),
    "web.refuse.csrf": (
        "This request did not come from your own page of this site: nothing was done.",
        "このサイトのあなたのページからの操作ではありません：何も行いませんでした。",
    ),
    "web.busy": (
        "Too many pictures are being drawn; try again in a moment.",
        "描画が混み合っています。少し待ってからもう一度どうぞ。",
    ),
    "web.refuse.sign_in": (
        "Sign in with Discord to play here.",
        "ここで指すにはDiscordでログインしてください。",
    ),
    "web.play.heading": ("Your board", "あなたの盤"),
    "web.play.your_turn": (
        "Your turn: pick a piece (or a piece in hand), then where it goes.",
        "あなたの手番です。駒（または持ち駒）を選び、行き先を選んでください。",
    ),
    "web.play.waiting": (
        "Not your turn yet: this board follows the game.",
        "まだあなたの手番ではありません。この盤は対局に合わせて更新されます。",
    ),
    "web.play.over": ("The game is over.", "対局は終わりました。"),
    "web.play.secret": (
        "Your secret setup: nobody else sees it until everyone has set up.",
        "秘密の配置です。全員が配置するまで誰にも見えません。",
    ),
    "web.play.board": ("The board's cells", "盤のマス"),
    "web.play.keys": (
        "Keys on the board: arrows move between cells, Enter or Space picks a piece and then "
        "its target, Escape lets go.",
        "盤の上のキー：矢印でマスを移り、EnterかSpaceで駒を選んでから行き先を選び、Escで選択を外します。",
    ),
    "web.play.hand": ("In hand", "持ち駒"),
    "web.play.other": ("Other moves", "その他の手"),
    "web.play.which": ("Which move?", "どの手にしますか？"),
    "web.play.which_piece": ("Which piece here?", "ここにどの駒を置きますか？"),
    "web.play.cancel": ("Cancel", "やめる"),
    "web.play.play": ("Play", "指す"),
    "web.play.typed": ("Or type a move", "または手を入力"),
    "web.play.cell": ("{cell}: {what}", "{cell}：{what}"),
    "web.play.empty": ("{cell}: empty", "{cell}：空き"),
    "web.play.line": ("Line {n}", "{n}爻"),
    "web.play.target": ("{cell}, a target", "{cell}、行き先"),
    "web.play.picked": (
        "{what} picked: {count} targets marked.",
        "{what}を選びました。行き先 {count} か所に印を付けました。",
    ),
    "web.play.let_go": ("Nothing picked.", "選択を外しました。"),
    "web.play.failed": (
        "The move could not be sent; try again.",
        "手を送れませんでした。もう一度どうぞ。",
    ),
    # the board as a Discord Activity (issue 51, 3)
    "button.open_board": ("Open the board", "盤を開く"),
    "activity.launch": ("Opening the board in Discord…", "Discordで盤を開いています…"),
    "activity.link": ("The board of game #{id}: {link}", "対局 #{id} の盤：{link}"),
    "activity.no_site": (
        "This bot has no site to open the board on.",
        "このボットには盤を開くサイトがありません。",
    ),
    "activity.refuse.not_here": (
        "Discord does not list you in this Activity: open it again from the game.",
        "このアクティビティの参加者にあなたがいません。対局からもう一度開いてください。",
    ),
    "activity.refuse.elsewhere": (
        "That game is not played where this Activity was opened.",
        "その対局はこのアクティビティを開いた場所のものではありません。",
    ),
    "activity.refuse.failed": (
        "Discord could not confirm who you are; close the Activity and open it again.",
        "Discordであなたを確認できませんでした。アクティビティを閉じて開き直してください。",
    ),
    "activity.title": ("The board", "盤"),
    "activity.connecting": ("Connecting to Discord…", "Discordに接続しています…"),
    "activity.none": (
        "No game is being played here. Open the board from a game's thread.",
        "ここで進行中の対局はありません。対局のスレッドから盤を開いてください。",
    ),
    "activity.choose": ("Which game?", "どの対局にしますか？"),
    "activity.people": ("Here now", "参加者"),
    "activity.seat_here": ("{seat}: {name}, here", "{seat}：{name}（参加中）"),
    "activity.seat_away": ("{seat}: {name}, not here", "{seat}：{name}（不在）"),
    "activity.watching": ("Watching: {count}", "観戦：{count}人"),
    "activity.you_play": ("You play in this game.", "あなたはこの対局の対局者です。"),
    "activity.you_watch": ("You are watching.", "あなたは観戦しています。"),
}


def clean_text(text: str) -> str:
    """``text`` with every character UTF-8 cannot hold (a lone surrogate such as ``"\\ud800"``)
    and NUL (which PostgreSQL's text cannot hold) replaced by U+FFFD; a proper surrogate pair
    becomes the character it stands for."""
    if "\x00" in text:
        text = text.replace("\x00", "\ufffd")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return text


def fmt_value(value: Any, lang: str) -> str:
    if isinstance(value, Text):
        return value.get(lang)
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M UTC")
    if isinstance(value, timedelta):
        return remaining_text(value)
    if isinstance(value, list | tuple):
        return ", ".join(fmt_value(v, lang) for v in value)
    return str(value)


class Count(int):
    """A number in a message; ``format(n, "seat|seats")`` is the noun for it."""

    def __format__(self, spec: str) -> str:
        one, bar, other = spec.partition("|")
        if bar:
            return one if self == 1 else other
        return int.__format__(self, spec)


NAME_PARAMS = frozenset({"name", "names", "players", "winners", "opponents", "by", "tournament"})
"""Parameters that carry names people chose (players', tournaments'): each is isolated from the
text around it when it holds right-to-left text or direction controls."""
_BIDI = frozenset({"R", "AL", "AN", "RLE", "RLO", "LRE", "LRO", "PDF", "RLI", "LRI", "FSI", "PDI"})


def isolate(name: str) -> str:
    """``name`` between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE when it holds
    right-to-left letters or direction controls, so it cannot reverse what follows it (a
    rating of 1032 read as 2301); any other name as it is."""
    if any(unicodedata.bidirectional(c) in _BIDI for c in name):
        return f"\u2068{name}\u2069"
    return name


def _param(value: Any, lang: str, key: str = "") -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return Count(value)
    if key in NAME_PARAMS:
        if isinstance(value, str):
            return _Word(isolate(value))
        if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
            return _Word(", ".join(isolate(v) for v in value))
    return _Word(fmt_value(value, lang))


class _Word(str):
    """A text in a message; a count's noun spec (``round|rounds``) after one that is no number
    (``-``: not known yet) reads as the plural."""

    def __format__(self, spec: str) -> str:
        _, bar, other = spec.partition("|")
        if bar:
            return other
        return str.__format__(self, spec)


class _Missing(str):
    """A parameter the caller did not give: shown as its placeholder, whatever its format."""

    def __format__(self, spec: str) -> str:
        return str(self)


class _Params(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return _Missing("{" + key + "}")


def text(key: str, /, **params: Any) -> Text:
    """The message ``key`` with ``params`` in both languages (kept as a value, said later)."""
    return Text(t(key, Lang.EN, **params), t(key, Lang.JA, **params))


def bilingual(key: str, /, **params: Any) -> str:
    """The message ``key`` in both languages at once, Japanese first (``手数 / ply``): for a
    picture drawn once for every reader, such as a chart."""
    said = text(key, **params)
    return f"{said.ja} / {said.en}"


def t(key: str, lang: str = "en", /, **params: Any) -> str:
    """The message ``key`` in ``lang`` (``en`` or ``ja``) with ``params`` filled in."""
    try:
        en, ja = MESSAGES[key]
    except KeyError:
        return key
    template = Lang.of(lang).pick(en, ja)
    values = _Params({k: _param(v, lang, k) for k, v in params.items()})
    return clean_text(template.format_map(values))  # user text may hold lone surrogates
