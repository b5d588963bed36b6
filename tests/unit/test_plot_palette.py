"""posenc.plot's own pictures take their colours only from posenc.plot.PALETTE.

Each public drawing function is called on small data; every line, bar, patch
and marker it draws must be a PALETTE colour (transparency aside). Images
(heatmaps) use colormaps, which are checked by name: perceptually uniform or
diverging, never the rainbow "jet".
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import posenc  # noqa: E402
from posenc import plot  # noqa: E402

PALETTE_RGB = {mcolors.to_hex(c)[:7].lower() for c in plot.PALETTE.values()}
CMAPS = {"viridis", "cividis", "magma", "inferno", "plasma", "RdBu_r", "RdBu", "coolwarm",
         "PuOr", "PuOr_r", "BrBG", "Greys", "gray"}


def drawn_colours(ax):
    """Hex colours (no alpha) of what a function drew on ``ax``."""
    colours = []
    for line in ax.lines:
        colours += [line.get_color(), line.get_markerfacecolor(), line.get_markeredgecolor()]
    for patch in ax.patches:
        colours += [patch.get_facecolor(), patch.get_edgecolor()]
    for coll in ax.collections:
        colours += list(coll.get_facecolors()) + list(coll.get_edgecolors())
    found = set()
    for colour in colours:
        if isinstance(colour, str) and colour in ("none", "auto"):
            continue
        rgba = mcolors.to_rgba(colour)
        if rgba[3] == 0:
            continue  # invisible
        found.add(mcolors.to_hex(rgba[:3]).lower())
    return found


def _pe():
    return posenc.sinusoidal(12, 8)


CALLS = {
    "heatmap": lambda: plot.heatmap(_pe()),
    "curves": lambda: plot.curves(_pe(), [0, 1, 2, 3]),
    "similarity": lambda: plot.similarity(_pe()),
    "attention_weights": lambda: plot.attention_weights(np.full((3, 3), 1 / 3), ["a", "b", "c"]),
    "bars": lambda: plot.bars(_pe()[:2, :4], ["first", "second"]),
    "pair_circle": lambda: plot.pair_circle(_pe(), 1),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_plot_functions_draw_only_palette_colours(name):
    plot.use_book_style()
    ax = CALLS[name]()
    try:
        outside = drawn_colours(ax) - PALETTE_RGB
        assert not outside, f"posenc.plot.{name} draws colours outside PALETTE: {sorted(outside)}"
        for image in ax.images:
            assert image.get_cmap().name in CMAPS, f"{name}: colormap {image.get_cmap().name}"
    finally:
        plt.close("all")


def test_every_public_drawing_function_is_checked():
    public = {n for n in dir(plot) if callable(getattr(plot, n)) and not n.startswith("_")
              and getattr(getattr(plot, n), "__module__", "") == plot.__name__
              and n != "use_book_style"}
    assert public <= set(CALLS), f"not checked: {sorted(public - set(CALLS))}"


def test_the_check_sees_a_colour_outside_the_palette():
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1], color="tab:red")
    try:
        assert drawn_colours(ax) - PALETTE_RGB == {mcolors.to_hex("tab:red")}
    finally:
        plt.close(fig)
