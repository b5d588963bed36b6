"""Chapter 4 (04_learned): the learned tables the chapter trains, one seed at a time.

The tables are the notebook's (``tools/widget_data.py`` stores them in the
figure's file); what the figure computes from them is checked here.
"""

from __future__ import annotations

import numpy as np

from tools.widget_data import tables

from . import assert_close


def principal_coordinate(P, n_rows):
    # as chapter 4 computes it: every row of P on the first principal axis of
    # rows 0..n_rows-1, oriented to grow with the position, and its share
    centre = P[:n_rows].mean(axis=0)
    _, s, vt = np.linalg.svd(P[:n_rows] - centre, full_matrices=False)
    coord = (P - centre) @ vt[0]
    if coord[n_rows - 2] < coord[0]:
        coord = -coord
    return coord, s[0] ** 2 / np.sum(s**2)


def check_numberline(v):
    seed, marker, trained = v["seed"], v["marker"], v["trained"]
    P = tables()[seed].astype(np.float64)
    assert np.array_equal(v["table"], P), f"seed {seed}: not the stored table"
    norms = np.linalg.norm(P, axis=1)
    assert_close(v["similarity"], P @ P.T / np.outer(norms, norms),
                 f"cosine similarity of seed {seed}", signed=True)
    coord, share = principal_coordinate(P, trained)
    assert_close([v["share"]], [share], f"share of the first axis, seed {seed}")
    worst = assert_close(v["coord"], coord, f"coordinates of seed {seed}", signed=True)
    rows = [r for r in range(trained) if r != marker]
    lower = [r for r in rows if coord[r] < coord[marker]]
    higher = [r for r in rows if coord[r] > coord[marker]]
    assert v["below"] == (max(lower, key=lambda r: coord[r]) if lower else None)
    assert v["above"] == (min(higher, key=lambda r: coord[r]) if higher else None)
    return worst


CHECKS = {"numberline": check_numberline}
