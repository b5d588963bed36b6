"""Tests of the pictures added for the worked example: posenc.plot.bars and pair_circle."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from posenc import plot, sinusoidal  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


# --- bars ------------------------------------------------------------------


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


# --- pair_circle -------------------------------------------------------------


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
