"""Tests of posenc.rope_frequencies (context extension) and rope(inv_freq=...).

The reference values in tests/fixtures/rope_scaling_reference.json were
computed with Hugging Face Transformers 5.24.0 and torch 2.13.0
(``ROPE_INIT_FUNCTIONS`` and ``LlamaRotaryEmbedding.compute_default_rope_parameters``),
the YaRN authors' rotary classes (github.com/jquesnelle/yarn) and Meta's
``apply_scaling`` (llama-models 0.3.0), by tools/make_rope_scaling_reference.py,
which records the versions in the file; these tests need none of them.
The references run in float32 and agree with posenc to
``RELATIVE_TOLERANCE`` (5e-6); Transformers' functions run once more in
float64 agree to 1e-14, which shows that the rest is float32's rounding.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from tools.paths import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

import posenc
from posenc import rope, rope_frequencies
from posenc.scaling import MAX_HEAD_DIM, RELATIVE_TOLERANCE, ROPE_TYPES

REFERENCE = json.loads((ROOT / "tests" / "fixtures" / "rope_scaling_reference.json").read_text())
CASES = REFERENCE["cases"]
MODELS = posenc.transformers_reference()  # posenc/data/models_reference.json
CONFIGS = MODELS["configs"]

LLAMA31 = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
           "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}


def scalings(factor, original=64):
    """One scaling dict of each type (beside "default"), with this factor."""
    return {
        "linear": {"rope_type": "linear", "factor": factor},
        "ntk": {"rope_type": "ntk", "factor": factor},
        "dynamic": {"rope_type": "dynamic", "factor": factor,
                    "original_max_position_embeddings": original},
        "yarn": {"rope_type": "yarn", "factor": factor,
                 "original_max_position_embeddings": original},
        "llama3": {"rope_type": "llama3", "factor": factor, "low_freq_factor": 1.0,
                   "high_freq_factor": 4.0, "original_max_position_embeddings": original},
    }


# --- the reference implementations ---------------------------------------------


def _kind(case):
    scaling = case["scaling"] or {"rope_type": "default"}
    return scaling.get("rope_type", scaling.get("type"))


def _relative_error(inv_freq, reference):
    return float(np.max(np.abs(inv_freq - reference["inv_freq"]) / np.abs(reference["inv_freq"])))


def test_fixture_covers_every_type_and_every_reference():
    sources = {_kind(c): set() for c in CASES}
    for c in CASES:
        sources[_kind(c)] |= {r["package"].split()[0] for r in c["references"]}
    # the types of Transformers 5 that no context-extension case has are in
    # the configuration classes of models_reference.json (and its LongRoPE)
    in_configs = {c["rope_parameters"]["rope_type"] for c in CONFIGS} | {"longrope"}
    assert set(sources) | in_configs == set(ROPE_TYPES)
    assert {"proportional", "axial"} <= in_configs
    for kind in ("default", "linear", "dynamic", "yarn", "llama3"):
        assert "transformers" in sources[kind], kind
    assert "jquesnelle/yarn" in sources["yarn"] and "jquesnelle/yarn" in sources["ntk"]
    assert "jquesnelle/yarn" in sources["dynamic"] and "llama-models" in sources["llama3"]


def test_fixture_records_the_versions_its_values_came_from():
    versions = REFERENCE["versions"]
    assert versions["transformers"] == "5.24.0" and versions["torch"].startswith("2.13.0")
    assert versions["llama-models"] == "0.3.0" and "jquesnelle/yarn" in versions["yarn"]
    for c in CASES:
        for r in c["references"]:
            package = r["package"]
            if package.startswith("transformers"):
                assert package == f"transformers {versions['transformers']}", package
            if package.startswith("llama-models"):
                assert package == f"llama-models {versions['llama-models']}", package
            assert r["dtype"] in ("float32", "float64")
        # every Transformers case is also run in float64
        dtypes = {r["dtype"] for r in c["references"] if r["package"].startswith("transformers")}
        assert dtypes in (set(), {"float32", "float64"}), c["name"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_the_reference_implementations(case):
    inv_freq, attention_factor = rope_frequencies(
        case["head_dim"], base=case["base"], scaling=case["scaling"], seq_len=case["seq_len"])
    assert inv_freq.shape == (case["head_dim"] // 2,)
    for ref in case["references"]:
        rtol = RELATIVE_TOLERANCE if ref["dtype"] == "float32" else 1e-14
        np.testing.assert_allclose(inv_freq, ref["inv_freq"], rtol=rtol, atol=0,
                                   err_msg=f"{case['name']} vs {ref['function']}")
        assert attention_factor == pytest.approx(ref["attention_factor"], rel=1e-14)


def test_the_gap_to_the_references_is_float32s_rounding():
    """As RELATIVE_TOLERANCE says: below 5e-7 in every case but one, YaRN with
    s = 64 untruncated (its float32 blend cancels), which the float64 run of
    the same Transformers function does not show."""
    errors = {}
    for case in CASES:
        inv_freq, _ = rope_frequencies(case["head_dim"], base=case["base"],
                                       scaling=case["scaling"], seq_len=case["seq_len"])
        for ref in case["references"]:
            errors[case["name"], ref["package"], ref["dtype"]] = _relative_error(inv_freq, ref)
    x64 = [e for (name, _, dtype), e in errors.items()
           if name == "llama2 yarn x64 untruncated" and dtype == "float32"]
    assert x64 and 1e-6 < max(x64) < RELATIVE_TOLERANCE
    others = [e for (name, _, dtype), e in errors.items()
              if name != "llama2 yarn x64 untruncated" and dtype == "float32"]
    assert 1e-8 < max(others) < 5e-7
    assert max(e for (_, _, dtype), e in errors.items() if dtype == "float64") < 1e-15


def test_the_fixture_can_fail():
    """A change that the references would notice is noticed at the tolerance."""
    case = next(c for c in CASES if c["name"] == "llama2 yarn x4")
    inv_freq, _ = rope_frequencies(128, scaling={**case["scaling"], "beta_fast": 31.0})
    for ref in case["references"]:
        assert not np.allclose(inv_freq, ref["inv_freq"], rtol=RELATIVE_TOLERANCE, atol=0)


def test_yarn_attention_factor_is_the_papers():
    for s in (2.0, 4.0, 16.0):
        _, a = rope_frequencies(8, scaling=scalings(s)["yarn"])
        assert a == pytest.approx(0.1 * math.log(s) + 1)
    _, a = rope_frequencies(8, scaling={**scalings(4.0)["yarn"], "attention_factor": 1.25})
    assert a == 1.25


# --- limiting cases ----------------------------------------------------------------


@pytest.mark.parametrize("head_dim", [4, 16, 128])
@pytest.mark.parametrize("kind", ["linear", "ntk", "dynamic", "yarn", "llama3"])
def test_factor_one_is_plain_rope(kind, head_dim):
    plain, one = rope_frequencies(head_dim, base=500.0)
    for seq_len in (None, 10, 64):  # up to the pretraining context of 64
        inv_freq, a = rope_frequencies(head_dim, base=500.0, scaling=scalings(1.0)[kind],
                                       seq_len=seq_len)
        np.testing.assert_allclose(inv_freq, plain, rtol=1e-15, atol=0)
        assert a == one == 1.0


def test_default_type_and_none_agree_with_the_frequency_ladder():
    for scaling in (None, {"rope_type": "default"}, {"type": "default"}):
        inv_freq, a = rope_frequencies(10, base=1e4, scaling=scaling)
        np.testing.assert_array_equal(inv_freq, posenc.frequencies(10))
        assert a == 1.0


def test_dynamic_changes_nothing_within_the_pretraining_context():
    plain, _ = rope_frequencies(32)
    for seq_len in (None, 1, 63, 64):
        inv_freq, _ = rope_frequencies(32, scaling=scalings(4.0)["dynamic"], seq_len=seq_len)
        np.testing.assert_array_equal(inv_freq, plain)


def test_dynamic_past_the_context_is_ntk_with_the_current_scale():
    """s(l) = s l / L - (s - 1): with factor 1 it still scales, by l / L."""
    for factor, seq_len in [(4.0, 256), (4.0, 100), (1.0, 128), (2.0, 64 * 2)]:
        inv_freq, _ = rope_frequencies(32, scaling=scalings(factor)["dynamic"], seq_len=seq_len)
        current = factor * seq_len / 64 - (factor - 1)
        ntk, _ = rope_frequencies(32, scaling={"rope_type": "ntk", "factor": current})
        np.testing.assert_allclose(inv_freq, ntk, rtol=1e-14)
    # with factor 1 the scale is exactly l / L: at l = 4 L it is fixed NTK x 4;
    # with factor 4 it is steeper, 4 * 4 - 3 = 13 at l = 4 L
    for factor, scale in [(1.0, 4.0), (4.0, 13.0)]:
        inv_freq, _ = rope_frequencies(32, scaling=scalings(factor)["dynamic"], seq_len=256)
        ntk = {"rope_type": "ntk", "factor": scale}
        np.testing.assert_allclose(inv_freq, rope_frequencies(32, scaling=ntk)[0], rtol=1e-14)


def test_ntk_keeps_the_fastest_pair_and_interpolates_the_slowest():
    plain, _ = rope_frequencies(64)
    ntk, _ = rope_frequencies(64, scaling=scalings(8.0)["ntk"])
    assert ntk[0] == plain[0] == 1.0
    assert ntk[-1] == pytest.approx(plain[-1] / 8, rel=1e-12)


def test_yarn_bands_follow_the_rotations_in_the_context():
    """Pairs turning more than beta_fast times in L keep their frequency, pairs
    turning fewer than beta_slow times are divided by s (Llama 2, s = 16)."""
    plain, _ = rope_frequencies(128)
    inv_freq, _ = rope_frequencies(128, scaling={"rope_type": "yarn", "factor": 16.0,
                                                  "original_max_position_embeddings": 4096})
    rotations = 4096 * plain / (2 * np.pi)
    fast, slow = rotations > 32 * 1.2, rotations < 1 / 1.2  # clear of the rounded edges
    assert fast.sum() > 10 and slow.sum() > 10
    np.testing.assert_allclose(inv_freq[fast], plain[fast], rtol=1e-15)
    np.testing.assert_allclose(inv_freq[slow], plain[slow] / 16, rtol=1e-14)


def test_llama31_bands():
    plain, _ = rope_frequencies(128, base=500000.0)
    inv_freq, _ = rope_frequencies(128, base=500000.0, scaling=LLAMA31)
    wavelength = 2 * np.pi / plain
    short, long = wavelength < 2048, wavelength > 8192
    middle = ~short & ~long
    np.testing.assert_array_equal(inv_freq[short], plain[short])
    np.testing.assert_allclose(inv_freq[long], plain[long] / 8, rtol=1e-15)
    assert middle.sum() > 0
    assert np.all((inv_freq[middle] < plain[middle]) & (inv_freq[middle] > plain[middle] / 8))


# --- the scale factor against wavelength --------------------------------------------


@settings(max_examples=60, deadline=None)
@given(kind=st.sampled_from(["linear", "ntk", "dynamic", "yarn", "llama3"]),
       half=st.integers(2, 80), base=st.floats(10.0, 1e6),
       factor=st.floats(1.0, 64.0), original=st.integers(4, 10000),
       seq_len=st.integers(1, 100000))
def test_scale_factor_grows_with_wavelength(kind, half, base, factor, original, seq_len):
    """theta_i / theta_i' is at least 1, at most the factor (the current one for
    dynamic) and never decreases from fast to slow pairs."""
    head_dim = 2 * half
    plain, _ = rope_frequencies(head_dim, base=base)
    inv_freq, a = rope_frequencies(head_dim, base=base, scaling=scalings(factor, original)[kind],
                                   seq_len=seq_len)
    scale = plain / inv_freq  # pairs in order of growing wavelength
    top = factor * max(seq_len, original) / original - (factor - 1) if kind == "dynamic" else factor
    assert np.all(scale >= 1 - 1e-12) and np.all(scale <= top * (1 + 1e-12))
    assert np.all(np.diff(scale) >= -1e-12 * scale[1:])
    assert a >= 1.0


# --- bad input --------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["linear", "ntk", "dynamic", "yarn", "llama3"])
def test_a_missing_key_is_named(kind):
    full = scalings(2.0)[kind]
    for key in full:
        if key == "rope_type":
            continue
        broken = {k: v for k, v in full.items() if k != key}
        with pytest.raises(ValueError, match=f"'{key}' is missing"):
            rope_frequencies(16, scaling=broken)


@pytest.mark.parametrize("kind", ["linear", "ntk", "dynamic", "yarn", "llama3"])
def test_a_factor_below_one_is_refused(kind):
    with pytest.raises(ValueError, match="'factor' must be at least 1.*got 0.5"):
        rope_frequencies(16, scaling=scalings(0.5)[kind])


@pytest.mark.parametrize(("scaling", "error", "words"), [
    ({"rope_type": "su", "factor": 2.0}, ValueError, "'rope_type' must be one of.*'longrope'.*'su'"),
    ({"rope_type": "Linear", "factor": 2.0}, ValueError, "'rope_type' must be one of"),
    ({"factor": 2.0}, ValueError, "'rope_type' is missing"),
    ({"rope_type": 3}, ValueError, "'rope_type' must be one of"),
    ({"rope_type": "linear", "factor": 2.0, "beta_fast": 32}, ValueError,
     "'beta_fast' is not used by rope_type 'linear'"),
    ({"rope_type": "linear", "factor": 2.0, "rope_theta": 1.0}, ValueError,
     "'rope_theta' must be greater than 1"),
    ({"rope_type": "linear", "factor": 2.0, "rope_theta": "1e4"}, TypeError,
     "'rope_theta' must be a real number"),
    ({"type": "yarn", "rope_type": "linear", "factor": 2.0}, ValueError,
     "'type' and 'rope_type' disagree: 'yarn' and 'linear'"),
    ({"rope_type": "linear", "factor": 2.0, "partial_rotary_factor": 1.5}, ValueError,
     "'partial_rotary_factor' must be in \\(0, 1\\]"),
    ({"rope_type": "linear", "factor": 2.0, "partial_rotary_factor": 0.2}, ValueError,
     r"rotated width int\(head_dim \* partial_rotary_factor\) = int\(16 \* 0.2\) = 3 must be even"),
    ({**scalings(2.0)["yarn"], "mscale": -1.0}, ValueError, "'mscale' must be in \\[0.0, inf\\)"),
    ({**scalings(2.0)["yarn"], "mscale_all_dim": "1"}, TypeError,
     "'mscale_all_dim' must be a real number"),
    ({"rope_type": "linear", "factor": "2"}, TypeError, "'factor' must be a real number"),
    ({"rope_type": "linear", "factor": float("nan")}, ValueError, "'factor' must be finite"),
    ({**scalings(2.0)["yarn"], "beta_fast": 1.0, "beta_slow": 2.0}, ValueError,
     "'beta_fast' must be greater than 'beta_slow'"),
    ({**scalings(2.0)["yarn"], "beta_slow": 0.0}, ValueError, "'beta_slow' must be positive"),
    ({**scalings(2.0)["yarn"], "truncate": "no"}, TypeError, "'truncate' must be True or False"),
    ({**scalings(2.0)["yarn"], "attention_factor": -1.0}, ValueError,
     "'attention_factor' must be positive"),
    ({**scalings(2.0)["yarn"], "original_max_position_embeddings": 40.5}, TypeError,
     "'original_max_position_embeddings' must be an integer"),
    ({**scalings(2.0)["llama3"], "high_freq_factor": 1.0}, ValueError,
     "'high_freq_factor' must be greater than 'low_freq_factor'"),
    ([("rope_type", "linear")], TypeError, "scaling must be None or a dict"),
])
def test_bad_scaling(scaling, error, words):
    with pytest.raises(error, match=words):
        rope_frequencies(16, scaling=scaling)


@pytest.mark.parametrize(("kwargs", "error", "words"), [
    ({"head_dim": 7}, ValueError, "head_dim must be even"),
    ({"head_dim": 0}, ValueError, "head_dim must be an integer >= 1"),
    ({"head_dim": 8.0}, TypeError, "head_dim must be an integer"),
    ({"head_dim": 2, "scaling": {"rope_type": "ntk", "factor": 2.0}}, ValueError,
     "head_dim must be at least 4"),
    ({"head_dim": 8, "base": 1.0}, ValueError, "base must be greater than 1"),
    ({"head_dim": 8, "base": "1e4"}, TypeError, "base must be a real number"),
    ({"head_dim": 8, "seq_len": 10.0}, TypeError, "seq_len must be an integer"),
    ({"head_dim": 8, "seq_len": 0}, ValueError, "seq_len must be an integer >= 1"),
])
def test_bad_arguments(kwargs, error, words):
    with pytest.raises(error, match=words):
        rope_frequencies(**kwargs)


def test_the_callers_dict_is_not_changed():
    scaling = {"type": "linear", "factor": 2.0}
    rope_frequencies(8, scaling=scaling)
    assert scaling == {"type": "linear", "factor": 2.0}


# --- the dicts a reader copies out of a Transformers config --------------------------
# (the fixture holds one of each, with Transformers' own values)


def test_type_beside_rope_type_is_read_when_they_agree():
    """Transformers 4's config classes (Qwen2Config...) keep both keys."""
    both = {"type": "yarn", "rope_type": "yarn", "factor": 4.0,
            "original_max_position_embeddings": 32768}
    only = {k: v for k, v in both.items() if k != "type"}
    for got, expected in zip(rope_frequencies(128, base=1e6, scaling=both),
                             rope_frequencies(128, base=1e6, scaling=only)):
        np.testing.assert_array_equal(got, expected)


