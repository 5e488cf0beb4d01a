"""ソクラテス (Socrates): Goro Hasegawa's board and its four games, one module each.

宇宙遊泳 (five in a row), 真剣勝負 (a race), 黒壇の馬 (a checkers race) and ツースリー (a jump
race) share the board, the notation and the position text in :mod:`engines.socrates.board`.
"""

from __future__ import annotations

from engines.socrates import kokutan, shinken, twothree, uchu

GAMES = (uchu.GAME, shinken.GAME, kokutan.GAME, twothree.GAME)
