"""略式易双六's lessons (rules pages: :mod:`bot.learn.yosuko`). The drawn cards are the
script's chance steps, so a lesson deals the same cards every time."""

from __future__ import annotations

from bot.learn.lessons import Goal, GoalKind, Lesson
from bot.learn.yosuko import DEALT, TABLE
from engines.core import Text as T

GAME = "yosuko"
STACKS = "C3,C8/CQ,C4/C1/P9,P2/P5/PK S4,W10,P6,W3"
CARDS, SETUP, TURN = "The cards", "Setup", "A turn"
JUDGEMENT, END, NOTATION = "The judgement (判定)", "The end", "Notation"


def _at(token: int, stacks: str = STACKS) -> str:
    """The token on ``token`` after a lower start (line 2), waiting for a draw."""
    return f"{TABLE} 2 {token} {stacks} 1 draw 30"


LESSONS = (
    Lesson(
        "yosuko-1",
        GAME,
        T("Choose the start", "始める爻を選ぶ"),
        T(
            "The six majors are dealt as the six lines. Start on the lower trigram (lines 1–3) "
            "and your goal lines are 2 and 5; Death is shuffled into the deck.",
            "大アルカナ6枚が6本の爻として配られました。下卦（1〜3爻）から始めるとゴールは2爻と"
            "5爻、山札には死神が混ざります。",
        ),
        Goal(
            GoalKind.REACH,
            T(
                "Start the token on line 2, a goal line.",
                "ゴールの一つ、2爻からコマを始めましょう。",
            ),
            cell="2",
        ),
        ("start 2",),
        T("Type start 2.", "start 2 と入力しましょう。"),
        T(
            "That line is not 2. A lower start makes lines 2 and 5 the goals: start on 2 to be "
            "on one already.",
            "それは2爻ではありません。下卦から始めるならゴールは2爻と5爻。2爻から始めれば最初から"
            "ゴールの上です。",
        ),
        T(
            "The token is on line 2 and Death is in the deck: when it comes up, line 2 or 5 wins.",
            "コマは2爻、山札には死神。死神が出たとき2爻か5爻にいれば勝ちです。",
        ),
        (CARDS, SETUP, NOTATION),
        position=DEALT,
    ),
    Lesson(
        "yosuko-2",
        GAME,
        T("Draw and move", "引いて進む"),
        T(
            "The token is on line 2, in the lower trigram, whose suit is Cups. A Cup piles on "
            "the token's own line; a Coin piles on the partner line and the token moves forward.",
            "コマは下卦の2爻。下卦の札はカップです。カップはコマの爻に積まれ、コインは応爻に"
            "積まれてコマが順方向に進みます。",
        ),
        Goal(
            GoalKind.REACH,
            T("Draw until the token reaches line 3.", "コマが3爻に着くまで引きましょう。"),
            cell="3",
        ),
        ("draw", "draw"),
        T(
            "Press draw (or type draw); the cards decide.",
            "「引く」（draw）を押しましょう。札が決めます。",
        ),
        T("Drawing is the only way on.", "進むには引くしかありません。"),
        T(
            "The Cup stayed on line 2; the Coin went to line 5 and pushed the token to line 3.",
            "カップは2爻に残り、コインは5爻に積まれてコマを3爻へ進めました。",
        ),
        (TURN,),
        position=_at(2),
        replies=("C6", "P7"),
    ),
    Lesson(
        "yosuko-3",
        GAME,
        T("Keep the card or move on", "留まるか進むか"),
        T(
            "The token is on line 2, one of your goal lines. A Sword calls a judgement; on the "
            "lower trigram you then choose: move or stay.",
            "コマはゴールの一つ、2爻にあります。ソードは判定になり、下卦なら進むか留まるかを"
            "選べます。",
        ),
        Goal(
            GoalKind.PLAY,
            T(
                "Draw, and keep the token on its goal line.",
                "引いて、コマをゴールの爻に残しましょう。",
            ),
            moves=("stay",),
        ),
        ("draw", "stay"),
        T("Draw, then choose stay.", "引いたあと、stay（留まる）を選びましょう。"),
        T(
            "Moving takes the token off line 2, a goal line, and Death may come with any card.",
            "進むとコマはゴールの2爻を離れます。死神はいつ出てもおかしくありません。",
        ),
        T(
            "Stayed: the Sword is discarded and the token keeps its goal line.",
            "留まりました。ソードは捨て札になり、コマはゴールの爻に残ります。",
        ),
        (JUDGEMENT, NOTATION),
        position=_at(2),
        replies=("S9",),
    ),
    Lesson(
        "yosuko-4",
        GAME,
        T("Move on", "進む"),
        T(
            "The token is on line 1, not a goal line. A Sword's judgement may let it move.",
            "コマはゴールではない1爻にあります。ソードの判定で動けるかもしれません。",
        ),
        Goal(
            GoalKind.REACH,
            T("Draw, and move the token to line 4.", "引いて、コマを4爻へ進めましょう。"),
            cell="4",
        ),
        ("draw", "move"),
        T("Draw, then choose move.", "引いたあと、move（進む）を選びましょう。"),
        T(
            "Staying leaves the token on line 1, no goal at all.",
            "留まるとコマはゴールでない1爻のままです。",
        ),
        T(
            "The King of Swords won the judgement: the token went to the partner line, 4.",
            "ソードのキングが判定に勝ち、コマは応爻の4爻へ移りました。",
        ),
        (JUDGEMENT,),
        position=_at(1, "C3,C8/-/C1/P9,P2/P5/PK S4,W10,P6,W3"),
        replies=("SK",),
    ),
    Lesson(
        "yosuko-5",
        GAME,
        T("Death on a goal line", "ゴールで死神"),
        T(
            "The token is on line 5, your other goal line. Death is still in the deck.",
            "コマはもう一つのゴール、5爻にあります。山札にはまだ死神が残っています。",
        ),
        Goal(GoalKind.WIN, T("Draw and win.", "引いて勝ちましょう。")),
        ("draw",),
        T("Draw: this time the card is Death.", "引きましょう。今度の札は死神です。"),
        T("Only a draw goes on.", "引くしかありません。"),
        T(
            "Death came up with the token on line 5: you win.",
            "コマが5爻にいるときに死神が出ました。勝ちです。",
        ),
        (END,),
        position=_at(5),
        replies=("XIII",),
    ),
)