def test_rope_parameters_carry_their_base():
    """Transformers 5's config.rope_parameters always has rope_theta."""
    llama31 = {**LLAMA31, "rope_theta": 500000.0}
    np.testing.assert_array_equal(rope_frequencies(128, scaling=llama31)[0],
                                  rope_frequencies(128, base=500000.0, scaling=LLAMA31)[0])
    plain = {"rope_type": "default", "rope_theta": 500000.0}
    np.testing.assert_array_equal(rope_frequencies(128, scaling=plain)[0],
                                  posenc.frequencies(128, base=500000.0))
    # the same base given twice is fine; two different ones are not
    np.testing.assert_array_equal(rope_frequencies(128, base=500000.0, scaling=plain)[0],
                                  posenc.frequencies(128, base=500000.0))
    with pytest.raises(ValueError, match="base=10000.0 disagrees with rope_scaling key "
                                         "'rope_theta'=500000.0"):
        rope_frequencies(128, base=10000.0, scaling=plain)
    assert rope_frequencies(8)[0][1] == 10000.0 ** -0.25  # no base anywhere: 10000


@pytest.mark.parametrize(("mscale", "mscale_all_dim", "expected"), [
    (1.0, 0.5, (0.1 * math.log(16) + 1) / (0.05 * math.log(16) + 1)),
    (0.707, 0.707, 1.0),  # DeepSeek-V2's config: the factor on cos and sin is 1
    (1.0, 1.0, 1.0),
    (0.707, None, 0.1 * math.log(16) + 1),  # one alone is ignored, as in Transformers
    (None, 1.0, 0.1 * math.log(16) + 1),
    (0.0, 1.0, 0.1 * math.log(16) + 1),  # a zero too
])
def test_yarn_mscale_and_mscale_all_dim(mscale, mscale_all_dim, expected):
    """attention factor = g(s, mscale) / g(s, mscale_all_dim), g(s, m) = 0.1 m ln s + 1."""
    scaling = scalings(16.0)["yarn"]
    if mscale is not None:
        scaling["mscale"] = mscale
    if mscale_all_dim is not None:
        scaling["mscale_all_dim"] = mscale_all_dim
    inv_freq, a = rope_frequencies(64, scaling=scaling)
    assert a == pytest.approx(expected, rel=1e-15)
    np.testing.assert_array_equal(inv_freq, rope_frequencies(64, scaling=scalings(16.0)["yarn"])[0])
    # an explicit attention_factor wins, as in Transformers
    _, a = rope_frequencies(64, scaling={**scaling, "attention_factor": 1.5})
    assert a == 1.5


