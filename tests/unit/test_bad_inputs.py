"""The last bad-input gaps of issue 21, one test (or a few) per numbered item.

Every item has tests that failed on the code before the fix: a silently wrong
answer, an error from deep inside numpy or Python that does not name the
argument, or a warning (which ``filterwarnings = error`` turns into a test
error). A few tests beside them guard what must keep working (object arrays
of numbers, the reference ALiBi slopes, frequencies for every base > 1).
"""

from __future__ import annotations

import math
import warnings

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import posenc
from posenc import _checks, backward, model, plot, tables, tasks, training

matplotlib.use("Agg")

INT64 = np.iinfo(np.int64)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# --- 1. t5_bucket and extreme integers ------------------------------------


def test_t5_bucket_of_int64_min_is_the_last_bucket_of_the_past():
    # every distance of max_distance or more falls in the last bucket of its side
    assert posenc.t5_bucket(INT64.min) == posenc.t5_bucket(-200) == 15
    assert posenc.t5_bucket(INT64.min, bidirectional=False) == posenc.t5_bucket(-200, bidirectional=False) == 31
    assert posenc.t5_bucket(INT64.max) == 31
    assert posenc.t5_bucket(INT64.max, bidirectional=False) == 0  # the future


def test_t5_bucket_of_huge_unsigned_is_the_last_bucket_of_the_future():
    assert posenc.t5_bucket(np.uint64(2**63 + 5)) == 31
    assert posenc.t5_bucket(np.uint64(2**64 - 1), bidirectional=False) == 0
    got = posenc.t5_bucket(np.array([0, 3, 2**64 - 1], dtype=np.uint64))
    assert got.dtype == np.int64 and got.tolist() == [0, 19, 31]


@settings(deadline=None)  # a loaded shared machine must not make this flaky
@given(st.integers(INT64.min, INT64.max), st.booleans())
def test_t5_bucket_is_in_range_and_agrees_with_a_clipped_distance(rel, bidirectional):
    # beyond max_distance nothing changes, so clipping to +-1000 is a reference
    b = posenc.t5_bucket(rel, bidirectional=bidirectional)
    assert 0 <= b < 32
    assert b == posenc.t5_bucket(max(-1000, min(rel, 1000)), bidirectional=bidirectional)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32])
def test_t5_bucket_of_the_extremes_of_every_integer_type(dtype):
    info = np.iinfo(dtype)
    values = np.array([info.min, info.max], dtype=dtype)
    want = [posenc.t5_bucket(max(-1000, min(int(v), 1000))) for v in values]
    assert posenc.t5_bucket(values).tolist() == want


def test_t5_bucket_refuses_integers_beyond_64_bits_by_name():
    with pytest.raises(TypeError, match="relative_position must be integers"):
        posenc.t5_bucket(2**64)
    with pytest.raises(TypeError, match="relative_position"):
        posenc.t5_bucket([[1], [1, 2]])  # ragged


# --- 2. sinusoidal with a huge start ----------------------------------------


LIMIT = r"^start and length must keep the positions .* within -2\*\*53 to 2\*\*53"


def test_sinusoidal_refuses_positions_float64_cannot_tell_apart():
    limit = 2**53  # every integer up to here is a float64, and no further
    assert float(limit + 1) == float(limit) and float(limit - 1) != float(limit)
    with pytest.raises(ValueError, match=LIMIT + r".*got start=9007199254740992 and length=4$"):
        posenc.sinusoidal(4, 2, start=limit)
    with pytest.raises(ValueError, match=LIMIT):
        posenc.sinusoidal(2, 2, start=-limit - 1)
    with pytest.raises(ValueError, match=LIMIT):
        posenc.sinusoidal(3, 2, start=limit - 1)  # the last row would be 2**53 + 1
    with pytest.raises(ValueError, match=LIMIT + r".*got start=0 and length=~1e\+400$"):
        posenc.sinusoidal(10**400, 2)
    # up to the limit the rows are distinct positions
    pe = posenc.sinusoidal(2, 2, start=limit - 1)
    assert not np.array_equal(pe[0], pe[1])
    assert posenc.sinusoidal(1, 2, start=-limit).shape == (1, 2)


def test_sinusoidal_names_start_when_it_does_not_fit_in_a_float():
    with pytest.raises(ValueError, match=LIMIT + r".*got start=~1e\+400 and length=4$"):
        posenc.sinusoidal(4, 2, start=10**400)
    with pytest.raises(ValueError, match=LIMIT + r".*got start=~-1e\+5000"):
        posenc.sinusoidal(4, 2, start=-(10**5000))  # too long even for repr()


