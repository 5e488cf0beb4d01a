"""The charts (render/charts.py): PNGs in the boards' font, within the size limit, for long and
busy games as for short ones."""

from __future__ import annotations

import io
import math

from PIL import Image

from render.charts import MAX_CHART_BYTES, rating_history, win_chances


def png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        return image.size


def test_a_long_three_player_chart_stays_small() -> None:
    plies = 400
    curves = [[(1 + math.sin(k * 0.7 + s)) / 3 for k in range(plies + 1)] for s in range(3)]
    data = win_chances(
        curves, ["魏 alice", "呉 bob", "蜀 carol"], [12, 200, 399],
        title="#1 三国志", xlabel="手数", ylabel="勝率",
    )  # fmt: skip
    assert png_size(data) == (800, 400) and len(data) <= MAX_CHART_BYTES


def test_a_rating_history_of_one_game_and_of_several() -> None:
    one = rating_history([("六面体", [1000.0])], title="alice", xlabel="games", ylabel="rating")
    many = rating_history(
        [("六面体", [float(1000 + 7 * k) for k in range(300)]), ("三国志", [990.0, 1010.0])],
        title="alice",
        xlabel="games",
        ylabel="rating",
    )
    assert png_size(one) == png_size(many) == (800, 400)
    assert len(many) <= MAX_CHART_BYTES and one != many
