"""The Socrates board's lessons: three on the shared board (they count for each of its four
games) and each game's own (rules pages: :mod:`bot.learn.socrates`)."""

from __future__ import annotations

from bot.learn.lessons import Goal, GoalKind, Lesson
from bot.learn.socrates import KOKUTAN
from engines.core import Text as T

UCHU, SHINKEN = "socrates-uchu", "socrates-shinken"
KOKUTAN_GAME, TWOTHREE = "socrates-kokutan", "socrates-twothree"
BOARD, COMMON = "The board", "Common rules"
UCHU_RULES = "宇宙遊泳 (Space Walk), `socrates-uchu`: five in a row"
SHINKEN_RULES = "真剣勝負 (Duel), `socrates-shinken`: a race"
KOKUTAN_RULES = "黒壇の馬 (Ebony Horse), `socrates-kokutan`: a checkers race"
TWOTHREE_RULES = "ツースリー (Two-Three), `socrates-twothree`: a jump race"

SHARED = (
    Lesson(
        "socrates-board-1",
        UCHU,
        T("The equator", "赤道"),
        T(
            "The Socrates board: columns a–j, rows 1–9. Row 5 across the middle is the equator, "
            "part of space. In 宇宙遊泳 you may place a piece from your hand on any empty cell.",
            "ソクラテスの盤は a〜j 列、1〜9 行。真ん中の5行目が赤道で、宇宙の一部です。"
            "宇宙遊泳では持ち駒を空いているどのマスにも置けます。",
        ),
        Goal(
            GoalKind.DROP,
            T("Place a marked piece on e5, on the equator.", "印の駒を赤道の e5 に置きましょう。"),
            cell="e5",
            piece="M",
        ),
        ("M@e5",),
        T("A marked piece is M, a placement is @: M@e5.", "印の駒は M、置く手は @：M@e5。"),
        T(
            "That is not a marked piece placed on e5. Write M@e5 (P@ places a plain one).",
            "それは e5 に置いた印の駒ではありません。M@e5 と書きます（P@ は無地）。",
        ),
        T(
            "Placed on the equator: column e, row 5. Every cell is named that way.",
            "赤道に置きました。e 列の5行目。どのマスもこう呼びます。",
        ),
        (BOARD, COMMON),
    ),
    Lesson(
        "socrates-board-2",
        TWOTHREE,
        T("A first move", "最初の一手"),
        T(
            "Black starts at the bottom and moves first. A move is written from-to, as e4-e5.",
            "先手（黒）は下から始め、先に指します。移動は 元-先 で、e4-e5 のように書きます。",
        ),
        Goal(GoalKind.REACH, T("Bring a piece to e5.", "駒を e5 へ進めましょう。"), cell="e5"),
        ("e4-e5",),
        T("The piece on e4 steps forward: e4-e5.", "e4 の駒を前へ：e4-e5。"),
        T("No piece of yours landed on e5.", "e5 に着いた駒がありません。"),
        T(
            "On the equator. White may now jump right over it.",
            "赤道に進みました。後手はこれを跳び越えられます。",
        ),
        (BOARD, COMMON),
    ),
    Lesson(
        "socrates-board-3",
        KOKUTAN_GAME,
        T("Passing", "パス"),
        T(
            "A turn can be a pass, written pass. In 黒壇の馬 the game starts with flips; two "
            "passes in a row start the moves.",
            "手番ではパス（pass）もできます。黒壇の馬は反転から始まり、パスが二手続くと移動の"
            "段階に入ります。",
        ),
        Goal(GoalKind.PLAY, T("Pass.", "パスしましょう。"), moves=("pass",)),
        ("pass",),
        T("Type pass.", "pass と入力しましょう。"),
        T("That was a flip, not a pass.", "それは反転で、パスではありません。"),
        T(
            "White passed too: two passes in a row, the pieces now move.",
            "後手もパスしました。パスが二手続いたので、ここから駒が動きます。",
        ),
        (COMMON, KOKUTAN_RULES),
        replies=("pass",),
    ),
)

