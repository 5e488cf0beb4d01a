"""``python -m engines``: the command line people working on the rules use."""

from __future__ import annotations

import pytest

from engines.__main__ import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_names_every_game_and_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "list")
    assert code == 0
    for game_id in ("rokumentai", "suji-shogi", "sangokushi", "socrates-uchu", "yosuko"):
        assert game_id in out
    assert "directions=default|sample" in out or "directions=" in out


def test_moves_prints_one_legal_move_per_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "rokumentai")
    assert code == 0
    lines = out.split()
    assert len(lines) == 49 and "四04占" in lines


def test_moves_of_a_position_with_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "socrates-twothree", "--option", "retreat=piece")
    assert code == 0 and sorted(out.split()) == ["e4-e5", "f4-f5"]


def test_play_prints_position_and_outcome(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "rokumentai", "44O", "三03領", "--lang", "ja")
    assert code == 0
    assert "▲四04占" in out and "△三03領" in out
    assert "to move: 0" in out


def test_play_refuses_an_illegal_move_with_suggestions(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "rokumentai", "四04武")
    assert code == 2
    assert "error:" in err and "closest legal:" in err


def test_perft(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "perft", "rokumentai", "2")
    assert code == 0 and out.strip() == "2352"
    code, out, _ = run(capsys, "perft", "socrates-twothree", "3", "--divide")
    assert code == 0 and out.splitlines()[-1] == "total\t8"


def test_ai_prints_a_legal_move_last(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "ai", "socrates-twothree", "--level", "8", "--seed", "1")
    assert code == 0 and out.splitlines()[-1] in ("e4-e5", "f4-f5")
    position = "v4.v6/1../.../.../... b 12 - 10"
    code, out, _ = run(
        capsys, "ai", "suji-shogi", position, "--level", "2", "--budget-scale", "0.1"
    )
    assert code == 0 and out.splitlines()[-1] in ("3b3a", "3b3a+")


def test_ai_chooses_a_secret_setup(capsys: pytest.CaptureFixture[str]) -> None:
    # a node budget, not a time one: the same choice however loaded the machine is
    budget = ("--max-nodes", "2000", "--budget-scale", "1000")
    args = ("ai", "suji-shogi", "--level", "1", "--seat", "1", "--seed", "4", *budget)
    code, out, _ = run(capsys, *args)
    assert code == 0 and sorted(out.splitlines()[-1].replace("/", "")) == list("123456")
    assert run(capsys, *args)[1] == out