def test_explain_entry_has_the_limit_of_sinusoidal():
    assert posenc.explain_entry(2**53, 0, 2).startswith("PE(pos=9007199254740992, dim=0)")
    with pytest.raises(ValueError, match=r"^pos must be an integer from -9007199254740992 to 9007199254740992, got ~1e\+400$"):
        posenc.explain_entry(10**400, 0, 4)


@pytest.mark.parametrize("kwargs, words", [
    ({"num_buckets": 10**30}, r"^num_buckets must be an integer from 4 to 4611686018427387904, got ~1e\+30$"),
    ({"max_distance": 10**400}, r"^max_distance must be an integer from 1 to 4611686018427387904, got ~1e\+400$"),
])
def test_t5_bucket_names_huge_bucket_counts_and_distances(kwargs, words):
    with pytest.raises(ValueError, match=words):
        posenc.t5_bucket(3, **kwargs)


def test_huge_values_are_abbreviated_in_messages():
    assert _checks.show(10**400) == "~1e+400"
    assert _checks.show(-(10**5000)) == "~-1e+5000"
    assert _checks.show(12345) == "12345"
    assert len(_checks.show("x" * 10_000)) < 80
    assert len(_checks.show(list(range(10_000)))) < 80
    with pytest.raises(ValueError, match=r"^offset must be finite, got ~1e\+400$"):
        posenc.rotation_matrix(10**400, 4)


# --- 3. a tiny base ---------------------------------------------------------


@pytest.mark.parametrize("base", [1e-310, 0.5, 1.0, np.nextafter(1.0, 0)])
def test_base_must_be_greater_than_one(base):
    for call in (lambda: posenc.frequencies(4, base=base),
                 lambda: posenc.sinusoidal(2, 4, base=base, endpoint=True),
                 lambda: posenc.rope(np.ones((2, 4)), base=base)):
        with pytest.raises(ValueError, match=r"^base must be greater than 1"):
            call()


@settings(deadline=None)  # a loaded shared machine must not make this flaky
@given(st.integers(1, 300), st.floats(np.nextafter(1.0, 2), 1e300), st.booleans())
def test_frequencies_never_increase_from_1_to_one_over_base(d_model, base, endpoint):
    omega = posenc.frequencies(d_model, base=base, endpoint=endpoint)
    assert omega[0] == 1.0
    assert np.all(np.diff(omega) <= 0)
    assert np.all(omega >= 1 / base * (1 - 1e-12))


# --- 4. strings and bools are not numbers -----------------------------------


@pytest.mark.parametrize("call, name", [
    (lambda: posenc.softmax(["1", "2"]), "x"),
    (lambda: posenc.softmax([True, False]), "x"),
    (lambda: posenc.softmax(None), "x"),
    (lambda: posenc.softmax(np.array([1, None])), "x"),
    (lambda: posenc.rope(np.ones((3, 2)), ["0", "1", "2"]), "positions"),
    (lambda: posenc.rope(np.ones((3, 2), dtype=bool)), "x"),
    (lambda: posenc.attention([[True]], [[1.0]], [[1.0]]), "q"),
    (lambda: posenc.attention([[1.0]], [[1.0]], [["1"]]), "v"),
    (lambda: posenc.attention([[1.0]], [[1.0]], [[1.0]], bias=[[b"1"]]), "bias"),
    (lambda: plot.heatmap([["a", "b"]]), "table"),
    (lambda: tables.lookup([["1"]], [0]), "table"),
])
def test_strings_bools_and_none_are_not_numbers(call, name):
    # "must hold real numbers" is the wording of rope's own check on another branch
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(TypeError, match=rf"^{name} must (be array-like of|hold real) numbers"):
            call()


def test_object_arrays_of_real_numbers_are_still_numbers():
    from fractions import Fraction
    np.testing.assert_allclose(posenc.softmax(np.array([Fraction(0), 0.0], dtype=object)), [0.5, 0.5])


# --- 5. attention's messages ------------------------------------------------