UCHU_OWN = (
    Lesson(
        "socrates-uchu-1",
        UCHU,
        T("The marked piece leaps", "印の駒の跳び"),
        T(
            "Your marked piece on e3 makes a knight's leap, over anything.",
            "e3 の印の駒はナイトの跳びで、間を飛び越えて動きます。",
        ),
        Goal(GoalKind.REACH, T("Leap to g4.", "g4 へ跳びましょう。"), cell="g4"),
        ("e3-g4",),
        T("Two to the right, one up: e3-g4.", "右へ2つ、上へ1つ：e3-g4。"),
        T("That is not g4.", "そこは g4 ではありません。"),
        T(
            "A marked piece goes where a plain one never could.",
            "無地の駒には行けないマスへ跳べました。",
        ),
        (UCHU_RULES,),
        position="10/10/10/10/10/10/4M5/10/10 b P6M5p6m6 0 1",
    ),
    Lesson(
        "socrates-uchu-2",
        UCHU,
        T("Walking in space", "宇宙を歩く"),
        T(
            "Your piece on e1 stands on the outer ring, which is space: it may slide any "
            "distance along space cells.",
            "e1 の駒は外周、つまり宇宙にいます。宇宙のマスに沿って何マスでも滑れます。",
        ),
        Goal(GoalKind.REACH, T("Slide to the corner a1.", "隅の a1 まで滑りましょう。"), cell="a1"),
        ("e1-a1",),
        T("Slide left along row 1: e1-a1.", "1行目を左へ滑ります：e1-a1。"),
        T(
            "A plain piece off space steps one cell; to reach a1 slide along row 1.",
            "a1 へは1行目に沿って滑りましょう。",
        ),
        T("Four cells in one move: that is a space walk.", "一手で4マス。これが宇宙遊泳です。"),
        (UCHU_RULES, BOARD),
        position="10/10/10/10/10/10/10/10/4P5 b P5M6p6m6 0 1",
    ),
    Lesson(
        "socrates-uchu-3",
        UCHU,
        T("Five in a row", "五目並べ"),
        T(
            "Four of your pieces stand in a row, c3 to f3.",
            "あなたの駒が c3 から f3 まで4つ並んでいます。",
        ),
        Goal(GoalKind.WIN, T("Win in one move.", "一手で勝ちましょう。")),
        ("P@g3",),
        T(
            "Place a piece at either end of the row: b3 or g3.",
            "列の端（b3 か g3）に置きましょう。",
        ),
        T(
            "Not yet five in a row: extend the row at one end.",
            "まだ五つ並んでいません。列の端に足しましょう。",
        ),
        T("Five in a row: Black wins.", "五つ並びました。先手の勝ちです。"),
        (UCHU_RULES,),
        position="10/2pp6/10/10/10/10/2PPPP4/10/10 b P2M6p4m6 0 8",
    ),
)

SHINKEN_OWN = (
    Lesson(
        "socrates-shinken-1",
        SHINKEN,
        T("Two flips first", "まず反転"),
        T(
            "Your ten plain pieces stand on row 1. Your first two turns each flip one of them to "
            "marked.",
            "無地の駒10枚が1行目に並んでいます。最初の2手はそれぞれ1枚を印の面へ反転します。",
        ),
        Goal(
            GoalKind.PLAY,
            T("Flip a piece.", "駒を1枚反転しましょう。"),
            moves=tuple(f"{c}1!" for c in "abcdefghij"),
        ),
        ("c1!",),
        T("A flip is the cell and !: c1!.", "反転はマス名に ! を付けます：c1!。"),
        T("Flip one of your pieces on row 1.", "1行目の自分の駒を反転しましょう。"),
        T(
            "A marked piece also steps diagonally forward, and on the outer ring it travels "
            "round the corners.",
            "印の駒は斜め前へも進め、外周では角を曲がって進めます。",
        ),
        (SHINKEN_RULES,),
    ),
    Lesson(
        "socrates-shinken-2",
        SHINKEN,
        T("Only a step captures", "取れるのは一歩だけ"),
        T(
            "Your piece on e5 faces White's on e6. A run may go far, but only a one-cell move "
            "captures.",
            "e5 の駒の前、e6 に後手の駒。走れば遠くまで行けますが、取れるのは1マスの動きだけです。",
        ),
        Goal(GoalKind.CAPTURE, T("Capture the piece on e6.", "e6 の駒を取りましょう。"), cell="e6"),
        ("e5-e6",),
        T("One step forward: e5-e6.", "前へ1マス：e5-e6。"),
        T("The piece on e6 is still there.", "e6 の駒はまだ残っています。"),
        T("Captured with a single step.", "一歩で取りました。"),
        (SHINKEN_RULES,),
        position="p9/10/10/4p5/4P5/10/10/10/P9 b move 0 20",
    ),
    Lesson(
        "socrates-shinken-3",
        SHINKEN,
        T("The race to the far row", "最奥列への競走"),
        T(
            "Column a is open all the way to White's back row.",
            "a 列は後手の最奥列まで空いています。",
        ),
        Goal(
            GoalKind.WIN,
            T("Win: reach row 9 and survive.", "9行目に着いて生き延び、勝ちましょう。"),
        ),
        ("a1-a9",),
        T("Run the piece on a1 all the way: a1-a9.", "a1 の駒を最後まで走らせます：a1-a9。"),
        T("Row 9 is still out of reach that way.", "その手では9行目に届きません。"),
        T(
            "White could not take your piece on a9: Black wins.",
            "後手は a9 の駒を取れませんでした。先手の勝ちです。",
        ),
        (SHINKEN_RULES,),
        position="9p/10/10/10/10/10/10/10/P9 b move 0 20",
        # no script: the computer answers (whatever it plays, the piece on a9 survives)
    ),
)

