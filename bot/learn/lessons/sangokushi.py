"""三国志三人将棋's lessons, three players and two (rules pages: :mod:`bot.learn.sangokushi`)."""

from __future__ import annotations

from bot.learn.lessons import Goal, GoalKind, Lesson
from bot.learn.sangokushi import CAVALRY, GENERAL, LATE, PAWN, SPEAR
from engines.core import Text as T

THREE, TWO = "sangokushi", "sangokushi-2p"
ARCHER = (
    "P1..../....../G1.....G2/...P1P1H1../...P1B0P1.../...P1P1.../......./....../..G0.."
    " -/-/- 0 - --- -: 0"
)
"""魏's archer on E5 hemmed in by 蜀's pawns, 蜀's cavalry on F7."""


def _two(rows: str, hands: str = "-/-") -> str:
    """A 2-player position of the rows I..A, Black to move."""
    return f"{rows} {hands} 0 - -- -: 0"


PIECES, BOARD, TURN = "Pieces (11 each)", "Board and cell names", "A turn"
NOTATION, TWO_PLAYERS = "Notation", "Two players (`sangokushi-2p`)"

LESSONS = (
    Lesson(
        "sangokushi-1",
        THREE,
        T("Hold the centre", "中央を守る"),
        T(
            "You are 魏 (blue). Your general stands on E4, next to the centre E5. 蜀 and 呉 "
            "cannot reach E5 this round.",
            "あなたは魏（青）。将が中央 E5 の隣、E4 にいます。蜀と呉はこの一巡で E5 に届きません。",
        ),
        Goal(GoalKind.WIN, T("Win by the centre.", "中央で勝ちましょう。")),
        ("GE4-E5",),
        T(
            "Step the general onto E5 and keep it there until your turn comes back.",
            "将を E5 に進め、手番が戻るまでそこにいれば勝ちです。",
        ),
        T(
            "Only a general on E5 when your turn comes wins by the centre.",
            "中央の勝ちは、手番が来たときに自分の将が E5 にいる場合だけです。",
        ),
        T(
            "蜀 and 呉 moved, your turn came round with the general on E5: 魏 wins.",
            "蜀と呉が指し、将が E5 にいるまま手番が戻りました。魏の勝ちです。",
        ),
        ("Winning (3 players)", PIECES, BOARD),
        position=GENERAL,
        replies=("PE1-D1", "GG9-H9"),
    ),
    Lesson(
        "sangokushi-2",
        THREE,
        T("The cavalry's lines", "騎兵の斜め線"),
        T(
            "Your cavalry on E5 slides along the four oblique lines. 蜀's pawn stands on F5.",
            "E5 の騎兵は斜めの4本の線を進みます。蜀の歩が F5 にいます。",
        ),
        Goal(GoalKind.CAPTURE, T("Capture the pawn on F5.", "F5 の歩を取りましょう。"), cell="F5"),
        ("HE5-F5",),
        T(
            "F5 is on one of the cavalry's oblique lines, one cell away.",
            "F5 は騎兵の斜め線上、1マス先です。",
        ),
        T(
            "The cavalry went elsewhere; the pawn on F5 is still there.",
            "騎兵は別のマスへ行きました。F5 の歩は残っています。",
        ),
        T(
            "Taken: the pawn joins your hand (the P in 魏's hand), ready to drop.",
            "取りました。歩はあなたの持ち駒になり、いつでも打てます。",
        ),
        (PIECES, TURN, NOTATION),
        position=CAVALRY,
    ),
    Lesson(
        "sangokushi-3",
        THREE,
        T("The spear goes sideways", "槍兵は横へ"),
        T(
            "Your spear is on E5. Sideways (横) runs along your own edge, row E here. 蜀's pawn "
            "stands on E8.",
            "槍兵は E5 です。横（自分の辺と平行）はここでは E 行。蜀の歩が E8 にいます。",
        ),
        Goal(GoalKind.CAPTURE, T("Capture the pawn on E8.", "E8 の歩を取りましょう。"), cell="E8"),
        ("LE5-E8",),
        T("Slide along row E, as far as the pawn.", "E 行に沿って歩のところまで滑りましょう。"),
        T(
            "The spear steps only one cell obliquely; it slides far only sideways.",
            "槍兵の斜めは1マスだけ。遠くまで進めるのは横だけです。",
        ),
        T(
            "Captured along your own edge's direction: that is 横.",
            "自分の辺に沿った向き、それが「横」です。",
        ),
        ("Players and seats", PIECES),
        position=SPEAR,
    ),
    Lesson(
        "sangokushi-4",
        THREE,
        T("The archer leaps out", "弓兵は跳び出す"),
        T(
            "Your archer on E5 is surrounded by 蜀's pawns. 蜀's cavalry stands on F7.",
            "E5 の弓兵は蜀の歩に囲まれています。蜀の騎兵は F7 です。",
        ),
        Goal(
            GoalKind.CAPTURE,
            T("Capture the cavalry on F7.", "F7 の騎兵を取りましょう。"),
            cell="F7",
        ),
        ("BE5-F7",),
        T(
            "The archer leaps two cells between the lines, over the pawns: F7 is one of those "
            "six cells.",
            "弓兵は線と線のあいだ、2つ先へ歩を飛び越えて跳びます。F7 はその6マスの一つです。",
        ),
        T(
            "That does not take the cavalry. Count two cells between two lines from E5.",
            "それでは騎兵を取れません。E5 から線と線のあいだを2つ先へ数えましょう。",
        ),
        T(
            "Out and capturing. The archer now checks 呉's general too: 呉 moves next.",
            "包囲を抜けて取りました。しかも弓兵は呉の将に王手。次は呉の手番です。",
        ),
        (PIECES,),
        position=ARCHER,
    ),
    Lesson(
        "sangokushi-5",
        THREE,
        T("Check changes the turn", "王手で手番が変わる"),
        T(
            "You are 呉 (red), late in a game. Your cavalry on F6 can reach F8, from where it "
            "attacks 蜀's general.",
            "あなたは呉（赤）、終盤です。F6 の騎兵は F8 へ行け、そこから蜀の将を狙えます。",
        ),
        Goal(
            GoalKind.NEXT_SEAT,
            T("Check 蜀 so that 蜀 moves next.", "蜀に王手をかけ、次の手番を蜀にしましょう。"),
            seat=1,
        ),
        ("HF6-F8",),
        T("Move the cavalry to F8.", "騎兵を F8 へ動かしましょう。"),
        T(
            "That gives no check to 蜀: play goes on clockwise.",
            "それでは蜀に王手がかからず、手番はそのまま時計回りです。",
        ),
        T(
            "王手: 蜀 (framed) must answer now, and then the turn comes back to you.",
            "王手です。枠で囲んだ蜀が今すぐ応じ、そのあと手番はあなたに戻ります。",
        ),
        ("Check (王手) and whose turn it is",),
        position=LATE,
        seat=2,
    ),
    Lesson(
        "sangokushi-6",
        THREE,
        T("Promote out of the centre", "中央から出て成る"),
        T(
            "Your pawn stands on E5. Moving into or out of E5 it may promote to と.",
            "歩が E5 にいます。E5 に入るか出るとき、「と」に成れます。",
        ),
        Goal(GoalKind.PROMOTE, T("Step out of E5 and promote.", "E5 から出て成りましょう。")),
        ("PE5-F5+",),
        T("Add + to the move to promote: PE5-F5+.", "成るには + を付けます：PE5-F5+。"),
        T(
            "Promotion is optional, so the engine did not promote for you: add + (or 成).",
            "成りは任意なので、自動では成りません。+（または 成）を付けましょう。",
        ),
        T(
            "A と moves like the general: six directions instead of two.",
            "「と」は将と同じく6方向に動けます。前の2方向だけではありません。",
        ),
        (PIECES, NOTATION),
        position=PAWN,
    ),
    Lesson(
        "sangokushi-7",
        THREE,
        T("The first move", "最初の一手"),
        T(
            "The start: every army in two rows along its edge, 魏 moves first.",
            "初期配置です。各軍は自分の辺の2段に並び、魏が先手です。",
        ),
        Goal(GoalKind.REACH, T("Bring a pawn to C4.", "歩を C4 へ進めましょう。"), cell="C4"),
        ("PB3-C4",),
        T(
            "A pawn steps to either forward-oblique neighbour: B3 or B4 can reach C4.",
            "歩は前斜めの隣へ1マス。B3 か B4 の歩が C4 に行けます。",
        ),
        T("That piece did not land on C4.", "その駒は C4 に着いていません。"),
        T(
            "Opened: your archer on B1 now has room too.",
            "道が開き、B1 の弓兵も動けるようになりました。",
        ),
        ("Start", BOARD, NOTATION),
    ),
    # -- two players ------------------------------------------------------------------------
    Lesson(
        "sangokushi-2p-1",
        TWO,
        T("Face to face", "向かい合う二軍"),
        T(
            "Two players: you are Black at the bottom (rows A and B), White at the top.",
            "二人用です。あなたは下（A・B 行）の先手、後手は上にいます。",
        ),
        Goal(GoalKind.REACH, T("Bring a pawn to C4.", "歩を C4 へ進めましょう。"), cell="C4"),
        ("PB3-C4",),
        T(
            "Pawns step forward-obliquely: try PB3-C4.",
            "歩は前斜めに1マス：PB3-C4 を指しましょう。",
        ),
        T("No piece of yours landed on C4.", "C4 に着いた駒がありません。"),
        T("Turns simply alternate now: White's move.", "手番は交互。次は後手です。"),
        (TWO_PLAYERS, NOTATION),
    ),
    Lesson(
        "sangokushi-2p-2",
        TWO,
        T("Cavalry across the board", "盤を横切る騎兵"),
        T(
            "Your cavalry is on E5. White's pawn stands on G7, on one of its oblique lines.",
            "騎兵が E5 にいます。後手の歩が斜め線上の G7 にいます。",
        ),
        Goal(GoalKind.CAPTURE, T("Capture the pawn on G7.", "G7 の歩を取りましょう。"), cell="G7"),
        ("HE5-G7",),
        T("Slide along the oblique line towards the top right.", "右上への斜め線を滑りましょう。"),
        T("The pawn on G7 is still there.", "G7 の歩はまだ残っています。"),
        T(
            "Taken, and the cavalry checks White's general from G7.",
            "取りました。G7 の騎兵は後手の将に王手もかけています。",
        ),
        (PIECES, TWO_PLAYERS),
        position=_two("..G1../....../....P1../......../....H0..../......../......./....../..G0.."),
    ),
    Lesson(
        "sangokushi-2p-3",
        TWO,
        T("Promotion in the enemy camp", "敵陣で成る"),
        T(
            "Your pawn is on F6. With two players a pawn may promote moving into White's three "
            "nearest rows (G, H, I).",
            "歩が F6 にいます。二人用では、後手に近い3段（G・H・I）に入るとき成れます。",
        ),
        Goal(GoalKind.PROMOTE, T("Promote the pawn.", "歩を成りましょう。")),
        ("PF6-G6+",),
        T("Step into row G and add +: PF6-G6+.", "G 行へ進んで + を付けます：PF6-G6+。"),
        T(
            "No promotion: add + when the pawn enters row G.",
            "成っていません。G 行に入る手に + を付けましょう。",
        ),
        T("A と: it now moves in all six directions.", "「と」になりました。6方向に動けます。"),
        (PIECES, TWO_PLAYERS, NOTATION),
        position=_two("..G1../....../......./....P0.../........./......../......./....../..G0.."),
    ),
    Lesson(
        "sangokushi-2p-4",
        TWO,
        T("Drop a captured pawn", "取った歩を打つ"),
        T(
            "You hold a pawn in hand. A drop may go on any empty cell; there is no 二歩.",
            "持ち駒に歩があります。空いているどのマスにも打て、二歩の禁止もありません。",
        ),
        Goal(GoalKind.DROP, T("Drop the pawn on E5.", "歩を E5 に打ちましょう。"), cell="E5"),
        ("P*E5",),
        T("A drop is letter * cell: P*E5.", "打つ手は 文字*マス：P*E5。"),
        T("That was not a drop on E5.", "それは E5 への打ちではありません。"),
        T(
            "Dropped: the pawn fights for you again.",
            "打ちました。歩があなたの駒として戻りました。",
        ),
        (TURN, NOTATION),
        position=_two(
            "..G1../....../......./......../........./......../......./....../..G0..", "P/-"
        ),
    ),
    Lesson(
        "sangokushi-2p-5",
        TWO,
        T("Capture the general", "将を取る"),
        T(
            "White's general stands on I9, in the corner, on your cavalry's line.",
            "後手の将は隅の I9、あなたの騎兵の線上にいます。",
        ),
        Goal(GoalKind.WIN, T("Win in one move.", "一手で勝ちましょう。")),
        ("HE5-I9",),
        T("Slide the cavalry all the way to I9.", "騎兵を I9 まで滑らせましょう。"),
        T("The general is still on the board.", "将はまだ盤上にいます。"),
        T("The general is taken: Black wins.", "将を取りました。先手の勝ちです。"),
        (TWO_PLAYERS, PIECES),
        position=_two("....G1/....../......./......../....H0..../......../......./....../..G0.."),
    ),
)