def test_dynamic_without_its_context_says_what_to_pass():
    """Transformers takes the context of "dynamic" from max_position_embeddings."""
    with pytest.raises(ValueError, match="model config's max_position_embeddings"):
        rope_frequencies(128, scaling={"type": "dynamic", "factor": 2.0}, seq_len=8192)


# --- absurd settings: frequencies or a clear error ----------------------------------------


@pytest.mark.parametrize(("kwargs", "words"), [
    (dict(head_dim=4, scaling={"rope_type": "ntk", "factor": 1e200}), "'factor' is too large"),
    (dict(scaling=scalings(4.0, 4096)["dynamic"], seq_len=10**300), "seq_len must be an integer"),
    (dict(scaling={**scalings(1e300, 4096)["dynamic"]}, seq_len=2**53), "'factor' is too large"),
    (dict(scaling={**scalings(4.0)["yarn"], "beta_slow": 5e-324}), "'beta_slow' is out of range"),
    (dict(scaling={**scalings(4.0)["yarn"], "beta_fast": 1e308}), "'beta_fast' is out of range"),
    (dict(scaling=scalings(1e305)["yarn"]), "'factor' is too large"),
    (dict(scaling=scalings(1e307)["linear"]), "'factor' is too large"),
    (dict(scaling=scalings(1e307)["llama3"]), "'factor' is too large"),
    (dict(scaling={**scalings(1e300)["yarn"], "mscale": 1e308, "mscale_all_dim": 1.0}),
     "'mscale' and 'mscale_all_dim' are too large"),
])
def test_absurd_settings_are_refused_by_name(kwargs, words):
    kwargs = {"head_dim": 64, **kwargs}
    with pytest.raises(ValueError, match=words):
        rope_frequencies(**kwargs)


