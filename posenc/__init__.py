"""posenc: positional encodings for Transformers, small enough to read.

Every chapter of the book imports this package. Each module follows one
family of formulas; everything public is re-exported here, so
``posenc.sinusoidal(...)`` and ``from posenc import sinusoidal`` both work.

Modules
-------
==========  ==========================================================
sinusoidal  the encoding of Vaswani et al. (2017) and its rotation matrices
text        tokens, vocabularies, indices, random embeddings
attention   scaled dot-product attention, softmax, causal masks
rotary      rotary position embedding (RoPE)
relative    relative positions, T5 buckets, ALiBi
by_hand     one table entry computed step by step, as with a pencil
learned     learned position tables and a tiny attention model trained in NumPy
precision   rounding to float16, bfloat16 and float32; RoPE angles in low precision
plot        the book's pictures
exercises   the checkers of the book's exercises
==========  ==========================================================
"""

from . import exercises, plot
from .attention import *  # noqa: F401,F403
from .attention import __all__ as _attention_all
from .by_hand import explain_entry  # noqa: F401
from .learned import *  # noqa: F401,F403
from .learned import __all__ as _learned_all
from .precision import *  # noqa: F401,F403
from .precision import __all__ as _precision_all
from .relative import *  # noqa: F401,F403
from .relative import __all__ as _relative_all
from .rotary import *  # noqa: F401,F403
from .rotary import __all__ as _rotary_all
from .sinusoidal import *  # noqa: F401,F403
from .sinusoidal import __all__ as _sinusoidal_all
from .text import *  # noqa: F401,F403
from .text import __all__ as _text_all

__version__ = "0.1.0"

__all__ = [
    *_sinusoidal_all,
    *_text_all,
    *_attention_all,
    *_rotary_all,
    *_relative_all,
    "explain_entry",
    *_learned_all,
    *_precision_all,
    "exercises",
    "plot",
]