def test_attention_names_q_and_k_when_the_scores_overflow():
    with pytest.raises(ValueError, match=r"^the scores q k\^T / sqrt\(d_k\) overflow"):
        posenc.attention([[1e200]], [[1e200]], [[1.0]])
    with pytest.raises(ValueError, match=r"^the scores q k\^T / sqrt\(d_k\) overflow"):
        posenc.attention([[1e200], [1e200]], [[-1e200], [1e200]], [[1.0], [1.0]])
    # finite q and k whose scores all overflow to -inf: no bias, no mask to blame
    with pytest.raises(ValueError, match=r"^the scores q k\^T / sqrt\(d_k\) overflow"):
        posenc.attention([[1e200]], [[-1e200]], [[1.0]])


def test_attention_blames_what_was_given_for_a_row_of_minus_inf():
    q = k = v = np.eye(2)
    bias = [[0.0, 0.0], [-np.inf, -np.inf]]
    with pytest.raises(ValueError, match=r"^bias gives every key -inf for query 1"):
        posenc.attention(q, k, v, bias=bias)
    with pytest.raises(ValueError, match=r"^bias and mask together .* query 0"):
        posenc.attention(q, k, v, bias=[[0.0, -np.inf], [0.0, 0.0]], mask=[[False, True], [True, True]])
    big = 1e154 * np.eye(2)  # scores of 7e307 on the diagonal: finite
    with pytest.raises(ValueError, match=r"^the scores plus bias overflow .* up to 1\.5e\+308"):
        posenc.attention(big, big, v, bias=[[1.5e308, 0.0], [0.0, 0.0]])
    with pytest.raises(ValueError, match=r"^the scores plus bias overflow"):
        posenc.attention(big, -big, v, bias=[[-1.5e308, -1.5e308], [0.0, 0.0]])
    # the smallest float as a mask value, as some libraries write it, is fine
    _, w = posenc.attention(q, k, v, bias=[[0.0, np.finfo(float).min], [0.0, 0.0]])
    assert w[0].tolist() == [1.0, 0.0]


# --- 6. unchecked neighbours of checked arguments -----------------------------


@pytest.mark.parametrize("kwargs, error, words", [
    ({"beta1": 1.0}, ValueError, r"^beta1 must be in \[0, 1\), got 1.0"),
    ({"beta1": -0.1}, ValueError, r"^beta1 must be in \[0, 1\)"),
    ({"beta2": 1.0}, ValueError, r"^beta2 must be in \[0, 1\)"),
    ({"beta2": "0.999"}, TypeError, "^beta2 must be a real number"),
    ({"eps": 0.0}, ValueError, "^eps must be positive"),
    ({"eps": -1e-8}, ValueError, "^eps must be positive"),
    ({"eps": float("nan")}, ValueError, "^eps must be finite"),
])
def test_adam_step_checks_its_hyperparameters(kwargs, error, words):
    params = {"w": np.ones(2)}
    with pytest.raises(error, match=words):
        training.adam_step(params, {"w": np.ones(2)}, {}, **kwargs)
    assert params["w"].tolist() == [1.0, 1.0]  # refused before anything moved


@pytest.mark.parametrize("kwargs, error, words", [
    ({"lr": "0.1"}, TypeError, "^lr must be a real number, got '0.1'"),
    ({"lr": 0.0}, ValueError, "^lr must be positive"),
    ({"task": "order"}, TypeError, r"^task must be a function task\(n_examples, length, seed=rng\), got 'order'"),
])
def test_train_checks_lr_and_task_before_training(kwargs, error, words):
    with pytest.raises(error, match=words):
        training.train(model.init_model("none"), steps=1, **kwargs)


@pytest.mark.parametrize("draw", [
    lambda **kw: plot.heatmap(np.ones((2, 2)), **kw),
    lambda **kw: plot.attention_weights(np.eye(2) / 2, ["a", "b"], **kw),
])
def test_plot_colorbar_must_be_a_bool(draw):
    with pytest.raises(TypeError, match="^colorbar must be True or False, got 'no'"):
        draw(colorbar="no")
    assert len(draw(colorbar=False).figure.axes) == 1


# --- 7. empty or odd inputs --------------------------------------------------


def test_forward_and_accuracy_refuse_empty_sequences_and_batches():
    m = model.init_model("sinusoidal")
    for call in (model.forward, model.attention_weights):
        with pytest.raises(ValueError, match=r"^tokens must hold at least one token per sequence, got shape \(2, 0\)"):
            call(m, np.zeros((2, 0), dtype=int))
    with pytest.raises(ValueError, match=r"^tokens must hold at least one token per sequence"):
        backward.loss_and_grads(m, np.zeros((2, 0), dtype=int), [0, 1])
    with pytest.raises(ValueError, match=r"^tokens must hold at least one sequence, got shape \(0, 4\)"):
        model.accuracy(m, np.zeros((0, 4), dtype=int), np.zeros(0, dtype=int))
    with pytest.raises(ValueError, match=r"^tokens must hold at least one sequence"):
        model.forward(m, np.zeros((0, 4), dtype=int))
    with pytest.raises(TypeError, match=r"^model must be a dict from init_model or train, got str"):
        model.forward("sinusoidal", [[0, 1]])


