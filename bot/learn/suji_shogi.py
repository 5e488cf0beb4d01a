"""数字将棋's rules pages, from the rules document ``suji-shogi.md``."""

from __future__ import annotations

from bot.learn import Diagram, Page, Rules, Section
from engines.core import Text as T

START = "v3v6v2/v5v4v1/.../123/465 b - - 0"
"""Black 465/123 against White 362/541, both revealed (the author's sample game)."""
SAMPLE = (
    "3d3c", "3b2c", "1d2c", "2b2c", "1e1d", "3a2b", "2e3d", "2c1c", "1d1c", "1b1c", "5*2c",
)  # fmt: skip


def _lone(n: int) -> str:
    """Black's ``n`` alone on 2三 (2c), White's 1 on 2五 so White has a piece."""
    return f".../.../.{n}./.../.v1. b - - 10"


def _piece(n: int, dirs_en: str, dirs_ja: str, reach: tuple[str, ...]) -> Page:
    return Page(
        T(f"The {n}", f"「{n}」の駒"),
        T(
            f"The {n} has {n} direction{'s' if n > 1 else ''}: {dirs_en}. The red dots on the "
            "piece's edge show them; the green dots show where it can step.",
            f"「{n}」の駒の方向は{n}つ：{dirs_ja}。駒の縁の赤い点が方向、緑の点が行けるマスです。",
        ),
        Diagram(_lone(n), piece="2c", reach=reach),
    )


BOARD = Section(
    "Board and pieces",
    T("Board and pieces", "盤と駒"),
    (
        Page(
            T("Numbers instead of a king", "王のかわりに数字"),
            T(
                "A small shogi on 3 files × 5 ranks. Each player has six pieces numbered 1 to 6, "
                "and there is no king: you win by capturing numbers that add up to 7. A piece "
                "steps one square, and the number on it is how many directions it has.",
                "3筋×5段の小さな将棋です。駒は1〜6の数字が6枚ずつで、王はありません。取った駒の"
                "数字の合計を7にすれば勝ち。駒は1マスずつ動き、書かれた数字が動ける方向の数です。",
            ),
            Diagram(START),
        ),
        _piece(1, "forward", "前", ("2b",)),
        _piece(2, "the two forward diagonals", "左右の斜め前", ("1b", "3b")),
        _piece(3, "forward and the two back diagonals", "前と左右の斜め後ろ", ("1d", "2b", "3d")),
        _piece(4, "the four diagonals", "斜め4方向", ("1b", "1d", "3b", "3d")),
        _piece(
            5,
            "forward and the four diagonals, like a silver",
            "前と斜め4方向（銀と同じ）",
            ("1b", "1d", "2b", "3b", "3d"),
        ),
        _piece(
            6,
            "forward, the forward diagonals, sideways and back, like a gold",
            "前・斜め前・横・後ろ（金と同じ）",
            ("1b", "1c", "2b", "2d", "3b", "3c"),
        ),
    ),
    covers=("Options",),
)

SETUP = Section(
    "Setting up (初期配置)",
    T("Setting up", "初期配置"),
    (
        Page(
            T("A secret arrangement", "見えない初期配置"),
            T(
                "Each player arranges their six pieces on their two nearest ranks without seeing "
                "the other's. Write it as six digits: back rank from file 3 to file 1, a slash, "
                "front rank. Here Black chose 465/123 and White 362/541; both are revealed once "
                "both are in.",
                "各自、自分に近い2段に6枚を、相手の配置を見ずに並べます。書き方は6桁：奥の段を"
                "3筋から1筋へ、スラッシュ、手前の段。図は先手 465/123、後手 362/541。"
                "両者がそろうと公開されます。",
            ),
            Diagram(START),
        ),
    ),
)

PLAY = Section(
    "Play",
    T("Moving, dropping, promoting", "動かす・打つ・成る"),
    (
        Page(
            T("Captures go to your hand", "取った駒は持ち駒に"),
            T(
                "On your turn move one piece one square, or drop a piece from your hand on any "
                "empty square (green dots). A captured piece goes to your hand as its number.",
                "手番では駒を1マス動かすか、持ち駒を空いているマス（緑の点）に打ちます。"
                "取った駒は数字のまま持ち駒になります。",
            ),
            Diagram(
                "v3../.5./.../.../... b 4 - 10",
                reach=(
                    "1a",
                    "1b",
                    "1c",
                    "1d",
                    "1e",
                    "2a",
                    "2c",
                    "2d",
                    "2e",
                    "3b",
                    "3c",
                    "3d",
                    "3e",
                ),
            ),
        ),
        Page(
            T("Promotion to 8", "成ると「8」"),
            T(
                "A move that ends on the far rank may turn the piece over to 8, which moves in "
                "all eight directions. It is your choice: 2b2a+ promotes, 2b2a does not. A 1 or "
                "2 that declines can never move again, and that is allowed.",
                "最奥の段で終わる手では、駒を裏返して「8」にできます。8は8方向に動けます。"
                "成るかは自由：2b2a+ は成り、2b2a は不成。不成の1や2は二度と動けませんが、"
                "それも許されます。",
            ),
            Diagram("v3../.5./.../.../... b 4 - 10", moves=("2b2a+",)),
        ),
    ),
)

WINNING = Section(
    "Winning",
    T("Winning: a sum of 7", "勝ち：合計7"),
    (
        Page(
            T("Numbers that add up to 7", "数字の合計が7"),
            T(
                "You win at once when two or more pieces in your hand add up to exactly 7: 1+6, "
                "2+5, 3+4, 1+2+4, 3+3+1 or 2+2+3. Here, in the author's sample game, Black holds "
                "the 4 and captures White's 3. No legal move loses; a fourth repetition or 600 "
                "plies is a draw.",
                "持ち駒のうち2枚以上の数字の合計がちょうど7になれば、その場で勝ちです"
                "（1+6、2+5、3+4、1+2+4、3+3+1、2+2+3）。図は作者の実戦譜で、4を持つ先手が後手の3を"
                "取ったところ。指す手がなければ負け、同一局面4回か600手で引き分けです。",
            ),
            Diagram(
                START,
                moves=(*SAMPLE, "1c1d", "2c2b"),
                captured=("2b",),
                options=(("directions", "sample"),),
            ),
        ),
    ),
    covers=("The sample game (実戦譜)",),
)

NOTATION = Section(
    "Writing moves",
    T("Writing moves", "指し手の書き方"),
    (
        Page(
            T("2e2d, 5*2c, 2b2a+", "2e2d・5*2c・2b2a+"),
            T(
                "A step is from and to square: 2e2d (the rank may be a letter a–e or a kanji, "
                "2五2四). A drop is number * square: 5*2c. Add + to promote. The kifu form "
                "2四5(25) and 2三5打 is read too.",
                "駒の移動は元と先のマス：2e2d（段は a〜e でも漢数字でも：2五2四）。打つときは "
                "数字*マス：5*2c。成りは + を付けます。棋譜の形 2四5(25)・2三5打 も使えます。",
            ),
            Diagram(START, moves=("3d3c",)),
        ),
    ),
    covers=("Rulings",),
)

RULES = Rules("suji-shogi", "suji-shogi", (BOARD, SETUP, PLAY, WINNING, NOTATION))
