"""The site's colours pass WCAG 2.1 AA's contrast ratios, computed from static/site.css itself
(issue 46, 5): text at least 4.5:1 against what it is drawn on, the parts of a control and the
focus outline at least 3:1 (1.4.11). A fast check beside the browser's axe scan
(test_accessibility.py): a change of the CSS that breaks contrast fails here at once."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = (Path(__file__).resolve().parents[2] / "bot" / "web" / "static" / "site.css").read_text()


def declared(selector: str, prop: str) -> str:
    """The value of ``prop`` in the rule for exactly ``selector``."""
    for rule in re.finditer(r"([^{}]+)\{([^}]*)\}", CSS):
        names = [s.strip() for s in rule.group(1).split("*/")[-1].split(",")]
        if selector in names:
            for decl in rule.group(2).split(";"):
                name, _, value = decl.partition(":")
                if name.strip() == prop:
                    return value.strip()
    raise AssertionError(f"no {prop} for {selector}")


def colour(value: str) -> tuple[float, float, float]:
    m = re.search(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})\b", value)
    assert m, value
    h = m.group(1)
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    return tuple(int(h[i : i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def luminance(rgb: tuple[float, float, float]) -> float:
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def ratio(a: str, b: str) -> float:
    la, lb = sorted((luminance(colour(a)), luminance(colour(b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


PAGE = declared("body", "background")
INK = declared("body", "color")
HEADER = declared(".top", "background")

PAIRS = [
    ("body text", INK, PAGE, 4.5),
    ("header links", declared(".top a", "color"), HEADER, 4.5),
    ("the move shown", INK, declared('.moves a[aria-current="true"]', "background"), 4.5),
    ("the keys' hint", declared(".keys", "color"), PAGE, 4.5),
    ("a step button's border", declared(".steps .step", "border"), PAGE, 3.0),
    (
        "the focus outline",
        declared("a:focus-visible", "outline"),
        PAGE,
        3.0,
    ),
    (
        "the focus outline on the header",
        declared(".top a:focus-visible", "outline-color"),
        HEADER,
        3.0,
    ),
]


@pytest.mark.parametrize(("what", "fore", "back", "least"), PAIRS, ids=[p[0] for p in PAIRS])
def test_contrast(what: str, fore: str, back: str, least: float) -> None:
    assert ratio(fore, back) >= least, f"{what}: {ratio(fore, back):.2f}:1"


def test_the_ratio_is_wcags() -> None:
    assert ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
