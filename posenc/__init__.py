"""posenc: positional encodings for Transformers, small enough to read.

Every chapter of the book imports this package. Each module follows one
family of formulas; everything public is re-exported here, so
``posenc.sinusoidal(...)`` and ``from posenc import sinusoidal`` both work.
"""

from . import exercises, plot
from .sinusoidal import *  # noqa: F401,F403
from .sinusoidal import __all__ as _sinusoidal_all

__version__ = "0.1.0"

__all__ = [*_sinusoidal_all, "exercises", "plot"]
