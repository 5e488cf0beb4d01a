"""三国志三人将棋's rules pages (``sangokushi`` and ``sangokushi-2p``), from the rules document
``sangokushi.md``."""

from __future__ import annotations

from dataclasses import replace

from bot.learn import Diagram, Page, Rules, Section
from engines.core import Text as T

_EMPTY = " -/-/- 0 - --- -: 0"


def _lone(rows: str) -> str:
    """A 3-player position of the rows I..A with nobody's hand, 魏 to move."""
    return rows + _EMPTY


GENERAL = _lone("P1..../....../G1.....G2/......../P1..G0....P1/......../......./....../.....")
CAVALRY = _lone("...../....../G1.....G2/...P1..../...P1H0..../......../......./....../..G0..")
SPEAR = _lone("...../....../G1.....G2/....P1.../....L0..P1./......../......./....../..G0..")
ARCHER = _lone("...../....../G1.....G2/...P1P1.../...P1B0P1.../...P1P1.../......./....../..G0..")
PAWN = _lone("...../....../G1.....G2/......../....P0..../......../......./....../..G0..")
LATE = (
    "....L2/P2.G1B0.B0/.P1....G2/+P0P2P2.H2..H2/.......L1P1/B1L0P0+P1.H0.P1/H2..P0.../"
    "H0...+P2./.H0G0B1B2 B/L3/P 2 0 200 0:2 167"
)

BOARD = Section(
    "Board and cell names",
    T("The board", "盤とマスの名前"),
    (
        Page(
            T("Three kingdoms on one hexagon", "六角形の盤で三国が戦う"),
            T(
                "魏 (Wei, blue), 蜀 (Shu, green) and 呉 (Wu, red) fight on a hexagon of 61 cells. "
                "Rows are A (魏's edge, at the bottom) to I; cells are numbered from the left, so "
                "row A holds A1–A5 and the centre is E5. Every cell shows its name.",
                "魏（青）・蜀（緑）・呉（赤）の三国が、61マスの六角形の盤で戦います。"
                "行は魏の辺の A から I まで、マスは左から番号を振り、"
                "A 行は A1〜A5、中央は E5 です。"
                "どのマスにも名前が書いてあります。",
            ),
            Diagram(),
        ),
        Page(
            T("Your edge at the bottom", "自分の辺が手前"),
            T(
                "Each player sees the board turned so that their own edge is at the bottom. Cell "
                "names never change: E5 is the same cell for everyone. This is 蜀's view.",
                "各プレイヤーには自分の辺が手前になるよう回した盤が見えます。マスの名前は変わらず、"
                "E5 は誰にとっても同じマスです。この図は蜀から見た盤です。",
            ),
            Diagram(viewer=1),
        ),
    ),
)

SEATS = Section(
    "Players and seats",
    T("Players and directions", "手番と方向"),
    (
        Page(
            T("Clockwise, and no square ahead", "時計回り、真正面のマスはない"),
            T(
                "魏 sits at row A, 蜀 at the upper-left edge, 呉 at the upper-right. 魏 moves "
                "first and play goes clockwise (魏 → 蜀 → 呉), changed only by checks. "
                "Sideways (横) runs along your own edge; the four other directions are oblique "
                "(斜め): no cell lies straight ahead. Around 魏's general on E4, E3 and E5 lie "
                "along its row: 横; D3, D4, F4 and F5 are 斜め.",
                "魏は A 行の辺、蜀は左上の辺、呉は右上の辺に座ります。魏が先手で、手番は時計回り"
                "（魏→蜀→呉）。変わるのは王手のときだけです。自分の辺に沿った向きが「横」、"
                "残りの四方向が「斜め」で、真正面のマスはありません。E4 の魏の将の周りでは、"
                "同じ行の E3 と E5 が「横」、D3・D4・F4・F5 が「斜め」です。",
            ),
            Diagram(GENERAL, piece="E4", reach=("D3", "D4", "E3", "E5", "F4", "F5")),
        ),
    ),
    covers=("Directions",),
)

