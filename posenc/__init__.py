"""posenc: positional encodings for Transformers, small enough to read.

Every chapter of the book imports this package. Each module follows one
family of formulas; everything public is re-exported here, so
``posenc.sinusoidal(...)`` and ``from posenc import sinusoidal`` both work.

Modules
-------
===============  ===============================================================
sinusoidal       the encoding of Vaswani et al. (2017) and its rotation matrices
text             tokens, vocabularies, indices, random embeddings
attention        scaled dot-product attention, softmax, causal masks
rotary           rotary position embedding (RoPE)
scaling          RoPE's frequencies as models set them: PI, NTK, YaRN, Llama 3.1, LongRoPE...
rope_parameters  a model's rope_parameters checked key by key, for scaling
cache            positions when a model generates: the KV cache, windows, sinks
masks            positions and masks of a batch: padding, packing, sliding windows
relative         relative positions, T5 buckets, ALiBi
positions2d      positions on a grid: 2-D sine-cosine, 2-D RoPE, M-RoPE
families         the position machinery of real model families (Llama, OPT, DeBERTa...)
by_hand          one table entry computed step by step, as with a pencil
tables           learned position tables: init, look-up, and its backward pass
tasks            the order and look-back tasks, and their balanced test sets
schemes          where position enters the tiny model: one entry per scheme
model            the tiny attention model: its definition, init, forward, accuracy
engine           the fast engine that computes the model's definition
backward         its backward pass by hand: the loss and every gradient
training         Adam and the training loop (stacks of seeds at once)
estimates        means with their errors: over seeds, over seeds and test items, paired
stats            the book's experiment rules: t-intervals, convergence, Holm, power
precision        rounding to float16, bfloat16 and float32; RoPE angles in low precision
plot             the book's pictures and its colour-blind-safe palette
exercises        the checkers of the book's exercises, one module per chapter
===============  ===============================================================

Two functions share their module's name: ``posenc.sinusoidal`` and
``posenc.attention`` are the functions that every chapter calls, re-exported
here, and so they hide the modules of the same name as attributes of the
package. The modules are still what ``from posenc.sinusoidal import
frequencies`` and ``from posenc.attention import softmax`` import (Python
finds them in ``sys.modules``); ``import posenc.sinusoidal as m`` gives the
function. The book keeps the short calls that readers type, and names every
other module (``model``, ``training``...) so that no function hides it.
"""

from . import backward, cache, estimates, exercises, families, masks, model, plot, schemes, stats, tables, tasks, training
from .attention import *  # noqa: F401,F403
from .attention import __all__ as _attention_all
from .backward import *  # noqa: F401,F403
from .backward import __all__ as _backward_all
from .by_hand import explain_entry  # noqa: F401
from .cache import *  # noqa: F401,F403
from .cache import __all__ as _cache_all
from .families import *  # noqa: F401,F403
from .families import __all__ as _families_all
from .masks import *  # noqa: F401,F403
from .masks import __all__ as _masks_all
from .model import *  # noqa: F401,F403
from .model import __all__ as _model_all
from .positions2d import *  # noqa: F401,F403
from .positions2d import __all__ as _positions2d_all
from .precision import *  # noqa: F401,F403
from .precision import __all__ as _precision_all
from .relative import *  # noqa: F401,F403
from .relative import __all__ as _relative_all
from .rotary import *  # noqa: F401,F403
from .rotary import __all__ as _rotary_all
from .scaling import *  # noqa: F401,F403
from .scaling import __all__ as _scaling_all
from .sinusoidal import *  # noqa: F401,F403
from .sinusoidal import __all__ as _sinusoidal_all
from .tables import *  # noqa: F401,F403
from .tables import __all__ as _tables_all
from .tasks import *  # noqa: F401,F403
from .tasks import __all__ as _tasks_all
from .text import *  # noqa: F401,F403
from .text import __all__ as _text_all
from .training import *  # noqa: F401,F403
from .training import __all__ as _training_all

__version__ = "0.1.0"

__all__ = [
    *_sinusoidal_all,
    *_text_all,
    *_attention_all,
    *_rotary_all,
    *_scaling_all,
    *_relative_all,
    *_positions2d_all,
    "explain_entry",
    *_tables_all,
    *_tasks_all,
    *_model_all,
    *_backward_all,
    *_training_all,
    *_cache_all,
    *_masks_all,
    *_precision_all,
    *_families_all,
    "backward",
    "cache",
    "estimates",
    "exercises",
    "families",
    "masks",
    "model",
    "plot",
    "schemes",
    "stats",
    "tables",
    "tasks",
    "training",
]
