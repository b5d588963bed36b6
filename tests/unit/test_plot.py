"""Tests of posenc.plot: the book's pictures (why order matters, the cat sat on the mat), and its palette.

Each public drawing function is called on small data; every line, bar, patch
and marker it draws must be a PALETTE colour (transparency aside). Images
(heatmaps) use colormaps, which are checked by name: perceptually uniform or
diverging, never the rainbow "jet".
"""

from __future__ import annotations

import math

import matplotlib
import matplotlib.colors as mcolors
import matplotlib.pyplot as plt
import numpy as np
import pytest

import posenc
from posenc import attention, causal_mask, plot, sinusoidal


matplotlib.use("Agg")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


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


def test_bars_draw_one_group_per_vector():
    vectors = [[1.0, -2.0, 0.5], [0.0, 3.0, -1.0]]
    ax = plot.bars(vectors, ["a", "b"], title="T")
    assert len(ax.containers) == 2
    for container, vector in zip(ax.containers, vectors):
        assert [bar.get_height() for bar in container] == vector
    # bars of the same dimension stand side by side around the tick
    left = [bar.get_x() + bar.get_width() / 2 for bar in ax.containers[0]]
    right = [bar.get_x() + bar.get_width() / 2 for bar in ax.containers[1]]
    np.testing.assert_allclose(np.add(left, right) / 2, [0, 1, 2])
    assert all(a < b for a, b in zip(left, right))
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a", "b"]
    assert ax.get_title() == "T" and ax.get_xlabel() == "dimension" and ax.get_ylabel() == "value"
    # the two groups are told apart by hatching too, not only by colour
    assert ax.containers[0][0].get_hatch() != ax.containers[1][0].get_hatch()


def test_bars_on_given_axes_and_single_vector():
    fig, (ax0, ax1) = plt.subplots(1, 2)
    out = plot.bars(np.array([[2.0, 4.0]]), ["only"], ax=ax1)
    assert out is ax1 and not ax0.containers
    assert [bar.get_height() for bar in ax1.containers[0]] == [2.0, 4.0]


@pytest.mark.parametrize(
    "args, error, words",
    [
        (([1.0, 2.0], ["a"]), ValueError, "vectors must have 2 dimension"),
        (([[1.0, 2.0]], ["a", "b"]), ValueError, "labels has 2 entries but there are 1 vectors"),
        (([["x", "y"]], ["a"]), TypeError, "vectors must be array-like of numbers"),
        (([[1.0, np.nan]], ["a"]), ValueError, "finite"),
    ],
)
def test_bars_bad_input(args, error, words):
    with pytest.raises(error, match=words):
        plot.bars(*args)


def test_pair_circle_points_are_sin_cos_of_the_angles():
    table = sinusoidal(6, 4, start=1)
    ax = plot.pair_circle(table, 0, positions=np.arange(1, 7))
    circle, points = ax.lines[0], ax.lines[1]
    np.testing.assert_allclose(np.hypot(circle.get_xdata(), circle.get_ydata()), 1.0)
    # pair 0 of d_model 4 turns by 1 radian per position: (sin p, cos p), the
    # first column across, so the hand starts at 12 o'clock and turns clockwise
    np.testing.assert_allclose(points.get_xdata(), [math.sin(p) for p in range(1, 7)])
    np.testing.assert_allclose(points.get_ydata(), [math.cos(p) for p in range(1, 7)])
    assert [t.get_text() for t in ax.texts] == ["1", "2", "3", "4", "5", "6"]
    assert ax.get_title() == "Pair 0 (dims 0, 1)"
    assert ax.get_xlabel() == "sin column (dim 0)" and ax.get_ylabel() == "cos column (dim 1)"


def test_pair_circle_turns_clockwise():
    # from one position to the next the hand turns clockwise: the cross
    # product of consecutive points (x1 y2 - y1 x2) is negative
    ax = plot.pair_circle(sinusoidal(6, 4), 0, annotate=False)
    x, y = ax.lines[1].get_xdata(), ax.lines[1].get_ydata()
    assert (x[0], y[0]) == (0.0, 1.0)  # 12 o'clock at position 0
    assert np.all(x[:-1] * y[1:] - y[:-1] * x[1:] < 0)


def test_pair_circle_two_pairs_on_one_axes():
    table = sinusoidal(6, 4, start=1)
    ax = plot.pair_circle(table, 0, annotate=False, label="fast")
    plot.pair_circle(table, 1, ax=ax, annotate=False, color=plot.PALETTE["orange"],
                     marker="s", label="slow")
    labelled = {line.get_label(): line for line in ax.lines}
    fast, slow = labelled["fast"], labelled["slow"]
    assert fast is ax.lines[1]
    assert slow.get_marker() == "s" and slow.get_color() == plot.PALETTE["orange"]
    assert fast.get_color() == plot.PALETTE["blue"]
    np.testing.assert_allclose(slow.get_xdata(), [math.sin(p / 100) for p in range(1, 7)])