PIECES = Section(
    "Pieces (11 each)",
    T("The pieces", "駒の動き"),
    (
        Page(
            T("将 General", "将（武将）"),
            T(
                "Each army has 11 pieces. The general steps to any of its six neighbours. Lose it "
                "and you lose. A promoted pawn (と, drawn in red) moves the same way. The green "
                "dots are where 魏's general on E4 can go.",
                "各軍の駒は11枚。武将は隣の6マスのどこへでも1マス動きます。取られたら負けです。"
                "成った歩（赤い「と」）も同じ動きです。緑の点は E4 の魏の将が行けるマスです。",
            ),
            Diagram(GENERAL, piece="E4", reach=("D3", "D4", "E3", "E5", "F4", "F5")),
        ),
        Page(
            T("騎 Cavalry", "騎（騎兵）"),
            T(
                "The cavalry slides any distance along the four oblique lines. It stops at the "
                "first piece on a line and may capture it if it is an enemy's.",
                "騎兵は斜めの4本の線上を何マスでも進みます。線上の最初の駒で止まり、"
                "それが敵の駒なら取れます。",
            ),
            Diagram(
                CAVALRY,
                piece="E5",
                reach=(
                    "A1",
                    "A5",
                    "B2",
                    "B5",
                    "C3",
                    "C5",
                    "D4",
                    "D5",
                    "F5",
                    "F6",
                    "G7",
                    "H8",
                    "I9",
                ),
            ),
        ),
        Page(
            T("槍 Spear", "槍（槍兵）"),
            T(
                "The spear steps one cell to any of its four oblique neighbours, or slides any "
                "distance sideways (横), along its owner's edge.",
                "槍兵は斜めの隣4マスへ1マス、または横（自分の辺と平行）へ何マスでも進みます。",
            ),
            Diagram(
                SPEAR,
                piece="E5",
                reach=("D4", "D5", "E1", "E2", "E3", "E4", "E6", "E7", "E8", "F5", "F6"),
            ),
        ),
        Page(
            T("弓 Archer", "弓（弓兵）"),
            T(
                "The archer leaps to the six cells two away between the lines, over anything in "
                "between: even surrounded, it gets out.",
                "弓兵は線と線のあいだ、2つ先の6マスへ跳びます。途中の駒は飛び越えるので、"
                "囲まれても抜け出せます。",
            ),
            Diagram(ARCHER, piece="E5", reach=("C4", "D3", "D6", "F4", "F7", "G6")),
        ),
        Page(
            T("歩 Pawn", "歩（歩兵）"),
            T(
                "The pawn steps to either forward-oblique neighbour. Moving into or out of an "
                "opponent's camp, or into or out of E5, it may promote to と (optional).",
                "歩兵は前斜めの2マスへ1マス進みます。相手の陣、または E5 に入るか出るとき、"
                "「と」に成れます（成らなくてもかまいません）。",
            ),
            Diagram(PAWN, piece="E5", reach=("F5", "F6")),
        ),
    ),
)

START = Section(
    "Start",
    T("The start", "初期配置"),
    (
        Page(
            T("Two rows each", "自陣は2段"),
            T(
                "Each player's camp (陣) is the two rows along their edge. 魏's row A holds "
                "槍 騎 将 騎 槍 and row B 弓 歩 歩 歩 歩 弓; the others the same, turned to their "
                "edge.",
                "各プレイヤーの陣は自分の辺に沿った2段です。魏は A 行に槍・騎・将・騎・槍、"
                "B 行に弓・歩・歩・歩・歩・弓。他の二国も同じ並びを自分の辺に置きます。",
            ),
            Diagram(),
        ),
    ),
)

TURN = Section(
    "A turn",
    T("A turn", "一手の指し方"),
    (
        Page(
            T("Move or drop", "動かすか、打つか"),
            T(
                "On your turn, move one piece or drop one from your hand. Moving onto an enemy "
                "piece captures it (red cross) and it joins your hand; a captured と becomes a "
                "pawn again. A drop may go on any empty cell; there is no 二歩 and no pass.",
                "手番では駒を1つ動かすか、持ち駒を1つ打ちます。敵の駒のマスに動くとその駒を取り"
                "（赤い×）、自分の持ち駒になります。取った「と」は歩に戻ります。打つのは空いている"
                "どのマスでもよく、二歩の禁止もパスもありません。",
            ),
            Diagram(CAVALRY, moves=("HE5-F5",), captured=("F5",)),
        ),
    ),
)

