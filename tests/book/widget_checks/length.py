"""Chapter 6 (06_length): where a RoPE head of width 4 turns each distance."""

from __future__ import annotations

import numpy as np

import posenc

from . import assert_close


def check_arcs(v):
    base, longest = v["base"], v["longest"]
    theta = posenc.frequencies(4, base=base)  # the head's two pairs
    assert_close(v["theta"], theta, f"the pairs' speeds at base {base}")
    distances = np.arange(1, longest + 1)
    assert v["distances"] == distances.tolist()
    angles = np.mod(distances[None] * theta[:, None], 2 * np.pi)  # (pair, distance)
    assert_close(v["angles"], angles, f"angles at base {base}, distances 1-{longest}", signed=True)
    # the arc of "near", from the angle of distance 1 to that of distance 2,
    # and how far outside it each angle lies, the short way round
    a, b = theta, 2 * theta
    ends = np.stack([a, b], axis=1)
    assert_close(v["arcs"], ends, "the arcs of distances 1 and 2")
    inside = (angles >= a[:, None]) & (angles <= b[:, None])
    gap = np.minimum.reduce([np.minimum(np.abs(angles - e[:, None]),
                                        2 * np.pi - np.abs(angles - e[:, None])) for e in (a, b)])
    gap[inside] = 0
    assert_close(v["gaps"], gap, f"distances outside the arcs, base {base}", signed=True)
    want = [[int(d) for d in distances[row] if d > 2] for row in inside]
    assert v["inside"] == want, f"inside the arcs: {v['inside']}, posenc {want}"
    assert v["both"] == [d for d in want[0] if d in want[1]]
    return 0.0


CHECKS = {"arcs": check_arcs}