def test_pair_circle_second_pair_without_labels():
    table = sinusoidal(3, 4)
    ax = plot.pair_circle(table, 1, annotate=False, title="slow")
    points = ax.lines[1]
    np.testing.assert_allclose(points.get_xdata(), [math.sin(p / 100) for p in range(3)])
    np.testing.assert_allclose(points.get_ydata(), [math.cos(p / 100) for p in range(3)])
    assert not ax.texts and ax.get_title() == "slow"


@pytest.mark.parametrize(
    "args, kwargs, error, words",
    [
        ((np.zeros((3, 4)), 2), {}, ValueError, "pair 2 needs columns 4 and 5, but the table has 4"),
        ((np.zeros((3, 5)), 2), {}, ValueError, "pair 2 needs columns 4 and 5"),
        ((np.zeros((3, 4)), -1), {}, ValueError, "pair must be an integer >= 0"),
        ((np.zeros((3, 4)), 0.0), {}, TypeError, "pair must be an integer"),
        ((np.zeros(4), 0), {}, ValueError, "table must have 2 dimension"),
        ((np.zeros((3, 4)), 0), {"positions": [1, 2]}, ValueError, "positions has 2 entries"),
        ((np.zeros((3, 4)), 0), {"annotate": 1}, TypeError, "annotate"),
    ],
)
def test_pair_circle_bad_input(args, kwargs, error, words):
    with pytest.raises(error, match=words):
        plot.pair_circle(*args, **kwargs)


def test_new_functions_are_public():
    assert {"bars", "pair_circle"} <= set(plot.__all__)