CHECK = Section(
    "Check (王手) and whose turn it is",
    T("王手 and the turn", "王手と手番"),
    (
        Page(
            T("A check hands over the turn", "王手をかけられた側が次に指す"),
            T(
                "A general is in check (王手) when another player's piece could capture it; "
                "you may never end your turn in check. If your move newly checks one player, "
                "that player moves next, then the turn comes back to you. Here 呉's cavalry "
                "checks 蜀: 蜀 (framed) moves next, then 呉 again. Two players newly in check: "
                "play simply goes on clockwise.",
                "他の国の駒で取られる状態の将は「王手」されています。自分の将が王手されたまま"
                "手番を終えることはできません。新たに一国へ王手をかけると、その国が次に指し、"
                "そのあと手番は自分に戻ります。図では呉の騎が蜀に王手：次は枠で囲んだ蜀、"
                "そのあと呉に戻ります。二国に同時に王手なら、手番はそのまま時計回りに進みます。",
            ),
            Diagram(LATE, moves=("HF6-F8",), next_seat=True),
        ),
    ),
)

WINNING = Section(
    "Winning (3 players)",
    T("Winning", "勝ち方"),
    (
        Page(
            T("Capture a general, or hold the centre", "将を取るか、中央を守る"),
            T(
                "Capture a general and you win at once. If your general stands on E5 when your "
                "turn comes, you win too, even in check: keep E5 attacked so nobody steps there. "
                "A player with no legal turn loses; the same position may not occur a fourth "
                "time, and 600 plies is a draw. Here 魏's general on E4 can step onto E5.",
                "将を取ればその場で勝ちです。自分の手番が来たとき自分の将が E5 にいれば、"
                "王手されていても勝ち。E5 に利きを残して相手の将を入れないようにしましょう。"
                "指せる手がなければ負け。同じ局面の4回目は作れず、600手で引き分けです。"
                "図では E4 の魏の将が E5 に入れます。",
            ),
            Diagram(GENERAL, piece="E4", reach=("D3", "D4", "E3", "E5", "F4", "F5")),
        ),
    ),
)

NOTATION = Section(
    "Notation",
    T("Writing moves", "指し手の書き方"),
    (
        Page(
            T("HA2-C4, PB3-C4+, P*E5", "HA2-C4・PB3-C4+・P*E5"),
            T(
                "A move is the piece letter, from, -, to, and + to promote: HA2-C4, PB3-C4+. "
                "A drop is letter * cell: P*E5. Letters: G general, H cavalry, L spear, B archer, "
                "P pawn, +P と. You may leave the letter out (B3-C4) or type the kanji (歩B3-C4, "
                "歩打E5, 成 for +). The cell names are the same for every player.",
                "指し手は駒の文字・元のマス・-・行き先、成るなら + を付けます（HA2-C4、PB3-C4+）。"
                "打つときは 文字*マス（P*E5）。G 将、H 騎、L 槍、B 弓、P 歩、+P と。"
                "文字は省略でき（B3-C4）、漢字でも書けます（歩B3-C4、歩打E5、+ の代わりに 成）。"
                "マスの名前は誰にとっても同じです。",
            ),
            Diagram(moves=("PB3-C4",)),
        ),
    ),
    covers=("Rulings",),
)

TWO = Section(
    "Two players (`sangokushi-2p`)",
    T("Two players", "二人用"),
    (
        Page(
            T("Two armies, face to face", "二軍の対戦"),
            T(
                "The same pieces and moves; the armies start on the bottom (rows A/B) and top "
                "(rows I/H) edges, and turns simply alternate. A pawn promotes moving into or out "
                "of the opponent's three nearest rows. Capture the general or leave the opponent "
                "without a legal turn; the centre gives no win.",
                "駒と動きは同じで、二軍は下（A・B 行）と上（I・H 行）の辺から始め、手番は交互です。"
                "歩は相手に近い3段に入るか出るときに成れます。相手の将を取るか、指す手を無くせば"
                "勝ち。中央の勝ちはありません。",
            ),
            Diagram(game="sangokushi-2p"),
        ),
    ),
)

RULES = Rules(
    "sangokushi",
    "sangokushi",
    (BOARD, SEATS, PIECES, START, TURN, CHECK, WINNING, NOTATION, TWO),
)


def _drawn_by(section: Section, game: str) -> Section:
    """``section`` with its diagrams drawn by ``game``'s engine (the 3-player positions)."""
    return replace(
        section,
        pages=tuple(
            replace(p, diagram=p.diagram and replace(p.diagram, game=game)) for p in section.pages
        ),
    )


RULES_2P = Rules(
    "sangokushi-2p",
    "sangokushi",
    (TWO, _drawn_by(PIECES, "sangokushi"), _drawn_by(TURN, "sangokushi"), NOTATION),
)
