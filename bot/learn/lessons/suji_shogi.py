"""数字将棋's lessons (rules pages: :mod:`bot.learn.suji_shogi`)."""

from __future__ import annotations

from itertools import permutations

from bot.learn.lessons import Goal, GoalKind, Lesson
from bot.learn.suji_shogi import START
from engines.core import Text as T

GAME = "suji-shogi"
SAMPLE = (("directions", "sample"),)
BOARD, SETUP, PLAY = "Board and pieces", "Setting up (初期配置)", "Play"
WINNING, NOTATION = "Winning", "Writing moves"

SIX_IN_THE_MIDDLE = tuple(
    f"{p[0]}{p[1]}{p[2]}/{p[3]}{p[4]}{p[5]}" for p in permutations("123456") if p[1] == "6"
)
"""Every arrangement with the 6 in the middle of the back rank (2五)."""

LESSONS = (
    Lesson(
        "suji-shogi-1",
        GAME,
        T("Your arrangement", "初期配置"),
        T(
            "Before play, each side arranges its six pieces on its two nearest ranks, unseen by "
            "the other. Write the back rank from file 3 to file 1, a slash, then the front rank.",
            "対局の前に、各自6枚の駒を手前の2段に、相手に見せずに並べます。奥の段を3筋から1筋へ、"
            "スラッシュ、手前の段を同じ順に書きます。",
        ),
        Goal(
            GoalKind.PLAY,
            T(
                "Set up with your 6 in the middle of the back rank (2五).",
                "6を奥の段の真ん中（2五）に置いて並べましょう。",
            ),
            moves=SIX_IN_THE_MIDDLE,
        ),
        ("465/123",),
        T(
            "The middle digit before the slash is 2五: 465/123 puts the 6 there.",
            "スラッシュの前の真ん中の数字が 2五 です。465/123 なら6がそこに入ります。",
        ),
        T(
            "Your 6 is not on 2五: the middle digit of the first three is that square.",
            "6が 2五 にありません。最初の3桁の真ん中がそのマスです。",
        ),
        T(
            "Both sides have set up and the arrangements are revealed: Black moves first.",
            "両者が並べ終え、配置が公開されました。先手から指します。",
        ),
        (SETUP, NOTATION),
        replies=("362/541",),
    ),
    Lesson(
        "suji-shogi-2",
        GAME,
        T("Captures go to your hand", "取った駒は持ち駒に"),
        T(
            "The author's sample game (its 3 and 4 move as in 2009). White's 5 will come to 2c "
            "after your first move.",
            "作者の実戦譜です（3と4は2009年の動き）。最初の手のあと、後手の5が 2c に来ます。",
        ),
        Goal(
            GoalKind.CAPTURE,
            T("Capture on 2c within two moves.", "二手以内に 2c で駒を取りましょう。"),
            cell="2c",
        ),
        ("3d3c", "1d2c"),
        T(
            "First 3d3c, as in the game. When White's 5 lands on 2c, your 3 on 1d takes it.",
            "まず実戦どおり 3d3c。後手の5が 2c に来たら、1d の3で取ります。",
        ),
        T(
            "That does not lead to the capture on 2c: play 3d3c first, then take on 2c.",
            "それでは 2c で取れません。まず 3d3c、それから 2c で取りましょう。",
        ),
        T(
            "The 5 is in your hand now, as a 5: you may drop it later.",
            "5が持ち駒になりました。数字のまま、あとで打てます。",
        ),
        (PLAY, BOARD, NOTATION),
        position=START,
        options=SAMPLE,
        replies=("3b2c",),
    ),
    Lesson(
        "suji-shogi-3",
        GAME,
        T("Promotion to 8", "成って「8」に"),
        T(
            "Your 5 stands on 2b, one rank from the far rank (一).",
            "5が 2b、最奥の段（一）の一つ手前にいます。",
        ),
        Goal(GoalKind.PROMOTE, T("Promote the 5.", "5を成りましょう。")),
        ("2b2a+",),
        T("End on rank a and add +: 2b2a+.", "a の段で終わる手に + を付けます：2b2a+。"),
        T(
            "No promotion. A move ending on the far rank may promote: add +.",
            "成っていません。最奥の段で終わる手に + を付けましょう。",
        ),
        T("An 8 moves in all eight directions.", "8は8方向すべてに動けます。"),
        (PLAY, NOTATION),
        position=".../.5./.../.../.v1. b - - 10",
    ),
    Lesson(
        "suji-shogi-4",
        GAME,
        T("Drop a 4 where it promotes", "成れる所へ4を打つ"),
        T(
            "You hold a 4, which moves diagonally. A piece dropped on the far rank does not "
            "promote that turn, so drop it one rank short.",
            "持ち駒に斜めに動く4があります。最奥の段に打っても、その手では成れません。"
            "一つ手前に打ちましょう。",
        ),
        Goal(
            GoalKind.PROMOTE,
            T("Drop the 4, then promote it.", "4を打ち、次の手で成りましょう。"),
        ),
        ("4*2b", "2b1a+"),
        T(
            "Drop it on 2b (4*2b), then step to rank a with +.",
            "2b に打って（4*2b）、a の段へ + 付きで。",
        ),
        T(
            "From there the 4 cannot reach the far rank next move: drop it on rank b.",
            "そこからでは次の手で最奥の段に届きません。b の段に打ちましょう。",
        ),
        T("Dropped, stepped, promoted: an 8.", "打って、進んで、成りました。8です。"),
        (PLAY,),
        position=".../.../..v1/.../... b 4 - 10",
        replies=("1c1d",),
        alternatives=(("4*2b", "2b3a+"), ("4*3b", "3b2a+"), ("4*1b", "1b2a+")),
    ),
    Lesson(
        "suji-shogi-5",
        GAME,
        T("A sum of seven", "合計7"),
        T(
            "You hold a 4. White's 3 stands on 2a, right in front of your 5.",
            "持ち駒に4があります。後手の3が 2a、あなたの5の目の前です。",
        ),
        Goal(GoalKind.WIN, T("Win in one move.", "一手で勝ちましょう。")),
        ("2b2a",),
        T("Take the 3: 4 + 3 = 7.", "3を取ります。4＋3＝7。"),
        T("Your hand does not add up to 7 yet.", "持ち駒の合計はまだ7になりません。"),
        T(
            "4 + 3 = 7 in your hand: Black wins at once.",
            "持ち駒が4＋3＝7。その場で先手の勝ちです。",
        ),
        (WINNING,),
        position=".v3./.5./.../.../.v1. b 4 - 10",
    ),
)