def test_a_huge_head_is_refused_by_name():
    # refused before anything is allocated (10**9 once took gigabytes)
    for head_dim in (10**9, MAX_HEAD_DIM + 2, 10**400):
        with pytest.raises(ValueError, match=f"head_dim must be at most {MAX_HEAD_DIM}"):
            rope_frequencies(head_dim)
    assert rope_frequencies(MAX_HEAD_DIM)[0].shape == (MAX_HEAD_DIM // 2,)


@settings(max_examples=40, deadline=None)
@given(factor=st.one_of(st.floats(1.0, 1e308), st.sampled_from([1e100, 1e300, 1.7e308])),
       original=st.integers(1, 2**53), data=st.data())
def test_dynamic_within_the_context_is_plain_rope_exactly(factor, original, data):
    seq_len = data.draw(st.integers(1, original))
    scaling = {"rope_type": "dynamic", "factor": factor,
               "original_max_position_embeddings": original}
    inv_freq, a = rope_frequencies(32, base=500.0, scaling=scaling, seq_len=seq_len)
    np.testing.assert_array_equal(inv_freq, posenc.frequencies(32, base=500.0))
    assert a == 1.0


HUGE_OR_TINY = st.one_of(
    st.floats(min_value=5e-324, max_value=1.7976931348623157e308),
    st.sampled_from([5e-324, 1e-300, 1.0, 1.0 + 2**-52, 32.0, 1e100, 1e300,
                     1.7976931348623157e308]))


@settings(max_examples=400, deadline=None)
@given(kind=st.sampled_from(["linear", "ntk", "dynamic", "yarn", "llama3"]),
       half=st.integers(1, 200), base=HUGE_OR_TINY, factor=HUGE_OR_TINY,
       original=st.one_of(st.integers(1, 2**53), st.sampled_from([1, 2**53])),
       seq_len=st.one_of(st.none(), st.integers(1, 2**53)),
       low=HUGE_OR_TINY, high=HUGE_OR_TINY, mscale=HUGE_OR_TINY, truncate=st.booleans())
def test_any_setting_gives_frequencies_or_a_clear_error(kind, half, base, factor, original,
                                                        seq_len, low, high, mscale, truncate):
    """Only a TypeError/ValueError that names the argument may escape; no
    OverflowError, no "math domain error", no warning, no 0 or inf."""
    scaling = scalings(factor, original)[kind]
    if kind == "yarn":
        scaling.update(beta_fast=high, beta_slow=low, truncate=truncate, mscale=mscale,
                       mscale_all_dim=low)
    if kind == "llama3":
        scaling.update(low_freq_factor=low, high_freq_factor=high)
    try:
        inv_freq, a = rope_frequencies(2 * half, base=base, scaling=scaling, seq_len=seq_len)
    except (TypeError, ValueError) as error:
        assert str(error).startswith(("head_dim ", "base ", "rope_scaling key")), error
        return
    assert inv_freq.shape == (half,) and inv_freq.dtype == np.float64
    assert np.all((inv_freq >= np.finfo(np.float64).tiny) & (inv_freq < np.inf))
    assert np.all(np.diff(inv_freq) <= 0) or kind in ("yarn", "llama3")
    assert math.isfinite(a) and a > 0


# --- rope with given frequencies, and its dtype ----------------------------------------


def test_rope_with_the_plain_ladder_is_rope():
    x = np.random.default_rng(0).normal(size=(2, 7, 12))
    for layout in ("interleaved", "halves"):
        np.testing.assert_array_equal(
            rope(x, layout=layout, inv_freq=rope_frequencies(12, base=500.0)[0]),
            rope(x, layout=layout, base=500.0))


def test_position_interpolation_is_rope_at_divided_positions():
    """theta / s at position m is theta at position m / s (Chen et al.)."""
    x = np.random.default_rng(1).normal(size=(9, 8))
    inv_freq, _ = rope_frequencies(8, scaling={"rope_type": "linear", "factor": 4.0})
    np.testing.assert_allclose(rope(x, np.arange(9), inv_freq=inv_freq),
                               rope(x, np.arange(9) / 4), atol=1e-12)


def test_rope_with_any_frequencies_keeps_scores_relative():
    rng = np.random.default_rng(2)
    q, k = rng.normal(size=(2, 1, 6))
    inv_freq = rope_frequencies(6, scaling=scalings(3.0)["yarn"])[0]

    def score(m, n):
        return (rope(q, [m], inv_freq=inv_freq) @ rope(k, [n], inv_freq=inv_freq).T).item()

    assert score(3, 10) == pytest.approx(score(103, 110), abs=1e-9)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_rope_keeps_a_floating_dtype(dtype):
    x = np.random.default_rng(3).normal(size=(5, 8))
    out = rope(x.astype(dtype), np.arange(5) * 100)
    assert out.dtype == dtype
    exact = rope(x.astype(dtype).astype(np.float64), np.arange(5) * 100)
    np.testing.assert_allclose(out, exact, rtol=0, atol=2 * np.finfo(dtype).eps * 4)


def test_rope_of_integers_is_float64():
    assert rope(np.ones((3, 4), dtype=np.int32)).dtype == np.float64


@pytest.mark.parametrize(("call", "error", "words"), [
    (lambda: rope(np.ones((3, 4)), inv_freq=[1.0]), ValueError, "d // 2 = 2"),
    (lambda: rope(np.ones((3, 4)), inv_freq=[[1.0, 0.1]]), ValueError, "inv_freq must have 1"),
    (lambda: rope(np.ones((3, 4)), inv_freq=[1.0, np.nan]), ValueError, "inv_freq must contain"),
    (lambda: rope(np.ones((3, 4)), inv_freq=["1", "0.1"]), TypeError, "inv_freq must hold real"),
    (lambda: rope(np.ones((3, 4)), base=100.0, inv_freq=[1.0, 0.1]), ValueError,
     "either base or inv_freq"),
    (lambda: rope(np.ones((3, 2)), ["0", "1", "2"]), TypeError, "positions must hold real"),
    (lambda: rope(np.ones((3, 2), dtype=bool)), TypeError, "x must hold real"),
    (lambda: rope([["a", "b"]]), TypeError, "x must hold real"),
])
def test_rope_bad_frequencies_and_types(call, error, words):
    with pytest.raises(error, match=words):
        call()


# --- every configuration class of Transformers 5.24.0 (models_reference.json) ------------

# The cases that posenc does not match, and why (the chapter "Positions in the
# models you use" says the same): "refused" with the words of the refusal, or
# "differs" where the family's code computes something its rope dict does not
# say. Every other case must be equal.
UNMATCHED = {
    # the family's code, not its dict, decides
    "PixtralVisionConfig": ("differs", "2-D: rows take the even pairs of the whole head's "
                                       "ladder, columns the odd ones"),
    "MiniMaxM3VLVisionConfig": ("differs", "3-D: the ladder of a third of the head"),
    "EomtDinov3Config": ("differs", "2-D ladder of half the head under rope_type 'default'"),
    "Ernie4_5_VLMoeTextConfig": ("differs", "the ladder reordered for its 3-D forward pass"),
    # defaults that no released model uses, refused by name
    "EfficientLoFTRConfig": ("refused", "pass that width as head_dim instead"),
    "Glm4MoeConfig": ("refused", r"int\(42 \* 0.5\) = 21 must be even"),
    "Glm4vMoeTextConfig": ("refused", r"int\(42 \* 0.5\) = 21 must be even"),
    "Qwen3OmniMoeTextConfig": ("refused", "head_dim must be even"),
    # a key that changes no frequency: refused, with where it belongs
    "Ministral3Config": ("refused", "'llama_4_scaling_beta' is not used.*scales the queries"),
    "Mistral4Config": ("refused", "'llama_4_scaling_beta' is not used.*scales the queries"),
}


def _config_id(case):
    return case["config_class"] + (f"-{case['layer_type']}" if case["layer_type"] else "")


def test_models_fixture_records_its_versions_and_every_kind_of_case():
    assert MODELS["versions"]["transformers"] == "5.24.0"
    assert MODELS["versions"]["torch"].startswith("2.14.1")
    assert len({_config_id(c) for c in CONFIGS}) == len(CONFIGS)  # each class once
    assert set(UNMATCHED) <= {c["config_class"] for c in CONFIGS}
    kinds = {c["rope_parameters"]["rope_type"] for c in CONFIGS}
    assert kinds == {"default", "axial", "proportional", "yarn", "llama3"}
    assert any("partial_rotary_factor" in c["rope_parameters"] for c in CONFIGS)
    assert any(c["layer_type"] for c in CONFIGS)  # nested by layer type (Gemma 3...)
    assert {c["dtype"] for c in CONFIGS} == {"float32"}


@pytest.mark.parametrize("case", CONFIGS, ids=[_config_id(c) for c in CONFIGS])
def test_every_configuration_class_as_a_user_passes_it(case):
    """The config's rope dict and head width, passed as they are: equal to the
    family's own inv_freq and attention scaling, or one of UNMATCHED."""
    kind, words = UNMATCHED.get(case["config_class"], ("equal", None))
    call = dict(head_dim=case["head_dim"], scaling=case["rope_parameters"])
    if kind == "refused":
        with pytest.raises(ValueError, match=words):
            rope_frequencies(**call)
        return
    inv_freq, attention_factor = rope_frequencies(**call)
    same = inv_freq.shape == (len(case["inv_freq"]),) and np.allclose(
        inv_freq, case["inv_freq"], rtol=RELATIVE_TOLERANCE, atol=0)
    assert same == (kind == "equal"), case["rotary_class"]
    assert attention_factor == pytest.approx(case["attention_factor"], rel=1e-6)


def test_the_unmatched_families_differ_as_stated():
    by_class = {c["config_class"]: c for c in CONFIGS}
    pixtral = by_class["PixtralVisionConfig"]
    whole, _ = rope_frequencies(pixtral["head_dim"], base=pixtral["rope_parameters"]["rope_theta"])
    np.testing.assert_allclose(pixtral["inv_freq"], np.r_[whole[0::2], whole[1::2]], rtol=5e-7)
    dino = by_class["EomtDinov3Config"]
    axial = {**dino["rope_parameters"], "rope_type": "axial"}
    np.testing.assert_allclose(rope_frequencies(dino["head_dim"], scaling=axial)[0],
                               dino["inv_freq"], rtol=5e-7)
    ernie = by_class["Ernie4_5_VLMoeTextConfig"]
    plain, _ = rope_frequencies(ernie["head_dim"], scaling=ernie["rope_parameters"])
    np.testing.assert_allclose(np.sort(ernie["inv_freq"]), np.sort(plain), rtol=5e-7)
    minimax = by_class["MiniMaxM3VLVisionConfig"]
    third = 2 * (minimax["head_dim"] // 3 // 2)  # the spatial width of each of 3 axes
    np.testing.assert_allclose(posenc.frequencies(third, base=10000.0), minimax["inv_freq"],
                               rtol=5e-7)


def test_partial_rotary_gives_the_frequencies_of_the_rotated_width():
    """GPT-NeoX rotates a quarter of each head: the ladder of that width."""
    for head_dim, factor in [(96, 0.25), (80, 0.4), (80, 0.25), (192, 0.334)]:
        inv_freq, _ = rope_frequencies(head_dim, scaling={"rope_type": "default",
                                                          "partial_rotary_factor": factor})
        np.testing.assert_array_equal(inv_freq, posenc.frequencies(int(head_dim * factor)))
    yarn = {**scalings(4.0)["yarn"], "partial_rotary_factor": 0.5}
    np.testing.assert_array_equal(rope_frequencies(64, scaling=yarn)[0],
                                  rope_frequencies(32, scaling=scalings(4.0)["yarn"])[0])
    assert rope_frequencies(64, scaling={**yarn, "partial_rotary_factor": 1.0})[0].shape == (32,)


def test_none_counts_as_absent():
    """Transformers reads a None value as the key's default (issue 40, LOW 5)."""
    with_none = {**scalings(4.0)["yarn"], "beta_fast": None, "beta_slow": None,
                 "attention_factor": None, "partial_rotary_factor": None}
    for got, expected in zip(rope_frequencies(64, scaling=with_none),
                             rope_frequencies(64, scaling=scalings(4.0)["yarn"])):
        np.testing.assert_array_equal(got, expected)
    with pytest.raises(ValueError, match="'factor' is missing"):
        rope_frequencies(64, scaling={**scalings(4.0)["yarn"], "factor": None})


def test_proportional_rotates_a_fraction_and_gives_the_rest_zero():
    """Gemma 4: the exponent is 2i / head_dim, the other pairs have frequency 0."""
    gemma4 = {"rope_type": "proportional", "partial_rotary_factor": 0.25, "rope_theta": 1e6}
    inv_freq, a = rope_frequencies(512, scaling=gemma4)
    assert inv_freq.shape == (256,) and a == 1.0
    np.testing.assert_array_equal(inv_freq[:64], posenc.frequencies(512, base=1e6)[:64])
    assert np.all(inv_freq[64:] == 0)
    halved, _ = rope_frequencies(512, scaling={**gemma4, "factor": 2.0})
    np.testing.assert_array_equal(halved, inv_freq / 2)


def test_axial_is_the_ladder_of_half_the_head_that_rope_2d_turns():
    inv_freq, _ = rope_frequencies(64, scaling={"rope_type": "axial", "rope_theta": 100.0})
    np.testing.assert_array_equal(inv_freq, posenc.frequencies(32, base=100.0))
    x = np.random.default_rng(0).normal(size=(3, 64))
    where = np.array([[0, 0], [1, 2], [3, 1]])
    by_hand = np.concatenate([rope(x[:, :32], where[:, 1], inv_freq=inv_freq),
                              rope(x[:, 32:], where[:, 0], inv_freq=inv_freq)], axis=1)
    np.testing.assert_allclose(posenc.rope_2d(x, where, base=100.0), by_hand, atol=1e-12)
    with pytest.raises(ValueError, match="must be a multiple of 4 for rope_type 'axial'"):
        rope_frequencies(66, scaling={"rope_type": "axial"})


def test_mrope_section_is_checked_and_changes_no_frequency():
    qwen2_vl = {"rope_type": "default", "rope_theta": 1e6, "mrope_section": [16, 24, 24]}
    np.testing.assert_array_equal(rope_frequencies(128, scaling=qwen2_vl)[0],
                                  posenc.frequencies(128, base=1e6))
    with pytest.raises(ValueError, match="must split the 64 rotated pairs.*add up to 60"):
        rope_frequencies(128, scaling={**qwen2_vl, "mrope_section": [16, 24, 20]})
    with pytest.raises(TypeError, match="'mrope_section' must be a list of whole numbers"):
        rope_frequencies(128, scaling={**qwen2_vl, "mrope_section": 64})


def test_max_position_embeddings_gives_or_checks_the_factor():
    """Mistral's yarn dicts keep max_position_embeddings beside the factor."""
    yarn = {**scalings(16.0, 4096)["yarn"], "max_position_embeddings": 65536}
    np.testing.assert_array_equal(rope_frequencies(64, scaling=yarn)[0],
                                  rope_frequencies(64, scaling=scalings(16.0, 4096)["yarn"])[0])
    with pytest.raises(ValueError, match=r"'factor' \(8\) and 'max_position_embeddings'"):
        rope_frequencies(64, scaling={**yarn, "factor": 8.0})
    with pytest.raises(ValueError, match="'max_position_embeddings' is not used by rope_type "
                                         "'linear'"):
        rope_frequencies(64, scaling={"rope_type": "linear", "factor": 2.0,
                                      "max_position_embeddings": 8})


def test_a_key_that_changes_no_frequency_is_refused_with_where_it_belongs():
    ministral = {**scalings(16.0, 16384)["yarn"], "llama_4_scaling_beta": 0.1}
    with pytest.raises(ValueError, match="Llama 4's attention temperature; leave it out here"):
        rope_frequencies(128, scaling=ministral)
    with pytest.raises(ValueError, match="\\(Phi-3's old name for 'longrope'\\)"):
        rope_frequencies(128, scaling={"rope_type": "su"})


# --- LongRoPE: Phi-3 (models_reference.json) -----------------------------------------------

PHI3 = MODELS["longrope"]


def _phi3(**extra):
    return {**PHI3["rope_parameters"], **extra}


def test_longrope_is_phi3s_short_and_long_ladders():
    """Up to the original length the short factors, past it the long ones."""
    scaling = _phi3(max_position_embeddings=PHI3["config"]["max_position_embeddings"])
    L = PHI3["config"]["original_max_position_embeddings"]
    for seq_len, expected in [(None, "short_inv_freq"), (L, "short_inv_freq"),
                              (L + 1, "long_inv_freq")]:
        inv_freq, a = rope_frequencies(96, scaling=scaling, seq_len=seq_len)
        np.testing.assert_allclose(inv_freq, PHI3[expected], rtol=RELATIVE_TOLERANCE, atol=0)
        assert a == pytest.approx(PHI3["attention_factor"], rel=1e-12)
    # the forward pass switches as soon as a position id reaches L
    for step in PHI3["switch"]:
        expected = PHI3["long_inv_freq" if step["seq_len"] > L else "short_inv_freq"]
        np.testing.assert_array_equal(step["inv_freq"], expected)
    # the factor itself instead of the two lengths
    factor = PHI3["config"]["max_position_embeddings"] / L
    np.testing.assert_array_equal(rope_frequencies(96, scaling=_phi3(factor=factor))[0],
                                  rope_frequencies(96, scaling=scaling)[0])
    assert rope_frequencies(96, scaling=_phi3(attention_factor=1.0))[1] == 1.0


def test_longrope_needs_one_factor_per_pair_and_a_factor():
    with pytest.raises(ValueError, match="'short_factor' must hold one factor per rotated pair, "
                                         "48 for a rotated width of 96, got 47"):
        rope_frequencies(96, scaling=_phi3(factor=32.0, short_factor=PHI3["rope_parameters"][
            "short_factor"][:-1]))
    with pytest.raises(ValueError, match="'factor' is missing.*max_position_embeddings / "
                                         "original_max_position_embeddings"):
        rope_frequencies(96, scaling=_phi3())
    with pytest.raises(ValueError, match="'long_factor' must hold positive numbers"):
        rope_frequencies(96, scaling=_phi3(factor=32.0, long_factor=[0.0] * 48))
    with pytest.raises(TypeError, match="'long_factor' must be a list of numbers"):
        rope_frequencies(96, scaling=_phi3(factor=32.0, long_factor=2.0))


# --- the two blends, on a grid of settings (issue 39) ---------------------------------
# tests/fixtures/rope_scaling_sweep.json: Transformers 5.24.0's float32 frequencies of
# YaRN and Llama 3.1's rule for 288 settings (tools/make_rope_scaling_reference.py --sweep)

SWEEP = json.loads((ROOT / "tests" / "fixtures" / "rope_scaling_sweep.json").read_text())
BLEND_TOLERANCE_PER_FACTOR = 2e-7
"""The blends agree with Transformers to this times the factor s, relative.

Both blend a kept and an interpolated frequency, (1 - w) theta / s + w theta,
with a weight w that float32 computes to about 1e-7; where w is small the
result is about theta / s, and w's error, relative to it, is multiplied by up
to s. Over the sweep the gap reaches 1.24e-7 s (Llama 3.1's rule) and
0.88e-7 s (YaRN): up to 7.4e-6 at s = 128, beyond RELATIVE_TOLERANCE.
"""


def test_the_blends_agree_with_transformers_to_a_bound_that_grows_with_the_factor():
    per_factor, largest = {}, {}
    for case in SWEEP["cases"]:
        reference = np.array(case["inv_freq"], dtype=np.float32).astype(np.float64)
        inv_freq, _ = rope_frequencies(case["head_dim"], base=case["base"],
                                       scaling=case["scaling"])
        gap = np.max(np.abs(inv_freq - reference) / reference)
        s, kind = case["scaling"]["factor"], case["scaling"]["rope_type"]
        assert gap <= BLEND_TOLERANCE_PER_FACTOR * s, (case["scaling"], gap)
        per_factor[kind] = max(per_factor.get(kind, 0.0), gap / s)
        largest[kind] = max(largest.get(kind, 0.0), gap)
    assert set(per_factor) == {"yarn", "llama3"} and len(SWEEP["cases"]) == 288
    # the bound is not loose: the worst case of each blend reaches 40% of it
    assert min(per_factor.values()) > 0.4 * BLEND_TOLERANCE_PER_FACTOR
    # and a bound that does not grow with s would not hold: YaRN passes 5e-6
    assert largest["yarn"] > RELATIVE_TOLERANCE > largest["llama3"] > 4e-6
