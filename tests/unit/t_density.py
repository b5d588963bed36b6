"""Student's t, independently of posenc: the reference that the tests of
posenc.estimates (t_quantile) and posenc.stats (t_pvalue) are checked against."""

import math

import numpy as np


def t_central_by_integration(t, df, n=200_000):
    """P(|T| <= t) by Simpson's rule on the density: independent of A&S 26.7."""
    x = np.linspace(0.0, t, n + 1)
    log_c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    f = np.exp(log_c - (df + 1) / 2 * np.log1p(x * x / df))
    h = t / n
    return 2 * h / 3 * (f[0] + f[-1] + 4 * f[1:-1:2].sum() + 2 * f[2:-1:2].sum())
