"""The Socrates board's rules pages: shared board pages and each of its four games' own, from
the rules document ``socrates.md``."""

from __future__ import annotations

from bot.learn import Diagram, Page, Rules, Section
from engines.core import Text as T

UCHU = "10/10/10/2pM6/3mPP1M2/3p6/2m1P5/10/10 b P3M4p4m4 0 10"
SHINKEN = "pp1pmp1pmp/10/2p7/6m3/10/4P5/7P2/10/2M1PM1PP1 b move 0 16"
KOKUTAN = "10/1p1m1p1p2/2p1m1p3/1p1p3m2/6p3/3P6/2M1m1P3/1P1M3M2/10 b move 0 21"

BOARD = Section(
    "The board",
    T("The board", "盤"),
    (
        Page(
            T("Space and ground", "宇宙と地上"),
            T(
                "Socrates, by Goro Hasegawa (the inventor of Othello), is one board for four "
                "games: 10 columns a–j × 9 rows 1–9. The outer ring and the middle row 5 (the "
                "equator) are space (blue); the two 8 × 3 blocks are ground (green). Every disc "
                "has a plain face and a marked face (a red star). Black starts at the bottom and "
                "moves first.",
                "ソクラテスはオセロの考案者・長谷川五郎の盤で、4つのゲームを遊べます。盤は a〜j の"
                "10列 × 1〜9 の9行。外周と中央の5行目（赤道）が宇宙（青）、8×3 の二つの区画が地上"
                "（緑）です。駒には無地の面と印の面（赤い星）があります。先手（黒）が下から始め、"
                "先に指します。",
            ),
            Diagram(),
        ),
    ),
)

COMMON = Section(
    "Common rules",
    T("Common rules and notation", "共通ルールと書き方"),
    (
        Page(
            T("Passes, repetition, notation", "パス・千日手・書き方"),
            T(
                "A player with no legal move must pass; two such passes in a row draw. A fourth "
                "repetition or 600 plies is a draw. Write a move as e4-e5, a placement as P@e5 "
                "(plain) or M@e5 (marked), a flip as e2!, and pass as pass. A bare cell (e5) "
                "works when only one move ends there.",
                "指せる手がなければパス。パスが二手続けば引き分け。同一局面の4回目か600手でも"
                "引き分けです。移動は e4-e5、置くのは P@e5（無地）・M@e5（印）、反転は e2!、"
                "パスは pass。そのマスで終わる手が一つだけならマス名（e5）だけでも指せます。",
            ),
            Diagram(moves=("e4-e5",), game="socrates-twothree"),
        ),
    ),
    covers=("Writing moves", "Position text", "Rulings"),
)


def _rules(game: str, own: Section) -> Rules:
    return Rules(game, "socrates", (BOARD, own, COMMON))


UCHU_SECTION = Section(
    "宇宙遊泳 (Space Walk), `socrates-uchu`: five in a row",
    T("宇宙遊泳: five in a row", "宇宙遊泳：五目並べ"),
    (
        Page(
            T("Place or move", "置くか動かすか"),
            T(
                "The board starts empty; each player holds 6 plain and 6 marked pieces. On your "
                "turn place one on any empty cell, or move one. A plain piece steps one cell up, "
                "down, left or right.",
                "盤は空から始まり、各自 無地6・印6 の駒を持ちます。手番では空きマスに1つ置くか、"
                "駒を1つ動かします。無地の駒は上下左右に1マス。",
            ),
            Diagram(
                "10/10/10/10/10/10/4P5/10/10 b P5M6p6m6 0 1",
                piece="e3",
                reach=("d3", "e2", "e4", "f3"),
            ),
        ),
        Page(
            T("The marked piece leaps", "印の駒は桂馬跳び"),
            T(
                "A marked piece makes a knight's leap (two one way, one sideways), over anything.",
                "印の駒はナイトの跳び（縦横2つ＋横1つ）で、間を飛び越えます。",
            ),
            Diagram(
                "10/10/10/10/10/10/4M5/10/10 b P6M5p6m6 0 1",
                piece="e3",
                reach=("c2", "c4", "d1", "d5", "f1", "f5", "g2", "g4"),
            ),
        ),
        Page(
            T("Space walk", "宇宙遊泳"),
            T(
                "A piece on a space cell may also slide any distance in a straight line along "
                "space cells, stopping before the first piece. It never turns a corner and never "
                "walks onto the ground.",
                "宇宙のマスにいる駒は、宇宙のマスに沿ってまっすぐ何マスでも滑れます。最初の駒の"
                "手前で止まり、角を曲がったり地上へ入ったりはしません。",
            ),
            Diagram(
                "10/10/10/10/10/10/10/10/4P5 b P5M6p6m6 0 1",
                piece="e1",
                reach=("a1", "b1", "c1", "d1", "e2", "f1", "g1", "h1", "i1", "j1"),
            ),
        ),
        Page(
            T("Jump, and five in a row", "跳び越しと五目"),
            T(
                "A piece may jump, in any of 8 directions, over an unbroken line of opponent "
                "pieces right next to it, landing just beyond; nothing is captured. Win with "
                "five of your pieces in a row, column or diagonal. Here e5 jumps the marked d5.",
                "8方向のどれかに、隣から連続して並ぶ相手の駒を飛び越え、その先に着地できます。"
                "駒は取られません。自分の駒を縦・横・斜めに5つ並べれば勝ち。図は e5 が d5 の印を"
                "飛び越えたところ。",
            ),
            Diagram(UCHU, moves=("e5-c5",)),
        ),
    ),
)

