"""Chapter 2 (02_sines): the ladder, the dot products and the clock hands."""

from __future__ import annotations

import numpy as np

import posenc

from . import assert_close


def check_ladder(v):
    d, base = v["d"], v["base"]
    assert_close(v["wavelength"], posenc.wavelengths(d, base=base), f"ladder wavelengths {d}, {base}")
    table = np.reshape(v["table"], (v["positions"], d))
    return assert_close(table, posenc.sinusoidal(v["positions"], d, base=base),
                        f"ladder table {d}, {base}", signed=True)


def check_dots(v):
    d, p, base = v["d"], v["p"], v["base"]
    assert v["offsets"] == list(range(-100, 101))
    pe = posenc.sinusoidal(201, d, start=p - 100, base=base)  # positions p - 100 ... p + 100
    return assert_close(v["dots"], pe @ pe[100], f"PE(p).PE(p+k), d={d} p={p} base={base}",
                        signed=True)


def check_clock(v):
    want = posenc.sinusoidal(1, v["d"], start=v["pos"], base=v["base"])[0]
    return assert_close(v["row"], want, f"clock hands at {v['pos']}", signed=True)


CHECKS = {"ladder": check_ladder, "dots": check_dots, "clock": check_clock}
