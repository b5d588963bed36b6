"""Tests of posenc.training: Adam and the training loop, alone and in stacks."""

from __future__ import annotations

import numpy as np
import pytest

from posenc import model, rope, sinusoidal, stats, training
from posenc.backward import loss_and_grads
from posenc.model import accuracy, forward, init_model, unstack
from posenc.tasks import lookback_task, order_task
from posenc.training import adam_step, held_out_accuracy, train


def test_adam_first_steps_by_hand():
    params, state = {"w": np.array([1.0, -1.0, 3.0])}, {}
    g1 = np.array([0.5, -2.0, 0.0])
    adam_step(params, {"w": g1}, state, lr=0.1)
    # first step: m_hat = g, v_hat = g^2, so each entry moves by lr * sign(g) (0 stays)
    np.testing.assert_allclose(params["w"], [0.9, -0.9, 3.0], atol=1e-9)
    g2 = np.array([1.0, 0.0, 0.0])
    adam_step(params, {"w": g2}, state, lr=0.1)
    m = 0.9 * (0.1 * g1) + 0.1 * g2
    v = 0.999 * (0.001 * g1**2) + 0.001 * g2**2
    step = 0.1 * (m / (1 - 0.9**2)) / (np.sqrt(v / (1 - 0.999**2)) + 1e-8)
    np.testing.assert_allclose(params["w"], np.array([0.9, -0.9, 3.0]) - step)
    assert params["w"][2] == 3.0 and state["t"] == 2


def test_training_reduces_the_loss_and_learns_the_task():
    model = init_model("learned", seed=0)
    trained, history = train(model, steps=150, seed=0)
    assert history["loss"][-20:].mean() < 0.5 * history["loss"][:20].mean()
    tokens, labels = order_task(400, 8, seed=99)
    assert accuracy(trained, tokens, labels) > 0.9
    assert set(history) == {"loss", "accuracy", "length"}
    assert history["length"].min() >= 4 and history["length"].max() <= 16


def test_train_leaves_the_input_model_unchanged_and_unused_rows_at_initialisation():
    model = init_model("learned", seed=1)
    before = {name: x.copy() for name, x in model["params"].items()}
    trained, history = train(model, steps=30, lengths=(3, 6), seed=1)
    for name in before:
        np.testing.assert_array_equal(model["params"][name], before[name])
    P, P0 = trained["params"]["P"], before["P"]
    np.testing.assert_array_equal(P[6:], P0[6:])  # never reached: bitwise unchanged
    assert np.all(np.any(P[:3] != P0[:3], axis=1))  # every batch reaches rows 0..2


def test_training_is_reproducible():
    a = train(init_model("sinusoidal", seed=2), steps=20, seed=3)
    b = train(init_model("sinusoidal", seed=2), steps=20, seed=3)
    np.testing.assert_array_equal(a[1]["loss"], b[1]["loss"])
    np.testing.assert_array_equal(a[0]["params"]["W_q"], b[0]["params"]["W_q"])


def test_both_readouts_agree_on_a_single_token_and_differ_on_longer_sequences():
    mean, last = (init_model("rope", readout=r, seed=2) for r in ("mean", "last"))
    tokens = order_task(4, 5, seed=1)[0]
    np.testing.assert_array_equal(forward(mean, tokens[:, :1]), forward(last, tokens[:, :1]))
    assert not np.allclose(forward(mean, tokens), forward(last, tokens))


def test_lookback_is_learned_by_alibi_read_at_the_last_position():
    model = init_model("alibi", causal=True, readout="last", seed=0)
    trained, _ = train(model, steps=150, lengths=(4, 16), task=lookback_task, seed=0)
    assert accuracy(trained, *lookback_task(400, 12, seed=5)) > 0.9