def test_lookup_of_nothing_and_lookup_backward_of_a_scalar():
    table = np.arange(6.0).reshape(3, 2)
    assert tables.lookup(table, []).shape == (0, 2)  # like t5_bucket([])
    np.testing.assert_array_equal(tables.lookup_backward(np.zeros((0, 2)), [], 3), np.zeros((3, 2)))
    with pytest.raises(ValueError, match=r"^grad must have shape indices.shape \+ \(d_model,\)"):
        tables.lookup_backward(5.0, 0, 3)
    with pytest.raises(TypeError, match="^indices must be integers"):
        tables.lookup(table, [0.0, 1.0])


@pytest.mark.parametrize("draw, name", [
    (lambda: plot.heatmap(np.ones((0, 3))), "table"),
    (lambda: plot.heatmap(np.ones((3, 0))), "table"),
    (lambda: plot.bars(np.zeros((0, 3)), []), "vectors"),
    (lambda: plot.bars(np.zeros((2, 0)), ["a", "b"]), "vectors"),
    (lambda: plot.similarity(np.ones((0, 3))), "table"),
    (lambda: plot.curves(np.ones((0, 3)), [0]), "table"),
    (lambda: plot.attention_weights(np.ones((0, 0)), []), "weights"),
])
def test_plots_refuse_empty_tables(draw, name):
    with pytest.raises(ValueError, match=rf"^{name} must not be empty, got shape"):
        draw()


@pytest.mark.parametrize("call, error, words", [
    (lambda: posenc.build_vocab(None), TypeError, "^tokens must be a list of str, got NoneType"),
    (lambda: posenc.encode(None, {"a": 0}), TypeError, "^tokens must be a list of str, got NoneType"),
    (lambda: plot.curves(np.ones((3, 3)), 3), TypeError, r"^dims must be a sequence of column numbers.*\[3\]"),
    (lambda: plot.bars(np.ones((1, 3)), 5), TypeError, "^labels must be a sequence"),
    (lambda: posenc.encode(["a"], {"a": 10**30}), ValueError,
     r"^vocab\['a'\] must be an integer from 0 to 9223372036854775807, got ~1e\+30"),
])
def test_odd_arguments_get_clear_errors(call, error, words):
    with pytest.raises(error, match=words):
        call()


# --- 9. alibi_slopes and a huge head count -------------------------------------


def test_alibi_slopes_refuses_head_counts_no_model_uses():
    assert len(posenc.alibi_slopes(posenc.relative.MAX_HEADS)) == 2**16
    # 10**7 heads took 12 s and 10**9 hung; test_any_argument.py sends 10**400
    # under a time limit
    for n in (2**16 + 1, 10**7):
        with pytest.raises(ValueError, match=r"^n_heads must be at most 65536 .*got (65537|10000000)$"):
            posenc.alibi_slopes(n)
    with pytest.raises(ValueError, match="^n_heads must be at most 65536"):
        posenc.alibi_bias(2**16 + 1, 2)


def test_alibi_slopes_stay_the_reference_values_up_to_the_limit():
    # the first slopes of any count come from the closest smaller power of two
    n = 2**16 - 3
    closest = 2**15
    slopes = posenc.alibi_slopes(n)
    start = 2 ** (-8 / closest)
    assert slopes[:3].tolist() == [start, start * start, start * start**2]
    assert slopes[-1] > 2.0**-8.0 * 0.99 and np.all(slopes > 0)


# --- 11. softmax without overflow warnings -------------------------------------


@pytest.mark.parametrize("x, want", [
    ([1e308, -1e308], [1.0, 0.0]),
    ([-1e308, 1.7e308, -np.inf], [0.0, 1.0, 0.0]),
    ([np.finfo(float).max, -np.finfo(float).max], [1.0, 0.0]),
])
def test_softmax_of_far_apart_logits_does_not_warn(x, want):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert posenc.softmax(x).tolist() == want