def test_attention_weights_draws_the_matrix_with_token_labels():
    w = np.array([[1.0, 0.0, 0.0], [0.25, 0.75, 0.0], [0.2, 0.3, 0.5]])
    ax = plot.attention_weights(w, ["dog", "bites", "man"], title="causal")
    np.testing.assert_array_equal(ax.images[0].get_array(), w)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["dog", "bites", "man"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["dog", "bites", "man"]
    assert ax.get_title() == "causal"
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("key", "query")
    # a fixed [0, 1] colour scale, so two pictures compare cell by cell
    assert ax.images[0].get_clim() == (0.0, 1.0)
    # one annotation per cell, row by row, two decimals
    texts = [t.get_text() for t in ax.texts]
    assert texts == ["1.00", "0.00", "0.00", "0.25", "0.75", "0.00", "0.20", "0.30", "0.50"]
    assert ax.texts[4].get_position() == (1, 1)
    assert len(ax.figure.axes) == 2  # the colour bar


def test_attention_weights_rectangular_with_key_labels_and_options():
    _, w = attention(np.ones((2, 3)), np.eye(3), np.eye(3))
    ax = plot.attention_weights(w, ["a", "b"], ["x", "y", "z"], annotate=False, colorbar=False)
    assert ax.images[0].get_array().shape == (2, 3)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["x", "y", "z"]
    assert len(ax.texts) == 0
    assert len(ax.figure.axes) == 1


def test_attention_weights_draws_on_a_given_axes():
    fig, (left, right) = plt.subplots(1, 2)
    out = plot.attention_weights(causal_mask(2) / np.array([[1], [2]]), ["p", "q"], ax=right)
    assert out is right and not left.images
    np.testing.assert_allclose(right.images[0].get_array(), [[1, 0], [0.5, 0.5]])


@pytest.mark.parametrize(
    "args, kwargs, error, words",
    [
        ((np.ones(3), ["a", "b", "c"]), {}, ValueError, "weights must have 2 dimension"),
        ((np.ones((2, 2)), ["a"]), {}, ValueError, "queries has 1 labels but weights has 2 rows"),
        ((np.ones((2, 2)), ["a", "b"], ["x"]), {}, ValueError, "keys has 1 labels"),
        ((np.ones((2, 2)), ["a", "b"]), {"annotate": 1}, TypeError, "annotate"),
        (("w", ["a"]), {}, TypeError, "weights must be array-like"),
    ],
)
def test_attention_weights_bad_input(args, kwargs, error, words):
    with pytest.raises(error, match=words):
        plot.attention_weights(*args, **kwargs)


@pytest.mark.parametrize("draw", [
    lambda **kw: plot.heatmap(np.ones((2, 2)), **kw),
    lambda **kw: plot.attention_weights(np.eye(2) / 2, ["a", "b"], **kw),
])
def test_plot_colorbar_must_be_a_bool(draw):
    with pytest.raises(TypeError, match="^colorbar must be True or False, got 'no'"):
        draw(colorbar="no")
    assert len(draw(colorbar=False).figure.axes) == 1


@pytest.mark.parametrize("draw, name", [
    (lambda: plot.heatmap(np.ones((0, 3))), "table"),
    (lambda: plot.heatmap(np.ones((3, 0))), "table"),
    (lambda: plot.bars(np.zeros((0, 3)), []), "vectors"),
    (lambda: plot.bars(np.zeros((2, 0)), ["a", "b"]), "vectors"),
    (lambda: plot.similarity(np.ones((0, 3))), "table"),
    (lambda: plot.curves(np.ones((0, 3)), [0]), "table"),
    (lambda: plot.attention_weights(np.ones((0, 0)), []), "weights"),
])
def test_plots_refuse_empty_tables(draw, name):
    with pytest.raises(ValueError, match=rf"^{name} must not be empty, got shape"):
        draw()


@pytest.mark.parametrize("kwargs, error, words", [
    ({"ax": "left"}, TypeError, r"^ax must be matplotlib Axes \(from plt.subplots\(\), for example\) or None, got str"),
    ({"figsize": 7}, TypeError, r"^figsize must be \(width, height\) in inches, two positive numbers up to 100, got 7"),
    ({"figsize": (7, -1)}, ValueError, r"^figsize must be \(width, height\)"),
    ({"figsize": (1e6, 1e6)}, ValueError, r"^figsize must be \(width, height\) in inches, two positive numbers up to 100"),
])
def test_plots_check_ax_and_figsize(kwargs, error, words):
    with pytest.raises(error, match=words):
        plot.heatmap(np.ones((2, 2)), **kwargs)


def test_curves_needs_a_column_to_draw():
    with pytest.raises(ValueError, match="^dims must name at least one column"):
        plot.curves(np.ones((2, 2)), [])


TOO_LARGE = r"holds values up to 1e\+308 in size; matplotlib can only draw values up to about 1e\+300"


@pytest.mark.parametrize("draw, words", [
    (lambda: plot.heatmap(np.full((2, 2), 1e308)), "^table " + TOO_LARGE),
    (lambda: plot.heatmap([[1e308, -1e308]], symmetric=False), "^table " + TOO_LARGE),
    (lambda: plot.heatmap(np.full((2, 2), 1e308), symmetric=False), "^table " + TOO_LARGE),
    (lambda: plot.curves([[1e308], [-1e308]], dims=[0]), "^table " + TOO_LARGE),
    (lambda: plot.bars([[1e308, 1.0]], ["a"]), "^vectors " + TOO_LARGE),
    (lambda: plot.attention_weights([[1e308]], ["a"]), "^weights " + TOO_LARGE),
    (lambda: plot.similarity(np.full((2, 2), 1e200)), r"^the dot products of the rows of table overflow"),
    (lambda: plot.similarity(np.full((2, 2), 1e308), normalize=True), "^table " + TOO_LARGE),
    (lambda: plot.bars(np.ones((13, 2)), list("abcdefghijklm")), r"^vectors holds 13 vectors; bars compares at most 12"),
])
def test_plots_of_values_near_the_float64_limit(draw, words):
    with pytest.raises(ValueError, match=words):  # not an overflow warning from deep inside
        draw()


def test_cosine_similarities_of_tiny_rows_keep_their_digits():
    # the norms of rows near 1e-160 underflow when squared: each row is scaled first
    sim = plot.similarity([[1e-160, 3e-160], [1.0, 0.0]], normalize=True).images[0].get_array()
    np.testing.assert_allclose(sim, [[1.0, 1 / np.sqrt(10)], [1 / np.sqrt(10), 1.0]], rtol=1e-12)
    assert np.abs(sim).max() <= 1.0
    sim = plot.similarity([[1e-170, 1e-170], [1.0, 0.0]], normalize=True).images[0].get_array()
    np.testing.assert_allclose(sim[0, 1], 1 / np.sqrt(2), rtol=1e-12)
    sim = plot.similarity(np.full((2, 2), 1e200), normalize=True).images[0].get_array()
    np.testing.assert_allclose(sim, 1.0)


def test_every_scheme_has_a_style_of_its_own():
    # issue 41, item 6: SCHEME_STYLE lacked the two grid schemes
    from posenc.schemes import SCHEMES

    assert set(plot.SCHEME_STYLE) == set(SCHEMES), sorted(set(SCHEMES) ^ set(plot.SCHEME_STYLE))
    styles = list(plot.SCHEME_STYLE.values())
    assert all(s["color"] in plot.PALETTE.values() for s in styles)
    # colour and marker both differ, so that lines stay apart in grey print
    assert len({s["color"] for s in styles}) == len(styles)
    assert len({s["marker"] for s in styles}) == len(styles)