def test_train_accepts_another_task():
    def majority_task(n_examples, length, *, seed=0):
        """Label 1 if A (token 0) occurs more often than B (token 1): no order needed."""
        rng = np.random.default_rng(seed) if not isinstance(seed, np.random.Generator) else seed
        tokens = rng.integers(0, 2, size=(n_examples, length))
        return tokens, ((tokens == 0).sum(axis=1) > (tokens == 1).sum(axis=1)).astype(int)

    trained, history = train(init_model("none", vocab_size=2), steps=300, lengths=(3, 9),
                             task=majority_task, seed=0)
    assert accuracy(trained, *majority_task(500, 9, seed=1)) > 0.9  # a bag task: no positions needed


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"steps": 0}, ValueError, "steps"),
        ({"batch_size": 1.5}, TypeError, "batch_size"),
        ({"lengths": 16}, TypeError, "lengths must be a pair"),
        ({"lengths": (8, 4)}, ValueError, r"lengths\[1\] must be an integer >= 8"),
        ({"lengths": (0, 4)}, ValueError, r"lengths\[0\]"),
        ({"lengths": (4, 65)}, ValueError, "longer than the position table"),
        ({"lr": 0.0}, ValueError, "lr"),
        ({"seed": -3}, ValueError, "seed"),
    ],
)
def test_train_bad_input(kwargs, error, words):
    with pytest.raises(error, match=words):
        train(init_model("learned", max_len=64), **kwargs)


@pytest.mark.parametrize("scheme", ["learned", "rope"])
def test_training_a_stack_equals_training_each_model_alone(scheme):
    seeds = [1, 4]
    options = dict(steps=25, lengths=(4, 9), task=lookback_task)
    kwargs = dict(causal=True, readout="last")
    stack, history = train(init_model(scheme, seed=seeds, **kwargs), seed=seeds, **options)
    assert history["loss"].shape == (2, 25) and history["length"].shape == (25,)
    for m, seed in enumerate(seeds):
        alone, alone_history = train(init_model(scheme, seed=seed, **kwargs), seed=seed, **options)
        np.testing.assert_allclose(history["loss"][m], alone_history["loss"], rtol=1e-10)
        np.testing.assert_array_equal(history["length"], alone_history["length"])
        for name, x in alone["params"].items():
            np.testing.assert_allclose(stack["params"][name][m], x, rtol=1e-9, atol=1e-12)


def test_every_model_of_a_stack_sees_the_same_lengths_and_its_own_sequences():
    seen = []

    def recording_task(n_examples, length, *, seed):
        tokens, labels = order_task(n_examples, length, seed=seed)
        seen.append(tokens)
        return tokens, labels

    train(init_model("none", seed=[0, 1]), steps=3, task=recording_task, seed=[5, 5])
    assert [t.shape for t in seen[0::2]] == [t.shape for t in seen[1::2]]
    np.testing.assert_array_equal(seen[0], seen[1])  # the same seed, the same data
    seen.clear()
    train(init_model("none", seed=[0, 1]), steps=3, task=recording_task, seed=[5, 6])
    assert not np.array_equal(seen[0], seen[1])
    a = train(init_model("none"), steps=5, length_seed=1)[1]["length"]
    b = train(init_model("none"), steps=5, length_seed=2)[1]["length"]
    assert not np.array_equal(a, b)


def test_a_short_fine_tune_with_new_rope_settings_trains_the_changed_model():
    model = init_model("rope", causal=True, readout="last", seed=0)
    changed = dict(model, inv_freq=model["inv_freq"] / 4, attention_factor=1.2)
    tuned, history = train(changed, steps=5, lengths=(20, 40), task=lookback_task)
    np.testing.assert_array_equal(tuned["inv_freq"], model["inv_freq"] / 4)
    assert tuned["attention_factor"] == 1.2
    assert np.all((20 <= history["length"]) & (history["length"] <= 40))
    assert not np.array_equal(tuned["params"]["W_q"], model["params"]["W_q"])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_train_updates_the_parameters_exactly_as_adam_step_does(dtype):
    # train() updates all parameters as one flat array: entry by entry, the same numbers
    model = init_model("learned", seed=[3, 5], dtype=dtype)
    trained, history = train(model, steps=30, lengths=(4, 9), seed=[3, 5])
    params = {name: x.copy() for name, x in model["params"].items()}
    rngs, lengths, state = [np.random.default_rng(s) for s in (3, 5)], np.random.default_rng(0), {}
    for step in range(30):
        n = int(lengths.integers(4, 10))
        tokens, labels = zip(*(order_task(32, n, seed=rng) for rng in rngs))
        _, grads = loss_and_grads(dict(model, params=params), np.stack(tokens), np.stack(labels))
        adam_step(params, grads, state, lr=0.02 * (1 - step / 30))
    for name, x in params.items():
        np.testing.assert_array_equal(trained["params"][name], x)
        assert trained["params"][name].dtype == dtype


