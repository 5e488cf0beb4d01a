"""六面体's rules pages, from the rules document ``rokumentai.md``."""

from __future__ import annotations

from bot.learn import Diagram, Page, Rules, Section
from engines.core import Text as T

OPENING = "......./.....領./..領士.../...占武../..領..../.占...占./....... b 11/11 ++ 8"
STRIKE = ".....怨./....巫../...士..士/..矢..矢./.馬..巫../...怨.../..馬.... b 9/9 ++ 40"
END = "......./.矢巫怨士馬./......./..士領馬巫怨/......./.占..武../....... b 7/9 ++ 57"


def _alone(face: str) -> str:
    """Black's ``face`` alone on 四04 (and a 占 on 六06)."""
    return f"......./......./......./...{face}.../......./.....占./....... b 13/14 +- 3"


BOARD = Section(
    "The board and the faces",
    T("The board and the faces", "盤と面"),
    (
        Page(
            T("Dice whose face is the piece", "出した面が駒になるサイコロ"),
            T(
                "Two players, a 7×7 board, 15 cubes each. When you place a cube you choose the "
                "face that shows, and that face is its power for the rest of the game, unless it "
                "is beaten and turns into a ghost (怨霊). Columns 一 to 七 from the left, rows 01 "
                "to 07 from the top: 四04 is the centre.",
                "二人用、7×7の盤、立方体は各15個。置くときに上にする面を選び、その面がずっと"
                "駒の力になります。倒されると怨霊の面に変わります。列は左から一〜七、行は上から"
                "01〜07で、中央は 四04 です。",
            ),
            Diagram(OPENING),
        ),
        Page(
            T("武 Warrior", "武（武士）"),
            T(
                "The warrior goes one square in any of the 8 directions. 占 (occupy) never moves, "
                "and lose every 占 and you lose. Ghosts (怨 Black's, 霊 White's) are obstacles.",
                "武士は8方向に1マス。占（占領）は動きません。占を全部失うと負け。"
                "怨霊（先手の怨、後手の霊）は障害物です。",
            ),
            Diagram(
                _alone("武"),
                piece="四04",
                reach=(
                    "三03",
                    "三04",
                    "三05",
                    "四03",
                    "四05",
                    "五03",
                    "五04",
                    "五05",
                ),
            ),
        ),
        Page(
            T("騎 Horse", "騎（騎馬）"),
            T(
                "The horse makes the 8 knight leaps (two one way, one sideways), jumping over "
                "anything.",
                "騎馬は桂馬跳び8方向（縦横2つ＋横1つ）に、間の駒を飛び越えて動きます。",
            ),
            Diagram(
                _alone("騎"),
                piece="四04",
                reach=(
                    "三02",
                    "三06",
                    "二03",
                    "二05",
                    "五02",
                    "五06",
                    "六03",
                    "六05",
                ),
            ),
        ),
        Page(
            T("弓 Archer", "弓（弓矢）"),
            T(
                "The archer goes exactly 2 or 3 squares straight up, down, left or right, "
                "jumping over anything on the way.",
                "弓矢は縦横にちょうど2マスか3マス、途中を飛び越えて動きます。",
            ),
            Diagram(
                _alone("弓"),
                piece="四04",
                reach=(
                    "一04",
                    "七04",
                    "二04",
                    "六04",
                    "四01",
                    "四02",
                    "四06",
                    "四07",
                ),
            ),
        ),
    ),
)

TURN = Section(
    "A turn",
    T("A turn", "一手"),
    (
        Page(
            T("Place or move", "置くか動かすか"),
            T(
                "On your turn place a cube from your hand or move one of your pieces. Your first "
                "placements must be 占; once you place any other face, never 占 again. Other faces "
                "go only next to one of your own 占 (the green dots).",
                "手番では、手持ちの立方体を置くか、自分の駒を動かします。最初は占を置き、"
                "他の面を置いたらもう占は置けません。占以外の面は自分の占の隣（緑の点）にだけ"
                "置けます。",
            ),
            Diagram(
                OPENING,
                reach=(
                    "一05",
                    "一06",
                    "一07",
                    "七05",
                    "七06",
                    "七07",
                    "三04",
                    "三06",
                    "三07",
                    "二05",
                    "二07",
                    "五03",
                    "五05",
                    "五06",
                    "五07",
                    "六05",
                    "六07",
                    "四05",
                ),
            ),
        ),
    ),
    covers=("Placing",),
)

