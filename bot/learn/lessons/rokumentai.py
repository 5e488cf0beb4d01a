"""六面体's lessons (rules pages: :mod:`bot.learn.rokumentai`)."""

from __future__ import annotations

from bot.learn.lessons import Goal, GoalKind, Lesson
from bot.learn.rokumentai import END, OPENING, STRIKE
from engines.core import Text as T

GAME = "rokumentai"

LESSONS = (
    Lesson(
        "rokumentai-1",
        GAME,
        T("The warrior's step", "武士の一歩"),
        T(
            "Your 武 stands on 四04. White's warrior 士 is on 五03, one diagonal step away.",
            "あなたの武が 四04 にいます。後手の士は斜め隣の 五03 です。",
        ),
        Goal(GoalKind.CAPTURE, T("Beat the 士 on 五03.", "五03 の士を倒しましょう。"), cell="五03"),
        ("武四04-五03",),
        T(
            "A 武 steps one square in any of the 8 directions, diagonals included.",
            "武は斜めも含めた8方向に1マス動けます。",
        ),
        T(
            "That move does not reach 五03: the 士 is one step up and to the right.",
            "その手では 五03 に届きません。士は右斜め上の隣です。",
        ),
        T(
            "Beaten: the 士 turned into White's ghost 霊 and swapped squares with your 武.",
            "倒しました。士は後手の怨霊「霊」になり、あなたの武と場所を入れ替えました。",
        ),
        ("The board and the faces", "Moving and beating", "Writing moves"),
        position="......./.....領./....士../...武.../......./....占../....... b 13/13 ++ 3",
    ),
    Lesson(
        "rokumentai-2",
        GAME,
        T("The horse's leap", "騎馬の跳び"),
        T(
            "Your 騎 on 四04 jumps like a knight, over anything. White's archer 矢 waits on 五06.",
            "四04 の騎馬は桂馬のように、間の駒を飛び越えて跳びます。後手の矢が 五06 にいます。",
        ),
        Goal(GoalKind.CAPTURE, T("Beat the 矢 on 五06.", "五06 の矢を倒しましょう。"), cell="五06"),
        ("騎四04-五06",),
        T(
            "Two squares down and one to the right is a knight's leap.",
            "下へ2マス、右へ1マスが桂馬跳びです。",
        ),
        T(
            "A horse lands only on a knight's leap: two one way, one sideways. 五06 is one.",
            "騎馬が着地できるのは桂馬跳びの先（縦横2つ＋横1つ）だけ。五06 がそのマスです。",
        ),
        T(
            "The 矢 is now White's ghost 霊 on 四04, where your horse came from.",
            "矢は後手の霊になり、騎馬がいた 四04 に移りました。",
        ),
        ("The board and the faces", "Moving and beating"),
        position="......./.....領./......./...騎.../......./....矢占./....... b 13/13 ++ 3",
    ),
    Lesson(
        "rokumentai-3",
        GAME,
        T("The archer, in two moves", "弓矢で二手"),
        T(
            "Your 弓 on 四04 goes exactly 2 or 3 squares straight. White's 馬 sits in the corner "
            "on 七07.",
            "四04 の弓矢は縦横にちょうど2マスか3マス進みます。後手の馬は隅の 七07 です。",
        ),
        Goal(
            GoalKind.CAPTURE,
            T("Beat the 馬 on 七07 within two moves.", "二手以内に 七07 の馬を倒しましょう。"),
            cell="七07",
        ),
        ("弓四04-七04", "弓七04-七07"),
        T(
            "Go three squares right to 七04 first; from there 七07 is three squares down.",
            "まず右へ3マスの 七04 へ。そこから 七07 は下へ3マスです。",
        ),
        T(
            "From there the archer cannot reach 七07 next turn: it needs a square in line with "
            "the corner, 2 or 3 away.",
            "そこからでは次の手で 七07 に届きません。隅と同じ列か行で、2〜3マス離れたマスが"
            "必要です。",
        ),
        T(
            "Two straight shots: the archer jumps, so nothing in between could stop it.",
            "まっすぐ二回。弓矢は飛び越えるので、途中の駒に邪魔されません。",
        ),
        ("The board and the faces", "Moving and beating"),
        position="士....../.....領./......./...弓.../......./....占../......馬 b 13/12 ++ 3",
        replies=("士一01-二01",),
    ),
    Lesson(
        "rokumentai-4",
        GAME,
        T("Place next to your 占", "占の隣に置く"),
        T(
            "You have cubes in hand and one 占 on 五05. White's 士 stands on 三06. A new face "
            "other than 占 goes only next to one of your own 占.",
            "手持ちの立方体があり、占は 五05 にあります。後手の士は 三06。占以外の面は自分の占の"
            "隣にしか置けません。",
        ),
        Goal(
            GoalKind.CAPTURE,
            T(
                "Place a warrior, then beat the 士 on 三06.",
                "武を置いて、三06 の士を倒しましょう。",
            ),
            cell="三06",
        ),
        ("四06武", "武四06-三06"),
        T(
            "四06 touches your 占 and the 士 both: place a 武 there (四06武).",
            "四06 は占にも士にも隣り合っています。そこに武を置きましょう（四06武）。",
        ),
        T(
            "Follow the plan: a 武 on a square next to both your 占 and the 士, then the beating.",
            "占と士の両方に隣り合うマスに武を置き、次の手で倒す。この手順で指しましょう。",
        ),
        T(
            "Placed and used: that is how every fight starts in 六面体.",
            "置いてから使う。六面体の戦いはいつもここから始まります。",
        ),
        ("A turn", "Moving and beating", "Writing moves"),
        position="......./.....領./......./......./....占../..士..../....... b 14/13 ++ 3",
        replies=("七01士",),
        alternatives=(("四05武", "武四05-三06"),),
    ),
    Lesson(
        "rokumentai-5",
        GAME,
        T("Beat and swap", "倒して入れ替わる"),
        T(
            "The opening of a real game. Your 武 on 五04 stands next to White's 士 on 四03.",
            "実戦の序盤です。五04 の武が後手の士（四03）の隣にいます。",
        ),
        Goal(GoalKind.CAPTURE, T("Beat the 士 on 四03.", "四03 の士を倒しましょう。"), cell="四03"),
        ("武五04-四03",),
        T("The 士 is one step up and to the left of your 武.", "士は武の左斜め上の隣です。"),
        T(
            "That leaves the 士 standing. A beating is a move onto the enemy piece.",
            "それでは士が残ります。倒すには敵の駒のマスへ動きます。",
        ),
        T(
            "The 士 became a ghost on 五04, where your 武 stood: ghosts block every piece.",
            "士は武のいた 五04 で怨霊になりました。怨霊はどの駒の道もふさぎます。",
        ),
        ("Moving and beating", "The board and the faces"),
        position=OPENING,
    ),
    Lesson(
        "rokumentai-6",
        GAME,
        T("The ghost strike", "怨霊を飛ばして倒す"),
        T(
            "Your 巫 on 五02 has your ghost 怨 on 六01 beside it. Beyond the 巫, on the same "
            "line, stands White's 士 on 四03.",
            "五02 の巫女の隣に、あなたの怨霊「怨」が 六01 にあります。巫女の向こうの同じ線上に"
            "後手の士（四03）がいます。",
        ),
        Goal(
            GoalKind.CAPTURE,
            T(
                "Fling the ghost and strike the 士 on 四03.",
                "怨霊を飛ばして 四03 の士を倒しましょう。",
            ),
            cell="四03",
        ),
        ("怨六01-四03-一06",),
        T(
            "Write ghost, struck square, landing: 怨六01-四03-一06.",
            "怨霊・倒すマス・着地の順に書きます：怨六01-四03-一06。",
        ),
        T(
            "That moves the ghost but strikes nothing. Fling it over the 巫 along the line "
            "through 四03.",
            "怨霊は動きましたが、何も倒していません。巫女を越えて 四03 を通る線に飛ばしましょう。",
        ),
        T(
            "Struck: the 士 is a ghost now and yours landed on 一06. The 巫 itself never "
            "captures; its ghosts do.",
            "倒しました。士は怨霊になり、あなたの怨は 一06 に着地。巫女自身は取りませんが、"
            "怨霊で倒せます。",
        ),
        ("The shrine maiden (巫) and the ghosts", "Writing moves"),
        position=STRIKE,
    ),
    Lesson(
        "rokumentai-7",
        GAME,
        T("The last 領", "最後の領"),
        T(
            "White has one 領 left, on 四04. Your ghost 怨 on 七04 lies next to your 巫 on 六04; "
            "beyond the 巫 the line runs 五04, 四04, 三04 …",
            "後手の領は 四04 の一つだけ。あなたの怨（七04）は巫女（六04）の隣にあり、巫女の向こうへ"
            "線が 五04・四04・三04…と続きます。",
        ),
        Goal(GoalKind.WIN, T("Win in one move.", "一手で勝ちましょう。")),
        ("怨七04-四04-一04",),
        T(
            "Fling the 怨 over the 巫 along row 04, strike the 領 on 四04 and land beyond: "
            "怨七04-四04-一04.",
            "怨を巫女の向こうへ04の行に沿って飛ばし、四04 の領を倒して先に着地：怨七04-四04-一04。",
        ),
        T(
            "White still has a 占 (領). Turn the last 領 into a ghost to win.",
            "後手にはまだ領が残っています。最後の領を怨霊にすれば勝ちです。",
        ),
        T(
            "White's last 領 is a ghost: White loses at once.",
            "後手の最後の領が怨霊になり、その場で後手の負けです。",
        ),
        ("The end", "The shrine maiden (巫) and the ghosts"),
        position=END,
    ),
)