def test_train_keeps_the_dtype_of_each_parameter_of_a_model_put_together_by_hand():
    model = init_model("learned", dtype=np.float32)
    mixed = dict(model, params=dict(model["params"], P=model["params"]["P"].astype(np.float64)))
    trained, _ = train(mixed, steps=3)
    assert trained["params"]["P"].dtype == np.float64 and trained["params"]["E"].dtype == np.float32
    assert mixed["params"]["P"].dtype == np.float64  # the input is not changed


# --- issue 28: Adam and training refuse what would break them -------------------------


def test_adam_keeps_float16_parameters_sane():
    # in float16 g^2 = 1e-8 underflows to 0 and eps to 0: a step of lr * g / 0
    params, state = {"w": np.ones(3, dtype=np.float16)}, {}
    adam_step(params, {"w": np.full(3, 1e-4, dtype=np.float16)}, state, lr=0.01)
    assert params["w"].dtype == np.float16
    np.testing.assert_allclose(params["w"], 0.99, atol=1e-3)
    assert state["m_w"].dtype == np.float32 and state["v_w"].dtype == np.float32


def test_adam_takes_integer_gradients_as_numbers():
    params, state = {"w": np.array([1.0, 2.0])}, {}
    adam_step(params, {"w": np.array([1, 0])}, state, lr=0.1)
    adam_step(params, {"w": np.array([1, 0])}, state, lr=0.1)  # a second step works too
    np.testing.assert_allclose(params["w"], [0.8, 2.0])
    assert state["m_w"].dtype == np.float64 and state["t"] == 2


@pytest.mark.parametrize("grads, state, words", [
    ({"w": np.array([np.nan, 0.0])}, {}, r"^grads\['w'\] must contain only finite numbers"),
    ({"w": np.array([1.0, 0.0])}, {"t": 1, "m_w": np.zeros(3), "v_w": np.zeros(3)},
     r"^state\['m_w'\] is not Adam's moment of params\['w'\]"),
    ({"w": np.array([1.0, 0.0])}, {"t": -1}, r"^state\['t'\] must be the number of steps"),
])
def test_adam_checks_everything_before_it_changes_anything(grads, state, words):
    params = {"w": np.array([1.0, 2.0])}
    before = {k: np.copy(v) if isinstance(v, np.ndarray) else v for k, v in state.items()}
    with pytest.raises(ValueError, match=words):
        adam_step(params, grads, state)
    np.testing.assert_array_equal(params["w"], [1.0, 2.0])
    assert state.keys() == before.keys()
    assert all(np.array_equal(state[k], before[k]) for k in state)


def _task_returning(tokens, labels):
    def task(n_examples, length, seed):
        return np.asarray(tokens), np.asarray(labels)
    return task


@pytest.mark.parametrize("tokens, labels, error, words", [
    ([[-1, 0, 1, 2]] * 2, [0, 1], ValueError, r"^tokens must lie in \[0, 8\)"),
    ([[9, 0, 1, 2]] * 2, [0, 1], ValueError, r"^tokens must lie in \[0, 8\)"),
    ([[0, 1, 2, 3]] * 3, [0, 1, 1], ValueError, r"must return tokens of shape \(2, 4\)"),
    ([[0, 1, 2, 3]] * 2, [0, 2], ValueError, r"^labels must lie in \[0, 2\)"),
    ([[0.0, 1, 2, 3]] * 2, [0, 1], TypeError, "^tokens must be integer token ids"),
])
def test_train_checks_what_a_custom_task_returns(tokens, labels, error, words):
    model = init_model("learned", max_len=8)
    with pytest.raises(error, match=words):
        train(model, steps=1, batch_size=2, lengths=(4, 4), task=_task_returning(tokens, labels))


def test_train_refuses_a_custom_task_longer_than_the_learned_table():
    model = init_model("learned", max_len=4)
    long = _task_returning([[0, 1, 2, 3, 4, 5]] * 2, [0, 1])
    with pytest.raises(ValueError, match="must return tokens of shape"):
        train(model, steps=1, batch_size=2, lengths=(4, 4), task=long)


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


