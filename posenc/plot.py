"""Pictures used across the book, and the one palette they all draw from.

Every function draws on the ``ax`` it is given (or a new one), sets a title
and labelled axes, and returns the matplotlib ``Axes`` so that tests can
inspect what was drawn (``ax.images[0].get_array()``, ``ax.lines``...).
Colormaps are perceptually uniform or diverging around zero, and readable in
grey and by readers with colour-vision deficiency.

Colours come from one place: :data:`PALETTE`, the colour-blind-safe palette
of Okabe and Ito (2008), which stays distinguishable under deuteranopia,
protanopia and tritanopia. :data:`SCHEME_STYLE` gives each position scheme
one colour and one marker, used by every chapter that compares schemes.
:func:`use_book_style` makes the palette matplotlib's default colour cycle,
sets font sizes that stay legible in the book's content column, and renders
inline figures at twice their display resolution for high-density screens.
"""

from __future__ import annotations

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
from cycler import cycler

from . import _checks

__all__ = ["PALETTE", "SCHEME_STYLE", "FIGURE_WIDTH", "use_book_style",
           "heatmap", "curves", "similarity", "attention_weights"]

PALETTE = {
    "blue": "#0072B2",
    "orange": "#E69F00",
    "green": "#009E73",
    "vermillion": "#D55E00",
    "purple": "#CC79A7",
    "sky": "#56B4E9",
    "yellow": "#F0E442",
    "black": "#000000",
    "grey": "#7F7F7F",
}
"""The Okabe-Ito palette (plus a neutral grey), in the order of the colour cycle.

Yellow is pale on white: the cycle puts it late, for lines beside darker ones.
"""

SCHEME_STYLE = {
    "none": {"color": PALETTE["grey"], "marker": "x"},
    "sinusoidal": {"color": PALETTE["blue"], "marker": "o"},
    "learned": {"color": PALETTE["orange"], "marker": "s"},
    "rope": {"color": PALETTE["green"], "marker": "^"},
    "alibi": {"color": PALETTE["purple"], "marker": "D"},
    "t5": {"color": PALETTE["vermillion"], "marker": "v"},
    "sinusoidal_2d": {"color": PALETTE["sky"], "marker": "p"},
    "rope_2d": {"color": PALETTE["black"], "marker": "P"},
}
"""One colour and one marker per position scheme of ``posenc.schemes.SCHEMES``.

Use as ``ax.plot(x, y, **SCHEME_STYLE["rope"])``. Colour and marker both
differ, so lines stay apart in grey print too. The grid schemes of chapter 8
take the light blue of MAE's table and black.
"""

FIGURE_WIDTH = 6.6
"""Widest figure, in inches, that the book's content column shows unscaled.

The column of a chapter is 688 CSS pixels wide on a 1280-pixel screen, and
the inline backend draws 100 pixels per inch and pads a figure with 0.1 in
on each side: 6.6 in comes out 680 pixels wide. A wider figure is shrunk,
and its labels with it.
"""

_BOOK_RC = {
    "axes.prop_cycle": cycler(color=[PALETTE[name] for name in (
        "blue", "orange", "green", "vermillion", "purple", "sky", "black", "yellow")]),
    "figure.figsize": (6.4, 3.6),
    "figure.dpi": 100,
    "font.size": 11,
    "axes.titlesize": 12,
    "axes.labelsize": 11,
    "xtick.labelsize": 10,
    "ytick.labelsize": 10,
    "legend.fontsize": 10,
    "image.cmap": "viridis",
}


def use_book_style():
    """Apply the book's figure style: palette, font sizes, sharp inline images.

    Sets matplotlib's colour cycle to :data:`PALETTE`, tick labels to 10 pt
    (14 CSS pixels on a 1280-pixel screen for a figure no wider than
    :data:`FIGURE_WIDTH`) and, when run inside IPython or Jupyter, makes the
    inline backend send PNGs at twice the resolution ("retina") with their
    display size kept, in 256 colours (see ``_retina_png``). Every chapter
    calls it once in its first code cell.

    Returns
    -------
    None

    Examples
    --------
    >>> use_book_style()
    >>> plt.rcParams["axes.prop_cycle"].by_key()["color"][0] == PALETTE["blue"]
    True
    """
    mpl.rcParams.update(_BOOK_RC)
    try:
        from IPython import get_ipython
    except ImportError:  # plain Python: nothing to render inline
        return
    shell = get_ipython()
    if shell is not None and hasattr(shell, "kernel"):
        from matplotlib_inline.backend_inline import set_matplotlib_formats

        set_matplotlib_formats("retina")
        png = shell.display_formatter.formatters["image/png"]
        png.for_type(mpl.figure.Figure, _retina_png)