BEATING = Section(
    "Moving and beating",
    T("Beating", "倒す"),
    (
        Page(
            T("Beat and swap", "倒して入れ替わる"),
            T(
                "When a 武, 騎 or 弓 moves onto an enemy piece (not a ghost), it beats it: the "
                "enemy cube turns to its ghost face and the two swap squares. Here 武五04 beats "
                "士四03: the 武 stands on 四03 and White's new ghost 霊 on 五04. Nothing moves "
                "onto a ghost.",
                "武・騎・弓が敵の駒（怨霊以外）のマスへ動くと、その駒を倒します。"
                "倒された立方体は怨霊の面になり、二つの駒は場所を入れ替えます。"
                "図は 武五04 が 士四03 を倒したところ：武は 四03 に、後手の新しい霊は 五04 に。"
                "怨霊のマスへは動けません。",
            ),
            Diagram(OPENING, moves=("武五04-四03",), captured=("五04",)),
        ),
    ),
)

MAIDEN = Section(
    "The shrine maiden (巫) and the ghosts",
    T("The shrine maiden", "巫女と怨霊"),
    (
        Page(
            T("Moving ghosts", "怨霊を動かす"),
            T(
                "A 巫 never captures. With a ghost next to it, it may leap over the ghost, or "
                "move the ghost: to an empty square next to the 巫, or flying over the 巫 to an "
                "empty square beyond. The green dots show where Black's 怨 on 六01 can go with the "
                "巫 on 五02.",
                "巫女は駒を取りません。隣に怨霊があれば、それを飛び越えるか、怨霊を動かせます："
                "巫女の隣の空きマスへ置き直す、または巫女を越えて向こう側の空きマスへ飛ばす。"
                "緑の点は 五02 の巫女で 六01 の怨が行けるマスです。",
            ),
            Diagram(
                STRIKE,
                piece="六01",
                reach=(
                    "一06",
                    "五01",
                    "五03",
                    "六02",
                    "六03",
                    "四01",
                    "四02",
                ),
            ),
        ),
        Page(
            T("The ghost strike", "倒して飛ぶ"),
            T(
                "Flinging a ghost, you may turn one enemy piece on the line beyond the 巫 into its "
                "ghost; the flying ghost then lands on any empty square of the whole line. Here "
                "怨六01 strikes 士四03 and lands on 一06: 怨六01-四03-一06.",
                "飛ばすとき、巫女の向こうの線上にいる敵の駒を1つ怨霊に変えられます。飛ぶ怨霊は"
                "線全体のどこかの空きマスに着地します。図は 怨六01 が 士四03 を倒して 一06 へ："
                "怨六01-四03-一06。",
            ),
            Diagram(STRIKE, moves=("怨六01-四03-一06",), captured=("四03",)),
        ),
    ),
)

END_SECTION = Section(
    "The end",
    T("The end", "勝敗"),
    (
        Page(
            T("Lose your last 占", "最後の占を失うと負け"),
            T(
                "When your last 占 on the board becomes a ghost, you lose at once. If you can "
                "neither place nor move, you lose. A fourth repetition or 600 plies is a draw. "
                "Here White's last 領 is struck: Black wins.",
                "盤上の最後の占が怨霊になると、その場で負けです。置くことも動かすこともできなくても"
                "負け。同一局面4回目か600手で引き分け。図は後手の最後の領が倒され、先手の勝ち。",
            ),
            Diagram(END, moves=("怨七04-四04-一04",), captured=("四04",)),
        ),
    ),
)

NOTATION = Section(
    "Writing moves",
    T("Writing moves", "指し手の書き方"),
    (
        Page(
            T("四04占, 武四04-五03, 怨六01-四03-一06", "四04占・武四04-五03・怨六01-四03-一06"),
            T(
                "Place: square and face, 四04占 (ASCII 44O). Move: face, from, to, 武四04-五03 "
                "(W44-53). Ghost strike: ghost, struck square, landing. ASCII letters: O 占, "
                "W 武, H 騎, A 弓, M 巫, G ghost; you may leave the face out of a move (44-53).",
                "置く：マスと面 四04占（ASCII 44O）。動かす：面・元・先 武四04-五03（W44-53）。"
                "倒して飛ぶ：怨霊・倒すマス・着地。ASCII は O 占、W 武、H 騎、A 弓、M 巫、G 怨霊。"
                "移動の面は省略できます（44-53）。",
            ),
            Diagram(OPENING, moves=("武五04-五03",)),
        ),
    ),
    covers=("Position text", "Rulings"),
)

RULES = Rules("rokumentai", "rokumentai", (BOARD, TURN, BEATING, MAIDEN, END_SECTION, NOTATION))