# --- training until the convergence rule is met (issue 25) --------------------------


def _until_converged(scheme, seeds, dtype=np.float64, steps=200, every=25):
    model = init_model(scheme, seed=seeds, dtype=dtype)
    return model, train(model, steps=steps, lengths=(4, 9), seed=seeds, check_every=every)


def test_each_model_stops_at_the_first_check_where_it_meets_the_rule():
    model, (trained, history) = _until_converged("learned", [0, 1, 2, 3])
    steps, held_out = history["steps"], history["held_out"]
    assert len(set(steps.tolist())) > 1, "the models should stop at different checks"
    assert held_out.shape == (4, 6) and history["converged"].sum() >= 2
    np.testing.assert_array_equal(stats.converged(held_out), history["converged"])
    assert np.all(steps[~history["converged"]] == 200)  # the rest train to the end
    # the held-out rows are those of the final models, which held_out_accuracy recomputes
    np.testing.assert_array_equal(held_out, held_out_accuracy(trained, lengths=(4, 9)))
    assert np.all(steps % 25 == 0) and history["loss"].shape == (4, steps.max())
    for m, t in enumerate(steps):  # NaN after its stop, numbers before
        assert np.isfinite(history["loss"][m, :t]).all() and np.isnan(history["loss"][m, t:]).all()
    assert history["length"].shape == (steps.max(),)


def test_a_model_that_stops_is_the_model_of_that_step_of_the_full_schedule():
    # the step size decays over all 200 steps whether or not the model stops
    model, (trained, history) = _until_converged("learned", [0, 1, 2, 3])
    m = int(np.argmin(history["steps"]))
    assert history["converged"][m] and history["steps"][m] < 200
    t, seed = int(history["steps"][m]), [0, 1, 2, 3][m]
    params = {name: x[m].copy() for name, x in model["params"].items()}
    rng, lengths, state = np.random.default_rng(seed), np.random.default_rng(0), {}
    for step in range(t):
        n = int(lengths.integers(4, 10))
        _, grads = loss_and_grads(dict(model, n_models=None, params=params), *order_task(32, n, seed=rng))
        adam_step(params, grads, state, lr=0.02 * (1 - step / 200))
    for name, x in params.items():
        np.testing.assert_array_equal(trained["params"][name][m], x)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_stack_that_stops_model_by_model_equals_its_models_trained_alone(dtype):
    seeds = [0, 1, 2, 3]
    _, (stack, history) = _until_converged("learned", seeds, dtype=dtype)
    assert len(set(history["steps"].tolist())) > 1
    for m, seed in enumerate(seeds):
        alone, alone_history = train(init_model("learned", seed=seed, dtype=dtype), steps=200,
                                     lengths=(4, 9), seed=seed, check_every=25)
        assert alone_history["steps"] == history["steps"][m]
        assert alone_history["converged"] is bool(history["converged"][m])
        np.testing.assert_array_equal(alone_history["held_out"], history["held_out"][m])
        t = alone_history["steps"]
        np.testing.assert_array_equal(alone_history["loss"], history["loss"][m, :t])
        for name, x in alone["params"].items():
            np.testing.assert_array_equal(stack["params"][name][m], x)


def test_a_stack_of_mixed_dtypes_stops_model_by_model_too():
    # parameters of two dtypes cannot share one flat array: Adam runs name by name
    model = init_model("learned", seed=[0, 1, 2, 3])
    mixed = dict(model, params=dict(model["params"], P=model["params"]["P"].astype(np.float32)))
    stack, history = train(mixed, steps=200, lengths=(4, 9), seed=[0, 1, 2, 3], check_every=25)
    assert len(set(history["steps"].tolist())) > 1
    for m, alone in enumerate(unstack(mixed)):
        trained, alone_history = train(alone, steps=200, lengths=(4, 9), seed=m, check_every=25)
        assert alone_history["steps"] == history["steps"][m]
        for name, x in trained["params"].items():
            np.testing.assert_array_equal(stack["params"][name][m], x)
            assert x.dtype == mixed["params"][name].dtype


