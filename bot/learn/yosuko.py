"""略式易双六's rules pages, from the rules document ``yosuko.md``. Its marks are lines
(1-6), not cells."""

from __future__ import annotations

from bot.learn import Diagram, Page, Rules, Section
from engines.core import Text as T

TABLE = "XVIIr,XI,III,VIIIr,XIXr,VI"
DEALT = f"{TABLE} - - -/-/-/-/-/- - 1 start 0"
MID = f"{TABLE} 2 2 C3,C8/CQ,C4/C1/P9,P2/P5/PK S4,W10,P6,W3 1 card 30"
UPPER = f"{TABLE} 2 5 C3,C8/CQ,C4/C1/P9,P2/P5/PK S4,W10,P6,W3 1 card 40"
WON = f"{TABLE} 2 5 C8/C4/C1,C10/P9,P2/P5,P3/PK,P7 S4,W10,P6,W3,S1,CQ,C3 1 end 50"

CARDS = Section(
    "The cards",
    T("The cards", "カード"),
    (
        Page(
            T("A tarot solitaire", "タロットの一人遊び"),
            T(
                "Six major arcana lie as the six lines (爻) of an I Ching hexagram. Upright or "
                "reversed, each has an M Major (red) and an F Major (green) number. You draw minor "
                "arcana: Wands W, Cups C, Swords S, Coins P, worth 1–10, Page 11, Knight 12, "
                "Queen 13, King 14.",
                "大アルカナ6枚を易の卦の6本の爻として並べます。正位置か逆位置かで、それぞれに"
                "M Major（赤）と F Major（緑）の数があります。引くのは小アルカナ：ワンド W、"
                "カップ C、ソード S、コイン P。数札は1〜10、ペイジ11、ナイト12、クイーン13、"
                "キング14です。",
            ),
            Diagram(DEALT),
        ),
    ),
    covers=("Options",),
)

SETUP = Section(
    "Setup",
    T("Setup", "準備"),
    (
        Page(
            T("Choose the token's line", "コマを置く爻を選ぶ"),
            T(
                "After the deal (Strength and Justice trade places), choose the token's line "
                "(start 1 … start 6; the green dots). Lines 1–3 are the lower trigram, 4–6 the "
                "upper. An upper start shuffles in The Fool and your goal is line 5 or 6; a lower "
                "start shuffles in Death and your goal is line 2 or 5.",
                "配り終えたら（力と正義は入れ替わります）、コマを置く爻を選びます（start 1〜6、"
                "緑の点）。1〜3爻が下卦、4〜6爻が上卦。上卦から始めると愚者を混ぜ、ゴールは5爻か"
                "6爻。下卦から始めると死神を混ぜ、ゴールは2爻か5爻です。",
            ),
            Diagram(DEALT, reach=("1", "2", "3", "4", "5", "6")),
        ),
    ),
)

TURN = Section(
    "A turn",
    T("A turn", "一手"),
    (
        Page(
            T("Draw a card", "カードを引く"),
            T(
                "Press draw: the top card is revealed. A card of the token's own trigram suit "
                "(Cups below, Coins above) piles up on its line; the other suit piles on the "
                "partner line (1↔4, 2↔5, 3↔6) and the token moves forward. Swords and Wands call "
                "a judgement. Here a Cup lands on line 2.",
                "「引く」で山札の一番上をめくります。コマのいる卦の札（下卦はカップ、上卦はコイン）"
                "はその爻に積み、もう一方の札は応爻（1↔4、2↔5、3↔6）に積んでコマが順方向に進みます。"
                "ソードとワンドは判定になります。図はカップが2爻に積まれたところ。",
            ),
            Diagram(MID, moves=("C6",)),
        ),
    ),
)

JUDGEMENT = Section(
    "The judgement (判定)",
    T("The judgement", "判定"),
    (
        Page(
            T("From against To", "From 対 To"),
            T(
                "The token moves if M Minor (the drawn card) + F Minor(From) > M Major(To) + "
                "F Minor(To). F Minor is the highest card on a line's stack, or its F Major when "
                "the stack is empty. Here S9 + CQ = 22 beats 3 + P5 = 8; on the lower trigram "
                "with a Sword you may then move or stay.",
                "M Minor（引いた札）+ From の F Minor が To の M Major + F Minor より大きければ"
                "コマは動きます。F Minor は爻に積まれた札の最大値、空なら F Major。図は "
                "S9 + CQ = 22 が 3 + P5 = 8 に勝ったところ。下卦でソードなら、進むか留まるかを"
                "選べます。",
            ),
            Diagram(MID, moves=("S9",)),
        ),
    ),
)

END = Section(
    "The end",
    T("The end", "終わり"),
    (
        Page(
            T("The Fool or Death", "愚者か死神"),
            T(
                "When the shuffled-in major comes up, the game ends: you win if the token is on "
                "one of your goal lines. Here Death came with the token on line 5: a win.",
                "混ぜた大アルカナが出たらゲーム終了。コマがゴールの爻にあれば勝ちです。"
                "図はコマが5爻にあるときに死神が出た勝ちの局面。",
            ),
            Diagram(WON),
        ),
    ),
)

NOTATION = Section(
    "Notation",
    T("Writing moves", "操作の書き方"),
    (
        Page(
            T("start 4, draw, move, stay", "start 4・draw・move・stay"),
            T(
                "Your actions are start 1 … start 6, draw (引く), and after a lower-trigram "
                "Sword, move (進む) or stay (留まる). The record also keeps the host's chance "
                "steps (deal XVIIr, S10) so a game replays exactly.",
                "操作は start 1〜start 6、draw（引く）、下卦でソードの後は move（進む）か "
                "stay（留まる）。記録には配りや引いた札（deal XVIIr、S10）も残り、対局を正確に"
                "再現できます。",
            ),
            Diagram(UPPER, moves=("S2",)),
        ),
    ),
    covers=("Position text", "Rulings"),
)

RULES = Rules("yosuko", "yosuko", (CARDS, SETUP, TURN, JUDGEMENT, END, NOTATION))
