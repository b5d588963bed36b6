r"""The position machinery of real model families, written out and checked.

Each function computes one piece of what a family's Hugging Face
Transformers code does with positions, named after the function it
reproduces, and is tested equal to it (Transformers 5.24.0;
``tools/make_models_reference.py`` records the reference values in
``posenc/data/models_reference.json``, which :func:`transformers_reference`
loads). The chapter "Positions in the models you use" derives each one.

The module is called ``families``, not ``models``, so that it is not
mistaken for :mod:`posenc.model`, the book's own tiny model.
"""

from __future__ import annotations

import json
from importlib import resources

__all__ = ["transformers_reference"]


def transformers_reference():
    """What Transformers 5.24.0 computes, as ``tools/make_models_reference.py`` recorded it.

    Returns
    -------
    dict
        A fresh copy each call: ``versions`` (torch, transformers);
        ``configs``, one case per configuration class of
        ``transformers.CONFIG_MAPPING`` at its defaults (and per layer type),
        each with its ``rope_parameters``, ``head_dim``, ``rotary_class``,
        the family's own ``inv_freq`` and ``attention_factor``; ``longrope``
        (Phi-3); and the small reference outputs of the other families.

    Examples
    --------
    >>> reference = transformers_reference()
    >>> reference["versions"]["transformers"]
    '5.24.0'
    >>> llama = next(c for c in reference["configs"] if c["config_class"] == "LlamaConfig")
    >>> llama["rope_parameters"], llama["head_dim"], len(llama["inv_freq"])
    ({'rope_theta': 10000.0, 'rope_type': 'default'}, 128, 64)
    """
    text = resources.files(__package__).joinpath("data", "models_reference.json").read_text()
    reference = json.loads(text)
    ladders = reference.pop("ladders")
    for case in reference["configs"]:
        case["inv_freq"] = ladders[case["inv_freq"]]
    return reference