def test_a_model_that_cannot_learn_trains_every_step_and_is_reported_not_converged():
    trained, history = train(init_model("none", seed=[0, 1]), steps=60, seed=[0, 1], check_every=25)
    np.testing.assert_array_equal(history["steps"], [60, 60])
    assert not history["converged"].any() and history["loss"].shape == (2, 60)
    assert np.all(np.abs(history["held_out"] - 0.5) < 0.1)  # every length scored, at the last check


@pytest.mark.parametrize("seeds", [[0, 1, 2, 3], 0])
def test_one_run_without_stopping_gives_the_fixed_budget_and_the_early_stopped_models(seeds):
    model = init_model("learned", seed=seeds)
    early, early_history = train(model, steps=200, lengths=(4, 9), seed=seeds, check_every=25)
    fixed, fixed_history = train(model, steps=200, lengths=(4, 9), seed=seeds)
    full, history = train(model, steps=200, lengths=(4, 9), seed=seeds, check_every=25, stop_early=False)
    stopped, stopped_history = history.pop("stopped")
    for name in model["params"]:
        np.testing.assert_array_equal(full["params"][name], fixed["params"][name])
        np.testing.assert_array_equal(stopped["params"][name], early["params"][name])
    np.testing.assert_array_equal(history["loss"], fixed_history["loss"])  # every step
    assert set(stopped_history) == set(early_history)
    for name, x in early_history.items():
        np.testing.assert_array_equal(stopped_history[name], x)  # NaN where early's are
    assert np.array_equal(history["steps"], early_history["steps"]) and np.min(history["steps"]) < 200


def test_stop_early_false_needs_check_every_and_a_real_bool():
    with pytest.raises(ValueError, match="^stop_early=False .* needs check_every"):
        train(init_model("none"), steps=5, stop_early=False)
    with pytest.raises(TypeError, match="^stop_early must be True or False"):
        train(init_model("none"), steps=5, check_every=5, stop_early=0)


def test_without_check_every_nothing_is_checked():
    _, history = train(init_model("learned"), steps=30, seed=0)
    assert set(history) == {"loss", "accuracy", "length"} and np.isfinite(history["loss"]).all()


def test_held_out_accuracy_is_the_accuracy_on_its_own_set_at_every_length():
    model = init_model("rope", seed=[0, 1])
    acc = held_out_accuracy(model, lookback_task, (4, 6), n_items=50, seed=7)
    rng = np.random.default_rng(7)
    for j, n in enumerate(range(4, 7)):
        np.testing.assert_array_equal(acc[:, j], accuracy(model, *lookback_task(50, n, seed=rng)))
    assert held_out_accuracy(init_model("rope"), lookback_task, (4, 6), n_items=50, seed=7).shape == (3,)


@pytest.mark.parametrize("call, error, words", [
    (lambda: train(init_model("none"), steps=5, check_every=0), ValueError, "^check_every"),
    (lambda: train(init_model("none"), steps=5, check_every=2.5), TypeError, "^check_every"),
    (lambda: held_out_accuracy(init_model("none"), n_items=0), ValueError, "^n_items"),
    (lambda: held_out_accuracy(init_model("none"), n_items=10**9), ValueError, "^n_items"),
    (lambda: held_out_accuracy(init_model("none"), task=3), TypeError, "^task must be a function"),
    (lambda: held_out_accuracy(init_model("learned", max_len=8)), ValueError, "position table"),
    (lambda: held_out_accuracy(init_model("none"), _task_returning([[0, 1, 2, 3]], [0])),
     ValueError, "must return tokens of shape"),
])
def test_held_out_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call()


# --- T5's bucketed bias trains as a scheme (issue 41) ------------------------------------


def test_lookback_is_learned_by_t5_read_at_the_last_position():
    model = init_model("t5", causal=True, readout="last", seed=0)
    trained, _ = train(model, steps=150, lengths=(4, 16), task=lookback_task, seed=0)
    assert accuracy(trained, *lookback_task(400, 12, seed=5)) > 0.9
    assert not np.array_equal(trained["params"]["R"], model["params"]["R"])


def test_t5_buckets_that_training_never_reaches_keep_their_initial_values():
    # lengths 3 to 6: distances up to 5, buckets 0-5 and 17-21 of 32
    model = init_model("t5", seed=1)
    trained, _ = train(model, steps=30, lengths=(3, 6), seed=1)
    R, R0 = trained["params"]["R"], model["params"]["R"]
    reached = [0, 1, 2, 3, 4, 5, 17, 18, 19, 20, 21]
    never = np.setdiff1d(np.arange(32), reached)
    np.testing.assert_array_equal(R[:, never], R0[:, never])
    assert np.all(R[:, reached] != R0[:, reached])


