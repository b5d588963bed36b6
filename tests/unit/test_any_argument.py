"""Odd values for every argument of every public function of posenc (issue 21).

For each function, a call that works is changed in one argument at a time to
one of ``ODD`` values: None, a bool, a string, huge and negative integers,
NaN and inf, empty, ragged, boolean, string and 3-D arrays, a dict, a
function... The function may accept the value, or refuse it with a
``TypeError`` or ``ValueError``, the errors whose messages name the argument
(the tests of each module check the messages). Anything else fails: an
IndexError or OverflowError from deep inside, an AttributeError, or a
warning (numpy's "overflow encountered").

Matplotlib's own arguments (title, labels, colormap, marker) are left to
matplotlib. Every figure that a call makes is drawn, because matplotlib
computes margins, ticks and layouts only then. The model's functions are
also fed a stack of models and a model put together in float16.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import math
import re
import reprlib
import signal
import subprocess
import sys
import warnings
from unittest import mock

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest

import posenc
from memory_limit import memory_limit
from posenc import _checks, backward, model, plot, stats, tables, tasks, training

matplotlib.use("Agg")

MODEL = model.init_model("learned")
STACK = model.init_model("rope", seed=[0, 1])
CAUSAL = model.init_model("rope", causal=True, readout="last")  # a model that generates (posenc.cache)
HALF = dict(MODEL, params={name: x.astype(np.float16) for name, x in MODEL["params"].items()})

WORKING_CALLS = {
    posenc.frequencies: dict(d_model=4),
    posenc.wavelengths: dict(d_model=4),
    posenc.sinusoidal: dict(length=3, d_model=4),
    posenc.rotation_matrix: dict(offset=1, d_model=4),
    posenc.tokenize: dict(text="a b"),
    posenc.build_vocab: dict(tokens=["a", "b"]),
    posenc.encode: dict(tokens=["a"], vocab={"a": 0}),
    posenc.random_embeddings: dict(vocab_size=3, d_model=2),
    posenc.softmax: dict(x=[1.0, 2.0]),
    posenc.attention: dict(q=np.eye(2), k=np.eye(2), v=np.eye(2)),
    posenc.causal_mask: dict(n=3),
    posenc.rope: dict(x=np.ones((3, 4))),
    posenc.relative_positions: dict(q_len=3, k_len=3),
    posenc.t5_bucket: dict(relative_position=[1, -2]),
    posenc.alibi_slopes: dict(n_heads=4),
    posenc.alibi_bias: dict(n_heads=2, length=3),
    posenc.explain_entry: dict(pos=3, dim=2, d_model=4),
    tables.init_table: dict(n_rows=3, d_model=2),
    tables.lookup: dict(table=np.ones((3, 2)), indices=[0, 2]),
    tables.lookup_backward: dict(grad=np.ones((2, 2)), indices=[0, 2], n_rows=3),
    tasks.order_task: dict(n_examples=3, length=4),
    tasks.lookback_task: dict(n_examples=3, length=5),
    tasks.order_test_set: dict(n_pairs=2, length=4),
    tasks.lookback_test_set: dict(n_pairs=2, length=5),
    tasks.left_of_task: dict(n_examples=3, length=6, width=3),
    tasks.above_or_left_task: dict(n_examples=3, length=6, width=3),
    tasks.left_of_test_set: dict(n_pairs=2, length=6, width=3),
    tasks.above_or_left_test_set: dict(n_pairs=2, length=9, width=3),
    posenc.grid_positions: dict(height=2, width=3),
    posenc.sinusoidal_2d: dict(height=2, width=3, d_model=8),
    posenc.interpolate_table: dict(table=np.ones((6, 2)), grid=(2, 3), new_grid=(3, 4)),
    posenc.rope_2d: dict(x=np.ones((2, 4)), positions=[[0, 0], [1, 2]]),
    posenc.mrope_position_ids: dict(segments=[("text", 2), ("image", (1, 2, 2))]),
    posenc.mrope: dict(x=np.ones((2, 8)), position_ids=[[0, 1], [0, 1], [0, 1]], sections=[2, 1, 1]),
    model.unstack: dict(model=model.init_model("rope", seed=[0, 1])),
    model.init_model: dict(scheme="rope"),
    model.forward: dict(model=MODEL, tokens=[[0, 1, 2]]),
    model.forward_by_definition: dict(model=MODEL, tokens=[[0, 1, 2]]),
    model.attention_weights: dict(model=MODEL, tokens=[[0, 1, 2]]),
    model.accuracy: dict(model=MODEL, tokens=[[0, 1, 2]], labels=[1]),
    backward.loss_and_grads: dict(model=MODEL, tokens=[[0, 1, 2]], labels=[1]),
    training.adam_step: dict(params={"w": np.ones(2)}, grads={"w": np.ones(2)}, state={}),
    training.train: dict(model=MODEL, steps=2, batch_size=2),
    training.held_out_accuracy: dict(model=MODEL, task=tasks.order_task, lengths=(4, 6), n_items=4),
    posenc.rope_frequencies: dict(head_dim=8, scaling={"rope_type": "linear", "factor": 2.0}),
    posenc.transformers_reference: dict(),
    posenc.llama_permutation: dict(head_dim=4, n_heads=2),
    posenc.opt_position_ids: dict(attention_mask=[[0, 1, 1]], cache_length=1),
    posenc.llama4_attention_scale: dict(positions=[0, 5], floor_scale=4, attn_scale=0.1),
    posenc.chunked_causal_mask: dict(n=4, chunk_size=2, left_padding=1),
    posenc.deberta_log_buckets: dict(relative_positions=[0, -200], bucket_size=8, max_position=32),
    posenc.mpt_alibi_slopes: dict(n_heads=6, alibi_bias_max=8),
    posenc.float_format: dict(fmt="bfloat16"),
    posenc.round_to: dict(x=[1.0, 257.0], fmt="bfloat16"),
    posenc.float_bits: dict(x=257.0, fmt="bfloat16"),
    posenc.rope_angles: dict(positions=[0, 5], head_dim=8, compute="float32"),
    posenc.rope_cos_sin: dict(positions=[0, 5], head_dim=8, compute="float16"),
    plot.heatmap: dict(table=np.ones((2, 3))),
    plot.curves: dict(table=np.ones((2, 3)), dims=[0]),
    plot.similarity: dict(table=np.ones((2, 3))),
    plot.bars: dict(vectors=np.ones((2, 3)), labels=["a", "b"]),
    plot.pair_circle: dict(table=np.ones((2, 4)), pair=1),
    plot.attention_weights: dict(weights=np.eye(2), queries=["a", "b"]),
    stats.standard_error: dict(values=[1.0, 2.0, 4.0]),
    stats.over_seeds: dict(values=[1.0, 2.0, 4.0]),
    stats.seeds_and_items: dict(scores=[[1, 0, 1], [1, 1, 0]]),
    stats.pair_means: dict(scores=[[1, 0, 1, 1]]),
    stats.paired_difference: dict(a=[0.9, 0.8, 0.7], b=[0.8, 0.8, 0.6]),
    stats.t_quantile: dict(df=15, level=0.95),
    stats.decide: dict(estimate=stats.over_seeds([0.1, 0.2, 0.15]), level=0.95),
    stats.converged: dict(accuracy=[[1.0, 0.99]], threshold=0.99),
    stats.rankable: dict(converged=[True, True, False], share=0.5),
    stats.group_estimate: dict(scores=[0.9, 0.8, 0.7], converged=[True, True, True]),
    stats.t_pvalue: dict(estimate=stats.over_seeds([0.1, 0.2, 0.15])),
    stats.sign_flip_pvalue: dict(differences=[0.1, -0.2, 0.3]),
    stats.holm: dict(p_values=[0.01, 0.2]),
    stats.decide_family: dict(p_values=[0.01, 0.2], level=0.95),
    stats.power: dict(differences=[0.1, 0.2, 0.15], n_seeds=3, level=0.95, reps=20, seed=0),
    stats.compare: dict(a=[0.9, 0.8, 0.7], b=[0.8, 0.8, 0.6], converged_a=[True, True, True],
                        converged_b=[True, True, True], margin=0.05, level=0.95),
    stats.pool: dict(estimates=[stats.over_seeds([0.1, 0.2, 0.15])]),
    stats.replication: dict(),
    posenc.position_ids: dict(attention_mask=[[0, 1, 1]]),
    posenc.padding_mask: dict(attention_mask=[[0, 1, 1]]),
    posenc.packed_position_ids: dict(lengths=[2, 3]),
    posenc.document_ids: dict(position_ids=[0, 1, 0]),
    posenc.packed_mask: dict(lengths=[2, 3]),
    posenc.sliding_window_mask: dict(n=4, window=2),
    posenc.rerotate: dict(keys=np.ones((2, 4)), old_positions=[0, 1], new_positions=[2, 3]),
    posenc.seen_offsets: dict(policy="sinks", n=5, window=3, sinks=1),
    posenc.logits_per_position: dict(model=CAUSAL, tokens=[[0, 1, 2]], rows=[-1]),
    posenc.decode: dict(model=CAUSAL, tokens=[0, 1, 2]),
    posenc.recompute: dict(model=CAUSAL, tokens=[0, 1, 2]),
}

# the model's functions again, on a stack of models and on a float16 model
MORE_CALLS = [
    (model.forward, dict(model=STACK, tokens=[[0, 1, 2]])),
    (model.forward_by_definition, dict(model=STACK, tokens=[[[0, 1, 2]], [[2, 1, 0]]])),
    (model.attention_weights, dict(model=STACK, tokens=[[[0, 1, 2]], [[2, 1, 0]]])),
    (model.accuracy, dict(model=STACK, tokens=[[0, 1, 2]], labels=[1])),
    (backward.loss_and_grads, dict(model=STACK, tokens=[[0, 1, 2]], labels=[[1], [0]])),
    (training.train, dict(model=STACK, steps=2, batch_size=2, seed=[3, 4])),
    (model.unstack, dict(model=STACK)),
    (model.forward, dict(model=HALF, tokens=[[0, 1, 2]])),
    (model.forward_by_definition, dict(model=HALF, tokens=[[0, 1, 2]])),
    (backward.loss_and_grads, dict(model=HALF, tokens=[[0, 1, 2]], labels=[1])),
    (training.train, dict(model=HALF, steps=2, batch_size=2)),
]

MATPLOTLIB_ARGUMENTS = {"title", "xlabel", "ylabel", "cmap", "marker"}

ODD = [
    None, True, np.bool_(False), "1", "interleaved ", b"1", 1.5, -1, 0, 2, 10**400, -(10**400),
    2**64, np.uint64(2**64 - 1), np.int8(-128), np.float32(3), 1e-310, 1j,
    math.nan, math.inf, -math.inf, [], (1,), (2, 2**62), ["a", 1], [[1], [1, 2]],
    [1e308, -1e308], np.full((2, 2), 1e308), np.nan * np.ones(2),
    np.zeros((0, 3)), np.zeros((3, 0)), np.ones((2, 3), dtype=bool), np.array(["a"]),
    np.ones(3), np.ones((2, 2, 2)), {}, {"a": 1}, object(), (lambda: 0),
]

CALLS = [*WORKING_CALLS.items(), *MORE_CALLS]
CASES = [(i, name) for i, (f, kwargs) in enumerate(CALLS)
         for name in inspect.signature(f).parameters if name not in MATPLOTLIB_ARGUMENTS]


def _call_and_draw(f, kwargs):
    """Call ``f`` and draw every figure it made: matplotlib finds some problems only then."""
    result = f(**kwargs)
    for number in plt.get_fignums():
        plt.figure(number).canvas.draw()
    return result


def test_the_working_calls_work():
    for f, kwargs in WORKING_CALLS.items():
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            _call_and_draw(f, _fresh(kwargs))
        plt.close("all")


def test_a_stack_works_and_a_float16_model_is_refused_by_name():
    for f, kwargs in MORE_CALLS:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            if kwargs["model"] is HALF:
                with pytest.raises(TypeError, match=r"^model\['params'\]\['E'\] must be a float32 or float64"):
                    f(**kwargs)
            else:
                f(**kwargs)


def _short(value):
    try:
        return reprlib.repr(value)
    except ValueError:  # repr() of an int of more than 4300 digits
        return f"<{type(value).__name__}>"


def _fresh(kwargs):
    """Copies of the dicts that adam_step changes in place."""
    return {k: ({n: np.copy(a) for n, a in v.items()} if k in ("params", "grads", "state") else v)
            for k, v in kwargs.items()}


@contextlib.contextmanager
def _time_limit(seconds):
    """Raise TimeoutError in a call that runs too long (alibi_slopes(10**9) once did)."""
    if not hasattr(signal, "setitimer"):  # Windows: no limit
        yield
        return

    def stop(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _case_id(i, name):
    f, kwargs = CALLS[i]
    kind = "-stack" if kwargs.get("model") is STACK else "-float16" if kwargs.get("model") is HALF else ""
    return f"{f.__name__}{kind}-{name}"


@pytest.mark.parametrize("i, name", CASES, ids=[_case_id(i, name) for i, name in CASES])
def test_an_odd_argument_is_accepted_or_refused_by_name(i, name):
    f, working = CALLS[i]
    problems = []
    for value in ODD:
        kwargs = _fresh(working)
        kwargs[name] = value
        try:
            with warnings.catch_warnings(), _time_limit(20):
                warnings.simplefilter("error")
                _call_and_draw(f, kwargs)
        except (TypeError, ValueError):
            pass
        except Exception as error:  # noqa: BLE001 - that is what the test looks for
            problems.append(f"{name}={_short(value)}: {type(error).__name__}: {error}")
        finally:
            plt.close("all")
    assert not problems, f"{f.__module__}.{f.__name__}:\n" + "\n".join(problems)


def test_every_public_function_has_a_working_call():
    # A new public function of posenc must be added to WORKING_CALLS, so
    # that odd arguments are sent to it too.
    public = [getattr(posenc, name) for name in posenc.__all__]
    public += [getattr(plot, name) for name in plot.__all__]
    public += [getattr(stats, name) for name in stats.__all__]
    functions = {f for f in public if inspect.isfunction(f)}
    functions -= {plot.use_book_style}  # takes no arguments
    missing = sorted(f.__name__ for f in functions - set(WORKING_CALLS))
    assert not missing, f"add these to WORKING_CALLS: {missing}"


# ---------------------------------------------------------------------------
# The one size cap (issue 40): every public function that allocates counts
# what it will build, before it builds anything, and refuses beyond
# posenc._checks.MAX_ENTRIES with a ValueError that names the arguments, the
# size and the cap.
# ---------------------------------------------------------------------------

CAP = _checks.MAX_ENTRIES
SIDE = math.isqrt(CAP) + 1 + (math.isqrt(CAP) + 1) % 2  # even, and SIDE**2 > CAP

NONE = model.init_model("none")


def _first_above(count):
    """The smallest n whose count(n) exceeds CAP (count grows with n)."""
    low, high = 1, 2
    while count(high) <= CAP:
        low, high = high, 2 * high
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (mid, high) if count(mid) <= CAP else (low, mid)
    return high


# (function, its call with a size n, an n whose call builds just over CAP
# numbers: its result alone, or for the grid tasks the pairs of cells they
# draw from). A new function that allocates gets a row here.
ABOVE_THE_CAP = [
    (posenc.frequencies, lambda n: dict(d_model=n), 2 * CAP + 1),
    (posenc.wavelengths, lambda n: dict(d_model=n), 2 * CAP + 1),
    (posenc.sinusoidal, lambda n: dict(length=1, d_model=n), CAP + 1),
    (posenc.rotation_matrix, lambda n: dict(offset=1, d_model=n), SIDE),
    (posenc.random_embeddings, lambda n: dict(vocab_size=n, d_model=4), CAP // 4 + 1),
    (posenc.causal_mask, lambda n: dict(n=n), SIDE),
    (posenc.attention, lambda n: dict(q=np.ones((n, 1)), k=np.ones((n, 1)), v=np.ones((n, 1))), SIDE),
    (posenc.relative_positions, lambda n: dict(q_len=n, k_len=1), CAP + 1),
    (posenc.alibi_bias, lambda n: dict(n_heads=1, length=n), SIDE),
    (tables.init_table, lambda n: dict(n_rows=n, d_model=4), CAP // 4 + 1),
    (tables.lookup, lambda n: dict(table=np.ones((1, n)), indices=np.zeros(CAP // n + 1, int)), 2**14),
    (tables.lookup_backward, lambda n: dict(grad=np.ones((1, 4)), indices=[0], n_rows=n), CAP // 4 + 1),
    (tasks.order_task, lambda n: dict(n_examples=n, length=2), CAP // 2 + 1),
    (tasks.lookback_task, lambda n: dict(n_examples=n, length=4), CAP // 4 + 1),
    (tasks.order_test_set, lambda n: dict(n_pairs=n, length=2), CAP // 4 + 1),
    (tasks.lookback_test_set, lambda n: dict(n_pairs=n, length=4), CAP // 8 + 1),
    (tasks.left_of_task, lambda n: dict(n_examples=1, length=n, width=2), SIDE),
    (tasks.above_or_left_task, lambda n: dict(n_examples=1, length=n, width=2), SIDE),
    (tasks.left_of_test_set, lambda n: dict(n_pairs=1, length=n, width=2), SIDE),
    (tasks.above_or_left_test_set, lambda n: dict(n_pairs=1, length=n * n, width=n),
     math.isqrt(SIDE) + 1),
    (posenc.grid_positions, lambda n: dict(height=n, width=1), CAP // 2 + 1),
    (posenc.sinusoidal_2d, lambda n: dict(height=n, width=1, d_model=4), CAP // 4 + 1),
    (posenc.interpolate_table, lambda n: dict(table=np.zeros((1, 1)), grid=(1, 1), new_grid=(n, 1)),
     CAP + 1),
    (posenc.mrope_position_ids, lambda n: dict(segments=[("text", n)]), CAP // 3 + 1),
    (posenc.rope_angles, lambda n: dict(positions=[0.0], head_dim=n), 2 * CAP + 2),
    (posenc.rope_cos_sin, lambda n: dict(positions=[0.0], head_dim=n), 2 * CAP + 2),
    (posenc.llama_permutation, lambda n: dict(head_dim=2, n_heads=n), CAP // 4 + 1),
    (posenc.chunked_causal_mask, lambda n: dict(n=n, chunk_size=2), SIDE),
    # the tiny model (8 tokens, d_model 16, 4 heads): its parameters drawn in float64 and
    # converted; the engine's table and, per sequence, scores, weights, q, k, v, a gradient
    # and one-hot tokens; a training history, a held-out set
    (model.init_model, lambda n: dict(scheme="none", n_classes=n), (CAP - 1792) // 34 + 1),
    *[(f, lambda n, extra=extra: dict(model=NONE, tokens=np.zeros((1, n), dtype=np.int8), **extra),
       _first_above(lambda n: n * (840 + 8 * n)))
      for f, extra in [(model.forward, {}), (model.attention_weights, {}), (model.forward_by_definition, {}),
                       (model.accuracy, {"labels": [0]}), (backward.loss_and_grads, {"labels": [0]})]],
    (training.train, lambda n: dict(model=NONE, steps=n), (CAP - 114688) // 3 + 1),
    (training.held_out_accuracy, lambda n: dict(model=NONE, lengths=(2, n), n_items=1000),
     _first_above(lambda n: 500 * (n - 1) * (n + 2) + n * (840 + 8 * n))),
    # posenc.cache
    (posenc.padding_mask, lambda n: dict(attention_mask=np.ones(n, dtype=np.int8)), SIDE),
    (posenc.packed_position_ids, lambda n: dict(lengths=[n]), CAP // 3 + 1),
    (posenc.packed_mask, lambda n: dict(lengths=[n]), SIDE),
    (posenc.sliding_window_mask, lambda n: dict(n=n, window=2), SIDE),
    (posenc.seen_offsets, lambda n: dict(policy="full", n=n), SIDE),
    (posenc.logits_per_position, lambda n: dict(model=CAUSAL, tokens=np.zeros((1, n), np.int8)), SIDE),
    (posenc.decode, lambda n: dict(model=CAUSAL, tokens=np.zeros(n, np.int8)), SIDE),
]
# the rows whose size is the shape of an array, which cannot be 10**400
SIZED_BY_AN_ARRAY = {posenc.attention, tables.lookup, model.forward, model.attention_weights,
                     model.forward_by_definition, model.accuracy, backward.loss_and_grads,
                     posenc.padding_mask, posenc.packed_position_ids, posenc.packed_mask,
                     posenc.logits_per_position, posenc.decode}

CAP_MESSAGE = rf"would need ~?[0-9.e+]+ numbers, more than the {CAP:,} \(1 GiB of float64\)"

# Run in a child process whose address space is limited to what it holds
# after importing, plus a margin far below the cap (memory_limit.py): a
# function that built anything of the cap's size before refusing fails with a
# MemoryError there.
_UNDER_A_MEMORY_LIMIT = r"""
import importlib.util, json, os, sys
sys.path.insert(0, os.path.dirname(sys.argv[1]))  # for memory_limit.py
spec = importlib.util.spec_from_file_location("calls", sys.argv[1])
calls = importlib.util.module_from_spec(spec)
spec.loader.exec_module(calls)
outcomes = []
with calls.memory_limit():
    for f, call, n in calls.ABOVE_THE_CAP:
        try:
            f(**call(n))
            outcomes.append("returned")
        except BaseException as error:
            outcomes.append(f"{type(error).__name__}: {error}")