@settings(deadline=None)  # a loaded shared machine must not make this flaky
@given(st.lists(st.floats(-1.7e308, 1.7e308) | st.just(-math.inf), min_size=1, max_size=8))
def test_softmax_of_any_finite_logits_is_a_distribution(x):
    assume(any(v > -math.inf for v in x))
    p = posenc.softmax(x)
    assert np.all(p >= 0) and math.isclose(p.sum(), 1.0, rel_tol=1e-12)


# --- neighbours found by sending odd values to every argument -------------------


@pytest.mark.parametrize("args, error, words", [
    ((None, {"w": np.ones(2)}, {}), TypeError, "^params must be a dict of names to float arrays, got NoneType"),
    (({"w": np.ones(2)}, [1.0], {}), TypeError, "^grads must be a dict"),
    (({"w": np.ones(2)}, {"w": np.ones(2)}, None), TypeError, r"^state must be a dict of Adam's moments \(pass \{\}"),
    (({"w": np.ones(2)}, {"v": np.ones(2)}, {}), ValueError, "^grads has 'v', which params lacks"),
    (({"w": np.ones(2)}, {"w": np.ones(3)}, {}), ValueError, r"^grads\['w'\] must have the shape of params\['w'\], \(2,\)"),
    (({"w": [1.0, 2.0]}, {"w": np.ones(2)}, {}), TypeError, r"^params\['w'\] must be a float numpy array"),
    (({"w": np.array([1, 2])}, {"w": np.ones(2)}, {}), TypeError, r"^params\['w'\] must be a float numpy array"),
])
def test_adam_step_checks_what_it_updates(args, error, words):
    with pytest.raises(error, match=words):
        training.adam_step(*args)
    assert args[2] in ({}, None)  # refused before the step count moved


@pytest.mark.parametrize("kwargs, error, words", [
    ({"ax": "left"}, TypeError, r"^ax must be matplotlib Axes \(from plt.subplots\(\), for example\) or None, got str"),
    ({"figsize": 7}, TypeError, r"^figsize must be \(width, height\) in inches, two positive numbers, got 7"),
    ({"figsize": (7, -1)}, ValueError, r"^figsize must be \(width, height\)"),
])
def test_plots_check_ax_and_figsize(kwargs, error, words):
    with pytest.raises(error, match=words):
        plot.heatmap(np.ones((2, 2)), **kwargs)


def test_curves_needs_a_column_to_draw():
    with pytest.raises(ValueError, match="^dims must name at least one column"):
        plot.curves(np.ones((2, 2)), [])


@pytest.mark.parametrize("call, error, words", [
    (lambda: posenc.sinusoidal(2, 4, layout=np.ones((2, 3), dtype=bool)), ValueError,
     "^layout must be one of 'interleaved', 'halves'; got array"),
    (lambda: posenc.rope(np.ones((2, 4)), layout=["halves"]), ValueError, "^layout must be one of"),
    (lambda: model.init_model(np.array([])), ValueError, "^scheme must be one of"),
    (lambda: posenc.attention(np.eye(2), np.eye(2), np.eye(2), mask=[[True], [True, False]]), TypeError,
     r"^mask must be a boolean array \(True = may attend\), got \[\[True\], \[True, False\]\]"),
    (lambda: model.accuracy(model.init_model("none"), [[0, 1], [1, 0]], [[1], [1, 0]]), ValueError,
     r"^labels must be 2 integers \(one per sequence\), got \[\[1\], \[1, 0\]\]"),
    (lambda: tasks.lookback_task(3, 5, window=10**30), ValueError, r"^length must be an integer >= ~1e\+30, got 5$"),
])
def test_arrays_and_ragged_lists_where_a_choice_or_labels_belong(call, error, words):
    with pytest.raises(error, match=words):
        call()


@pytest.mark.parametrize("draw, words", [
    (lambda: plot.heatmap(np.full((2, 2), 1e308)), r"^table spans -1e\+308 to 1e\+308"),
    (lambda: plot.heatmap([[1e308, -1e308]], symmetric=False), r"^table spans -1e\+308 to 1e\+308"),
    (lambda: plot.similarity(np.full((2, 2), 1e308)), r"^the dot products of the rows of table overflow"),
    (lambda: plot.similarity(np.full((2, 2), 1e308), normalize=True), r"^the dot products of the rows"),
])
def test_plots_of_values_near_the_float64_limit(draw, words):
    with pytest.raises(ValueError, match=words):  # not an overflow warning from deep inside
        draw()