# --- issue 40: Adam overflows nothing silently; train and held_out_accuracy check first -----


@pytest.mark.parametrize("params, grads, lr, words", [
    ({"w": np.ones(3, dtype=np.float32)}, {"w": np.array([3e19, 0.0, 1.0], dtype=np.float32)}, 0.01,
     r"^grads\['w'\] holds entries up to 3e\+19, whose squares overflow Adam's second moment in float32"),
    ({"w": np.ones(3, dtype=np.float16)}, {"w": np.ones(3, dtype=np.float16)}, 1e6,
     r"^lr = 1e\+06 would carry params\['w'\] past the largest float16 \(6.55e\+04\)"),
    ({"w": np.full(2, -1.7e308)}, {"w": np.ones(2)}, 1e308,
     r"^lr = 1e\+308 would carry params\['w'\] past the largest float64"),
])
def test_adam_refuses_a_step_that_overflows_and_changes_nothing(params, grads, lr, words):
    state = {}
    adam_step(params, {"w": np.zeros_like(grads["w"])}, state, lr=1e-3)  # moments of a first step
    before = {k: np.copy(v) for k, v in state.items()}, np.copy(params["w"])
    with warnings_as_errors():
        with pytest.raises(ValueError, match=words):
            adam_step(params, grads, state, lr=lr)
    assert state.keys() == before[0].keys() and state["t"] == 1
    for k, v in before[0].items():
        np.testing.assert_array_equal(state[k], v)
    np.testing.assert_array_equal(params["w"], before[1])


def warnings_as_errors():
    import warnings

    context = warnings.catch_warnings()
    context.__enter__()
    warnings.simplefilter("error")

    class Exit:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            context.__exit__(*exc)

    return Exit()


def test_adam_keeps_updating_its_moments_in_place():
    # train() and callers holding state["m_w"] see the same arrays move
    params, state = {"w": np.ones(2)}, {}
    adam_step(params, {"w": np.ones(2)}, state)
    m = state["m_w"]
    adam_step(params, {"w": np.ones(2)}, state)
    assert state["m_w"] is m and m[0] == pytest.approx(0.1 + 0.9 * 0.1 - 0.1 * 0.1 + 0.1 * 0.1)


@pytest.mark.parametrize("read_only", ["param", "moment"])
def test_adam_refuses_a_read_only_array_before_it_changes_anything(read_only):
    params, state = {"w": np.ones(2), "u": np.ones(2)}, {}
    adam_step(params, {"w": np.ones(2), "u": np.ones(2)}, state)
    (params["w"] if read_only == "param" else state["v_w"]).setflags(write=False)
    before = {k: np.copy(v) for k, v in state.items()}, {k: np.copy(v) for k, v in params.items()}
    words = r"^params\['w'\] is read-only" if read_only == "param" else r"^state\['v_w'\] is read-only"
    with pytest.raises(ValueError, match=words):
        adam_step(params, {"u": np.ones(2), "w": np.ones(2)}, state)
    for k, v in before[0].items():
        np.testing.assert_array_equal(state[k], v)
    for k, v in before[1].items():
        np.testing.assert_array_equal(params[k], v)


def test_adam_on_finite_numbers_gives_finite_numbers_or_a_named_refusal():
    from hypothesis import given, settings
    from hypothesis import strategies as st
    from hypothesis.extra import numpy as hnp

    @given(dtype=st.sampled_from([np.float16, np.float32, np.float64]), data=st.data(),
           lr=st.floats(1e-6, 1e30), steps=st.integers(1, 3))
    @settings(max_examples=200, deadline=None)
    def check(dtype, data, lr, steps):
        finite = st.floats(allow_nan=False, allow_infinity=False, width=np.finfo(dtype).bits)
        p = data.draw(hnp.arrays(dtype, 4, elements=finite))
        params, state = {"w": p.copy()}, {}
        for _ in range(steps):
            g = data.draw(hnp.arrays(dtype, 4, elements=finite))
            before = params["w"].copy(), {k: np.copy(v) for k, v in state.items()}
            try:
                with warnings_as_errors():
                    adam_step(params, {"w": g}, state, lr=lr)
            except ValueError as error:
                assert str(error).startswith(("grads['w']", "lr = "))
                np.testing.assert_array_equal(params["w"], before[0])
                assert all(np.array_equal(state[k], v) for k, v in before[1].items())
                return
            assert np.isfinite(params["w"]).all() and params["w"].dtype == dtype
            assert all(np.isfinite(v).all() for k, v in state.items() if k != "t")

    check()