print(json.dumps(outcomes))
"""


@pytest.fixture(scope="module")
def outcomes_under_a_memory_limit():
    if not sys.platform.startswith("linux"):
        pytest.skip("the memory limit is set with RLIMIT_AS, read from /proc (Linux)")
    done = subprocess.run([sys.executable, "-c", _UNDER_A_MEMORY_LIMIT, __file__],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def _cap_id(row):
    return row[0].__name__


@pytest.mark.parametrize("i", range(len(ABOVE_THE_CAP)), ids=[_cap_id(r) for r in ABOVE_THE_CAP])
def test_a_call_just_above_the_cap_is_refused_before_anything_is_allocated(
        i, outcomes_under_a_memory_limit):
    f, call, n = ABOVE_THE_CAP[i]
    outcome = outcomes_under_a_memory_limit[i]
    assert re.match(r"^ValueError: .*" + CAP_MESSAGE, outcome), f"{f.__name__}: {outcome}"


@pytest.mark.parametrize("i", range(len(ABOVE_THE_CAP)), ids=[_cap_id(r) for r in ABOVE_THE_CAP])
def test_a_size_of_10_to_the_400_gets_the_same_message(i):
    f, call, n = ABOVE_THE_CAP[i]
    if f in SIZED_BY_AN_ARRAY:
        # just above the cap instead (an array of 10**400 entries cannot be made)
        with mock.patch.object(_checks, "MAX_ENTRIES", 1000):
            with pytest.raises(ValueError, match=CAP_MESSAGE.replace(f"{CAP:,}", "1,000").split(r" \(")[0]):
                f(**call(n))
        return
    with pytest.raises(ValueError, match=r"would need ~[0-9.]+e\+[0-9]+ numbers, more than the "
                                         rf"{CAP:,} \(1 GiB of float64\)"):
        f(**call(10**400))


def test_every_function_that_takes_a_size_has_a_row_above_the_cap():
    # A public function with an integer size argument allocates what it is
    # asked for: it needs a row in ABOVE_THE_CAP (the other functions build
    # arrays of the size of the arrays they are given).
    sizes = {"n", "length", "d_model", "vocab_size", "n_rows", "n_examples", "n_pairs", "height",
             "q_len", "head_dim", "new_grid", "segments"}
    rows = {f for f, _, _ in ABOVE_THE_CAP}
    owned_elsewhere = {posenc.explain_entry, posenc.rope_frequencies, posenc.alibi_slopes,
                       posenc.mpt_alibi_slopes}
    missing = sorted(f.__name__ for f in WORKING_CALLS
                     if sizes & set(inspect.signature(f).parameters) and f not in rows | owned_elsewhere)
    assert not missing, f"add these to ABOVE_THE_CAP: {missing}"


# ---------------------------------------------------------------------------
# Issue 40, MEDIUM 7: an __array__ that raises (a torch tensor that requires
# grad raises RuntimeError) is refused with a TypeError naming the argument.
# ---------------------------------------------------------------------------


class _ArrayRaises:
    """Like a torch tensor that requires grad: numpy cannot read it."""

    def __array__(self, dtype=None, copy=None):
        raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                           "tensor.detach().numpy() instead.")


def _numbers(value):
    """True for an array, or a list, of numbers or booleans."""
    try:
        return isinstance(value, (np.ndarray, list)) and np.asarray(value).dtype.kind in "biuf"
    except ValueError:  # a ragged list
        return False


# every argument that takes an array of numbers (of a model put together in
# float16, the model is refused first)
ARRAY_CASES = [(i, name) for i, (f, kwargs) in enumerate(CALLS) if kwargs.get("model") is not HALF
               for name, value in kwargs.items() if _numbers(value)]
# the model branch's functions that read labels with np.asarray (issue 40 is theirs there):
# strict, so that the fix makes this list shrink
@pytest.mark.parametrize("i, name", ARRAY_CASES, ids=[_case_id(i, name) for i, name in ARRAY_CASES])
def test_an_array_that_numpy_cannot_read_is_refused_by_name(i, name):
    f, working = CALLS[i]
    kwargs = dict(_fresh(working), **{name: _ArrayRaises()})
    with pytest.raises(TypeError, match=rf"^{name}\b"):
        _call_and_draw(f, kwargs)
    plt.close("all")