SHINKEN_SECTION = Section(
    "真剣勝負 (Duel), `socrates-shinken`: a race",
    T("真剣勝負: a race", "真剣勝負：競走"),
    (
        Page(
            T("Two flips, then the race", "反転2回、それから競走"),
            T(
                "Each side starts with 10 plain pieces on its back row. Each player's first two "
                "turns flip one of their pieces to marked. No move ever goes backward.",
                "各自、最奥の列に無地の駒10枚で始めます。最初の2手はそれぞれ自分の駒を1枚、"
                "印の面へ反転します。どの手も後ろへは進めません。",
            ),
            Diagram(moves=("c1!", "e9!", "f1!", "i9!")),
        ),
        Page(
            T("Run, step, travel the ring", "走る・横へ・外周を回る"),
            T(
                "Any piece runs forward any distance, or steps one cell sideways; a marked piece "
                "also steps diagonally forward. On the equator a piece slides sideways; a marked "
                "piece on the outer ring travels along it, round corners. Only a one-cell move may "
                "capture. Reach the far row and survive one reply to win.",
                "どの駒も前へ何マスでも走るか、横へ1マス。印の駒は斜め前へも1マス。赤道では横に"
                "滑れ、外周の印の駒は角を曲がって外周を進めます。取れるのは1マスの動きだけ。"
                "相手の最奥列に着き、相手の一手を生き延びれば勝ちです。",
            ),
            Diagram(
                SHINKEN,
                piece="c1",
                reach=(
                    "a1",
                    "a2",
                    "a3",
                    "a4",
                    "a5",
                    "a6",
                    "a7",
                    "a8",
                    "b1",
                    "b2",
                    "c2",
                    "c3",
                    "c4",
                    "c5",
                    "c6",
                    "d1",
                    "d2",
                ),
            ),
        ),
    ),
)

KOKUTAN_SECTION = Section(
    "黒壇の馬 (Ebony Horse), `socrates-kokutan`: a checkers race",
    T("黒壇の馬: a checkers race", "黒壇の馬：チェッカーの競走"),
    (
        Page(
            T("Flips first", "まず反転"),
            T(
                "Twelve plain pieces each on the ground and equator; the outer ring is a wall. "
                "First, each turn flips one of your plain pieces to marked, or passes; two passes "
                "in a row start the moves.",
                "各12枚の無地の駒が地上と赤道に並び、外周は壁です。まずは手番ごとに無地の駒を1枚"
                "印へ反転するか、パス。パスが二手続くと移動の段階に入ります。",
            ),
            Diagram(piece="c3", reach=("c3",)),
        ),
        Page(
            T("Diagonal steps and jump chains", "斜めの一歩と連続跳び"),
            T(
                "Every move is diagonal: a step forward, or a chain of jumps over any adjacent "
                "piece (reflecting off the wall), ending strictly forward of where it began. "
                "Jumped pieces stay. A piece next to an enemy of the other face is in check and "
                "must move if it can. Fill the four cells of the opponent's back ground row to "
                "win.",
                "動きはすべて斜め：前へ1マス、または隣の駒（敵味方問わず）を跳ぶ連続跳び"
                "（壁では反射）で、始めより前で終わること。跳ばれた駒はそのまま。違う面の敵の隣に"
                "いる駒はチェックで、動けるなら動かさねばなりません。相手側の奥の4マスを埋めれば勝ち。",
            ),
            Diagram(KOKUTAN, piece="d4", reach=("c5", "e5", "f6")),
        ),
    ),
)

TWOTHREE_SECTION = Section(
    "ツースリー (Two-Three), `socrates-twothree`: a jump race",
    T("ツースリー: a jump race", "ツースリー：跳び越し競走"),
    (
        Page(
            T("Forward along the column", "縦にだけ進む"),
            T(
                "Only columns e–f, rows 2–8 are used. A piece moves along its column: one cell "
                "forward, or a jump forward over an unbroken line of enemy pieces. Going back is "
                "allowed only when none of your pieces can go forward. Put all six on the "
                "opponent's start cells to win. Here White answers e4-e5 by jumping to e4.",
                "使うのは e〜f 列の2〜8行だけ。駒は自分の列を、前へ1マスか、前に連続する敵の駒を"
                "跳び越えて進みます。後退できるのは、どの駒も前へ進めないときだけ。6枚すべてを相手の"
                "初期位置に置けば勝ち。図は e4-e5 に対し後手が e4 へ跳び返したところ。",
            ),
            Diagram(moves=("e4-e5", "e6-e4")),
        ),
    ),
)

RULES_UCHU = _rules("socrates-uchu", UCHU_SECTION)
RULES_SHINKEN = _rules("socrates-shinken", SHINKEN_SECTION)
RULES_KOKUTAN = _rules("socrates-kokutan", KOKUTAN_SECTION)
RULES_TWOTHREE = _rules("socrates-twothree", TWOTHREE_SECTION)