KOKUTAN_OWN = (
    Lesson(
        "socrates-kokutan-1",
        KOKUTAN_GAME,
        T("A chain of jumps", "連続跳び"),
        T(
            "Your piece on d4 may step diagonally forward, or jump over any neighbour, again and "
            "again, as long as it ends forward of where it began.",
            "d4 の駒は斜め前へ1マス、または隣の駒（敵味方問わず）を跳んで、始めより前で終われば"
            "何回でも続けられます。",
        ),
        Goal(GoalKind.REACH, T("Jump to f6.", "f6 へ跳びましょう。"), cell="f6"),
        ("d4-f6",),
        T("Jump over the piece on e5: d4-f6.", "e5 の駒を跳び越えます：d4-f6。"),
        T("That is a step; f6 needs a jump.", "それは一歩です。f6 へは跳びが必要です。"),
        T(
            "Jumped. The jumped piece stays: nothing is captured.",
            "跳びました。跳ばれた駒はそのまま、取られません。",
        ),
        (KOKUTAN_RULES,),
        position=KOKUTAN,
    ),
    Lesson(
        "socrates-kokutan-2",
        KOKUTAN_GAME,
        T("Flip a piece", "反転"),
        T(
            "Before the moves, each turn flips one of your plain pieces to marked (or passes).",
            "移動の前に、手番ごとに無地の駒を1枚、印へ反転します（パスも可）。",
        ),
        Goal(
            GoalKind.PLAY, T("Flip the piece on c3.", "c3 の駒を反転しましょう。"), moves=("c3!",)
        ),
        ("c3!",),
        T("Write the cell and !: c3!.", "マス名と ! を書きます：c3!。"),
        T("Flip the piece on c3, not another.", "ほかの駒ではなく c3 を反転しましょう。"),
        T(
            "Marked now. Later, a piece next to an enemy of the other face is in check and must "
            "move.",
            "印になりました。移動の段階では、違う面の敵の隣にいる駒はチェックで、動かさねばなりません。",
        ),
        (KOKUTAN_RULES,),
    ),
)

TWOTHREE_OWN = (
    Lesson(
        "socrates-twothree-1",
        TWOTHREE,
        T("Jump back at once", "すぐに跳び返す"),
        T(
            "You are White. Black just played e4-e5, right in front of your piece on e6.",
            "あなたは後手（白）。先手が e4-e5 と、あなたの e6 の駒の目の前に来ました。",
        ),
        Goal(GoalKind.REACH, T("Jump to e4.", "e4 へ跳びましょう。"), cell="e4"),
        ("e6-e4",),
        T("Jump over the piece on e5: e6-e4.", "e5 の駒を跳び越えます：e6-e4。"),
        T(
            "That leaves Black's piece unjumped; e4 is the target.",
            "それでは跳べていません。狙いは e4 です。",
        ),
        T(
            "A jump goes over an unbroken line of enemy pieces.",
            "跳びは、連続して並ぶ敵の駒を越えて進みます。",
        ),
        (TWOTHREE_RULES,),
        moves=("e4-e5",),
        seat=1,
    ),
    Lesson(
        "socrates-twothree-2",
        TWOTHREE,
        T("Over the enemy line", "敵の列を越える"),
        T(
            "White's piece came to f5, right in front of your piece on f4.",
            "後手の駒が f5 に来て、あなたの f4 の駒の目の前です。",
        ),
        Goal(GoalKind.REACH, T("Jump to f6.", "f6 へ跳びましょう。"), cell="f6"),
        ("f4-f6",),
        T("Jump forward over f5: f4-f6.", "f5 を越えて前へ跳びます：f4-f6。"),
        T("Jump the piece on f5 instead.", "f5 の駒を跳び越えましょう。"),
        T("One step closer to White's start cells.", "後手の初期位置に一歩近づきました。"),
        (TWOTHREE_RULES,),
        moves=("e4-e5", "f6-f5"),
    ),
)