def test_train_and_held_out_refuse_work_beyond_the_cap_before_allocating():
    from test_model import small_peak

    small_peak(lambda: train(init_model("none"), steps=10**9), ValueError,
               r"^steps = 1000000000, batch_size = 32 and lengths = \(4, 16\): a history of \(2 \* models "
               r"\+ 1\) \* steps = \(2 \* 1 \+ 1\) \* 1000000000, the work of a step")
    small_peak(lambda: train(init_model("none", seed=[0, 1]), steps=10**8, seed=[0, 1]), ValueError,
               r"^steps = 100000000, .* \(2 \* 2 \+ 1\) \* 100000000")
    small_peak(lambda: held_out_accuracy(init_model("none"), lengths=(2, 3000), n_items=1000),
               ValueError, r"^n_items = 1000 and lengths = \(2, 3000\): a held-out set of n_items \* "
               r"\(lengths\[0\] \+ \.\.\. \+ lengths\[1\]\) = 1000 \* \(2 \+ \.\.\. \+ 3000\) tokens")
    small_peak(lambda: held_out_accuracy(init_model("none"), lengths=(10**5, 10**5), n_items=1),
               ValueError, r"^n_items = 1 and lengths = \(100000, 100000\): .* forward\(\)'s work")
    small_peak(lambda: train(init_model("none"), lengths=(4, 10**6)), ValueError,
               r"^steps = 1500, batch_size = 32 and lengths = \(4, 1000000\)")
    small_peak(lambda: train(init_model("none"), batch_size=10**7), ValueError,
               r"^steps = 1500, batch_size = 10000000 and lengths = \(4, 16\)")
    small_peak(lambda: train(init_model("none"), lengths=(10**4, 10**5), check_every=10), ValueError,
               r"^steps = 1500, .* a held-out set of HELD_OUT_ITEMS \* ")


@pytest.mark.parametrize("returned, words", [
    (None, r"^task\(n_examples=32, length=\d+, seed=\.\.\.\) must return a pair \(tokens, labels\), got None"),
    ((np.zeros((32, 4), int),), r"must return a pair \(tokens, labels\), got \(array"),
    ("ab", r"must return a pair \(tokens, labels\), got 'ab'"),
])
def test_train_names_task_when_it_does_not_return_a_pair(returned, words):
    with pytest.raises(TypeError, match=words):
        train(init_model("none"), steps=2, task=lambda n_examples, length, seed: returned)
    with pytest.raises(TypeError, match=words.replace("32", "4")):
        held_out_accuracy(init_model("none"), lambda n_examples, length, seed: returned, n_items=4)


@pytest.mark.parametrize("call", [
    lambda: held_out_accuracy(init_model("none"), lengths=(1, 2)),
    lambda: train(init_model("none"), steps=50, lengths=(1, 2)),
])
def test_a_length_the_task_refuses_is_named_as_an_entry_of_lengths(call):
    with pytest.raises(ValueError, match=r"^the task refused length 1 \(lengths\[0\]\): task\(n_examples="
                                         r"\d+, length=1, seed=\.\.\.\) says: length must be an integer >= 2"):
        call()


@pytest.mark.parametrize("lengths", [b"ab", "ab", {3, 4}, {3: 4, 5: 6}, (4, 8, 16), np.array(5)])
def test_train_refuses_lengths_that_are_not_a_pair(lengths):
    with pytest.raises(TypeError, match=r"^lengths must be a pair \(shortest, longest\)"):
        train(init_model("none"), steps=2, lengths=lengths)
    with pytest.raises(TypeError, match=r"^lengths must be a pair"):
        held_out_accuracy(init_model("none"), lengths=lengths)