def _retina_png(fig):
    """``fig`` as a PNG for high-density screens: ``(png_bytes, metadata)``.

    The PNG has twice the pixels of the figure's size at its dpi (cropped to
    what is drawn, as the inline backend does), and the metadata asks to show
    it at that size, as IPython's "retina" format does.
    Its colours are reduced to 256 (Pillow's maximum-coverage palette, no
    dithering): a figure has few colours, and the file is about a third
    the size, while no pixel's red, green or blue moves by more than about
    15 of 255 (4 on a heat map). Figures are most of a chapter's weight.

    Examples
    --------
    >>> import io
    >>> from PIL import Image
    >>> fig, ax = plt.subplots(figsize=(2, 1), dpi=100)
    >>> data, size = _retina_png(fig)
    >>> image = Image.open(io.BytesIO(data))
    >>> image.format, image.mode
    ('PNG', 'P')
    >>> [pixels - 2 * shown for pixels, shown in zip(image.size, size.values())]
    [0, 1]
    >>> plt.close(fig)
    """
    import io

    from PIL import Image

    raw = io.BytesIO()
    fig.savefig(raw, format="png", dpi=2 * fig.dpi, bbox_inches="tight")
    image = Image.open(raw).convert("RGB")
    image = image.quantize(256, method=Image.Quantize.MAXCOVERAGE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    width, height = image.size
    return out.getvalue(), {"width": width // 2, "height": height // 2}


def _positions(positions, table):
    """The positions of the rows of ``table``: ``0, 1, ...`` unless given."""
    if positions is None:
        return np.arange(table.shape[0])
    positions = _drawable("positions", positions, ndim=1)
    if len(positions) != table.shape[0]:
        raise ValueError(
            f"positions has {len(positions)} entries but the table has {table.shape[0]} rows"
        )
    return positions


# matplotlib computes margins, ticks and colour limits from the data; past
# about 1e300 those sums overflow float64 at draw time
_LARGEST_DRAWN = 1e300
_LARGEST_FIGURE = 100.0  # inches: a poster is about 47
_MOST_BARS = 12


def _drawable(name, value, **shape):
    """``value`` as a float array that matplotlib can draw: finite, and not near float64's limit."""
    arr = _checks.array(name, value, **shape)
    if arr.size and np.abs(arr).max() > _LARGEST_DRAWN:
        raise ValueError(
            f"{name} holds values up to {np.abs(arr).max():.3g} in size; matplotlib can only draw "
            f"values up to about {_LARGEST_DRAWN:.0e}: divide {name} by a constant first"
        )
    return arr


def _sequence(name, value, what, example):
    """``value`` as a list; a single number or string is refused with an example."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise TypeError(
            f"{name} must be a sequence of {what}, such as {example}, got "
            f"{type(value).__name__} {_checks.show(value)}"
        )
    return list(value)


def _axes(ax, figsize):
    """``ax``, or the axes of a new figure of ``figsize`` inches."""
    if ax is not None and not isinstance(ax, mpl.axes.Axes):
        raise TypeError(
            f"ax must be matplotlib Axes (from plt.subplots(), for example) or None, "
            f"got {type(ax).__name__} {_checks.show(ax)}"
        )
    if ax is None:
        try:
            width, height = figsize
            for side in (width, height):
                if _checks.real("figsize", side, positive=True) > _LARGEST_FIGURE:
                    raise ValueError("too large")
        except (TypeError, ValueError) as error:
            raise type(error)(
                f"figsize must be (width, height) in inches, two positive numbers up to "
                f"{_LARGEST_FIGURE:g}, got {_checks.show(figsize)}"
            ) from None
        _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def heatmap(
    table,
    *,
    ax=None,
    title="Positional encodings",
    xlabel="dimension",
    ylabel="position",
    cmap="RdBu_r",
    symmetric=True,
    colorbar=True,
    figsize=(7, 4),
):
    """Draw a 2-D table as an image, rows top to bottom.

    Parameters
    ----------
    table : array_like of shape (rows, columns)
        For example ``sinusoidal(length, d_model)``; not empty.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure is made if omitted.
    title, xlabel, ylabel : str
        Text of the title and axis labels.
    cmap : str, default "RdBu_r"
        A diverging colormap by default: red above zero, blue below.
    symmetric : bool, default True
        Centre the colour scale on zero (limits ``-m, m`` with ``m`` the
        largest absolute value), so white always means zero.
    colorbar : bool, default True
        Add a colour bar.
    figsize : tuple, default (7, 4)
        Size of a new figure.

    Returns
    -------
    matplotlib.axes.Axes
        The image is ``ax.images[0]``; its data is the table.
    """
    table = _drawable("table", table, ndim=2, empty=False)
    symmetric = _checks.boolean("symmetric", symmetric)
    colorbar = _checks.boolean("colorbar", colorbar)
    ax = _axes(ax, figsize)
    limits = {}
    if symmetric:
        m = float(np.max(np.abs(table))) or 1.0
        limits = {"vmin": -m, "vmax": m}
    low, high = (-m, m) if symmetric else (float(table.min()), float(table.max()))
    with np.errstate(over="ignore"):
        span = high - low
    if not np.isfinite(span):
        raise ValueError(
            f"table spans {low:.3g} to {high:.3g}: the colour scale needs the width of that "
            "range, which overflows float64; divide the table by a constant first"
        )
    image = ax.imshow(table, aspect="auto", cmap=cmap, interpolation="nearest", **limits)
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
    if colorbar:
        ax.figure.colorbar(image, ax=ax)
    return ax


def curves(
    table,
    dims,
    *,
    positions=None,
    ax=None,
    title="Encoding value along the sequence",
    xlabel="position",
    ylabel="value",
    marker=None,
    figsize=(7, 3.5),
):
    """Plot chosen columns of a table against position, one line each.

    Parameters
    ----------
    table : array_like of shape (length, d_model)
    dims : sequence of int
        Columns to draw; each line is labelled ``dim <d>``. A single column
        is written ``[d]``.
    positions : array_like of shape (length,), optional
        Positions of the rows (default ``0, 1, ..., length - 1``).
    ax, title, xlabel, ylabel, figsize
        As in :func:`heatmap`.
    marker : str, optional
        A matplotlib marker, useful for short tables (``"o"``).

    Returns
    -------
    matplotlib.axes.Axes
        One line per requested dimension, in order, in ``ax.lines``.
    """
    table = _drawable("table", table, ndim=2, empty=False)
    example = f"[{dims}]" if isinstance(dims, int) else "[0, 1]"
    dims = _sequence("dims", dims, "column numbers", example)
    dims = [_checks.integer(f"dims[{i}]", d, minimum=0) for i, d in enumerate(dims)]
    if not dims:
        raise ValueError("dims must name at least one column to draw, got an empty sequence")
    for d in dims:
        if d >= table.shape[1]:
            raise ValueError(f"dims contains {d}, but the table has {table.shape[1]} columns")
    positions = _positions(positions, table)
    ax = _axes(ax, figsize)
    for d in dims:
        ax.plot(positions, table[:, d], marker=marker, label=f"dim {d}")
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
    ax.legend(loc="best", fontsize="small")
    ax.grid(alpha=0.3)
    return ax


def similarity(
    table,
    *,
    ax=None,
    title="Dot products between positions",
    normalize=False,
    cmap="viridis",
    figsize=(5, 4.2),
):
    r"""Draw the matrix of dot products :math:`S = PE\,PE^\top` between rows.

    Parameters
    ----------
    table : array_like of shape (length, d_model)
    ax, title, figsize
        As in :func:`heatmap`.
    normalize : bool, default False
        Divide by the norms first, giving cosine similarities in [-1, 1].
    cmap : str, default "viridis"

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.images[0].get_array()`` is the (length, length) matrix.
    """
    table = _drawable("table", table, ndim=2, empty=False)
    normalize = _checks.boolean("normalize", normalize)
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is checked below
        if normalize:  # each row divided by its largest entry first: tiny rows keep their digits
            largest = np.abs(table).max(axis=1, keepdims=True)
            if np.any(largest == 0):
                raise ValueError("table has an all-zero row; cannot normalize")
            norms = np.linalg.norm(table / largest, axis=1, keepdims=True)
            scaled = table / largest / norms
        else:
            norms, scaled = np.ones(1), table
        sim = scaled @ scaled.T
    if not (np.all(np.isfinite(norms)) and np.all(np.isfinite(sim))):
        raise ValueError(
            f"the dot products of the rows of table overflow float64 (entries up to "
            f"{np.abs(table).max():.3g} in size); divide the table by a constant first"
        )
    ax = _axes(ax, figsize)
    image = ax.imshow(sim, cmap=cmap, interpolation="nearest")
    ax.set(title=title, xlabel="position", ylabel="position")
    ax.figure.colorbar(image, ax=ax)
    return ax


# --- added for the worked example ("The cat sat on the mat.") -------------

__all__ += ["bars", "pair_circle"]


def bars(
    vectors,
    labels,
    *,
    ax=None,
    title="Vectors, dimension by dimension",
    xlabel="dimension",
    ylabel="value",
    figsize=(6, 3.5),
):
    """Compare a few vectors dimension by dimension, as grouped bars.

    Bars of the same dimension stand side by side, one colour and hatch per
    vector, so two equal vectors show as pairs of equal bars.

    Parameters
    ----------
    vectors : array_like of shape (n_vectors, d)
        The vectors to compare, one per row (for example two rows of an
        embedding table); from 1 to 12 vectors of at least one dimension.
    labels : sequence of str
        One legend entry per vector.
    ax, title, xlabel, ylabel, figsize
        As in :func:`heatmap`.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.containers[k]`` holds the bars of vector ``k``; their heights
        are its values.
    """
    vectors = _drawable("vectors", vectors, ndim=2, empty=False)
    labels = [str(label) for label in _sequence("labels", labels, "str", '["first", "second"]')]
    if len(labels) != vectors.shape[0]:
        raise ValueError(
            f"labels has {len(labels)} entries but there are {vectors.shape[0]} vectors"
        )
    if vectors.shape[0] > _MOST_BARS:
        raise ValueError(
            f"vectors holds {vectors.shape[0]} vectors; bars compares at most {_MOST_BARS} side "
            "by side (each needs its own bars and legend entry)"
        )
    ax = _axes(ax, figsize)
    n, d = vectors.shape
    width = 0.8 / n
    hatches = ["", "//", "..", "xx", "\\\\", "oo"]
    for k, (vector, label) in enumerate(zip(vectors, labels)):
        offset = (k - (n - 1) / 2) * width
        ax.bar(np.arange(d) + offset, vector, width, label=label,
               hatch=hatches[k % len(hatches)], edgecolor="black", linewidth=0.5)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(np.arange(d))
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
    ax.legend(loc="best", fontsize="small")
    ax.grid(axis="y", alpha=0.3)
    return ax


def pair_circle(
    table,
    pair,
    *,
    positions=None,
    annotate=True,
    ax=None,
    title=None,
    color=None,
    marker="o",
    label=None,
    figsize=(4, 4),
):
    r"""Draw one (sine, cosine) pair of an encoding table as points on a circle.

    The book's convention (see the notation page): a pair of columns
    ``(2i, 2i+1)`` is a point of the plane with the first column across and
    the second up. For the sinusoidal table that is the point
    :math:`(\sin(pos\,\omega_i), \cos(pos\,\omega_i))`: a clock hand that
    points to 12 o'clock at angle 0 and turns *clockwise* by
    :math:`\omega_i` per position, that is by the rotation
    :math:`R(-\omega_i)` in the usual anticlockwise sense. The points are
    joined in order, so a fast pair sweeps round the circle and a slow one
    barely leaves 12 o'clock. Columns ``2 * pair`` (sine) and
    ``2 * pair + 1`` (cosine) are used, as in the interleaved layout of
    :func:`posenc.sinusoidal`.

    Parameters
    ----------
    table : array_like of shape (length, d_model)
    pair : int
        Which pair ``i`` to draw; needs ``2 * pair + 1 < d_model``.
    positions : array_like of shape (length,), optional
        Position of each row, used for the labels (default
        ``0, 1, ..., length - 1``).
    annotate : bool, default True
        Write each position next to its point.
    ax, figsize
        As in :func:`heatmap`.
    title : str, optional
        Default ``"Pair <pair> (dims <2i>, <2i+1>)"``.
    color : str, optional
        Colour of the points, default ``PALETTE["blue"]``.
    marker : str, default "o"
        Marker of the points.
    label : str, optional
        Legend entry of the points. Draw two pairs on one ``ax`` by calling
        the function twice, each with its own colour, marker and label.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.lines[0]`` is the unit circle; ``ax.lines[1]`` the points, with
        x data the sine column and y data the cosine column.
    """
    table = _drawable("table", table, ndim=2, empty=False)
    pair = _checks.integer("pair", pair, minimum=0)
    if 2 * pair + 1 >= table.shape[1]:
        raise ValueError(
            f"pair {pair} needs columns {2 * pair} and {2 * pair + 1}, "
            f"but the table has {table.shape[1]} columns"
        )
    positions = _positions(positions, table)
    annotate = _checks.boolean("annotate", annotate)
    ax = _axes(ax, figsize)
    t = np.linspace(0, 2 * np.pi, 361)
    ax.plot(np.cos(t), np.sin(t), color=PALETTE["grey"], alpha=0.6, linewidth=1)
    x, y = table[:, 2 * pair], table[:, 2 * pair + 1]  # first column across
    ax.plot(x, y, marker=marker, color=PALETTE["blue"] if color is None else color,
            linewidth=1, label=label)
    if annotate:
        for pos, xi, yi in zip(positions, x, y):
            ax.annotate(f"{pos:g}", (xi, yi), xytext=(1.13 * xi, 1.13 * yi),
                        ha="center", va="center", fontsize="small")
    ax.axhline(0, color=PALETTE["grey"], alpha=0.3, linewidth=0.8)
    ax.axvline(0, color=PALETTE["grey"], alpha=0.3, linewidth=0.8)
    ax.set_aspect("equal")
    ax.set(xlim=(-1.3, 1.3), ylim=(-1.3, 1.3))
    if title is None:
        title = f"Pair {pair} (dims {2 * pair}, {2 * pair + 1})"
    ax.set(title=title, xlabel=f"sin column (dim {2 * pair})",
           ylabel=f"cos column (dim {2 * pair + 1})")
    return ax


def attention_weights(
    weights,
    queries,
    keys=None,
    *,
    ax=None,
    title="Attention weights",
    annotate=True,
    cmap="viridis",
    colorbar=True,
    figsize=(4.2, 3.6),
):
    """Draw an attention-weight matrix with the tokens on its axes.

    Row ``i`` is query ``i`` (labelled on the left), column ``j`` is key
    ``j`` (labelled at the bottom). The colour scale is fixed to [0, 1], so
    two pictures drawn with this function can be compared cell by cell.

    Parameters
    ----------
    weights : array_like of shape (n_q, n_k)
        For example the second result of :func:`posenc.attention`.
    queries : sequence of str
        One label per row (the query tokens).
    keys : sequence of str, optional
        One label per column; defaults to ``queries`` (self-attention).
    ax, title, figsize
        As in :func:`heatmap`.
    annotate : bool, default True
        Write each weight, to two decimals, in its cell.
    cmap : str, default "viridis"
    colorbar : bool, default True

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.images[0].get_array()`` is the matrix; the tick labels are the
        tokens; with ``annotate`` the cell texts are in ``ax.texts``, row by row.

    """
    weights = _drawable("weights", weights, ndim=2, empty=False)
    annotate = _checks.boolean("annotate", annotate)
    colorbar = _checks.boolean("colorbar", colorbar)
    queries = [str(t) for t in _sequence("queries", queries, "str", '["the", "cat"]')]
    if keys is not None:
        keys = [str(t) for t in _sequence("keys", keys, "str", '["the", "cat"]')]
    keys = queries if keys is None else keys
    if len(queries) != weights.shape[0]:
        raise ValueError(
            f"queries has {len(queries)} labels but weights has {weights.shape[0]} rows"
        )
    if len(keys) != weights.shape[1]:
        raise ValueError(f"keys has {len(keys)} labels but weights has {weights.shape[1]} columns")
    ax = _axes(ax, figsize)
    image = ax.imshow(weights, cmap=cmap, vmin=0.0, vmax=1.0, interpolation="nearest")
    ax.set_xticks(range(len(keys)), keys)
    ax.set_yticks(range(len(queries)), queries)
    ax.set(title=title, xlabel="key", ylabel="query")
    if annotate:
        for i, row in enumerate(weights):
            for j, w in enumerate(row):
                # dark text on the bright end of the colormap, light text elsewhere
                colour = "black" if w > 0.6 else "white"
                ax.text(j, i, f"{w:.2f}", ha="center", va="center", color=colour, fontsize="small")
    if colorbar:
        ax.figure.colorbar(image, ax=ax, label="weight")
    return ax
