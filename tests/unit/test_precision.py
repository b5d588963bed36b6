"""Tests of posenc.precision: rounding to float16, bfloat16 and float32.

``round_to`` is one rule for every format (the nearest multiple of the
format's spacing, ties to even). It is checked bit for bit against three
independent references:

* NumPy's own float16 and float32 conversions, on every float16 bit pattern,
  on every tie between two float16 numbers and on random float64 values;
* the ``ml_dtypes`` package's bfloat16 (pinned in requirements.txt for these
  tests; posenc does not need it), on every bfloat16 bit pattern, on every
  tie between two bfloat16 numbers, on one step either side of each tie and
  on a million random float32 values;
* exact rational arithmetic (``fractions.Fraction``) for float64 input and
  for integers beyond float64's 53 bits, which round_to rounds once (a round
  through float32 first, as PyTorch does, would round twice).
"""

from __future__ import annotations

import fractions

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import FORMATS, FloatFormat, float_bits, float_format, frequencies, round_to
from posenc import rope_angles, rope_cos_sin

BF16 = ml_dtypes.bfloat16


def same_bits(a, b):
    """Equal as float64 bit patterns, except that any NaN equals any NaN."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    both_nan = np.isnan(a) & np.isnan(b)
    return bool(np.all(both_nan | (a.view(np.uint64) == b.view(np.uint64))))


def bf16_from_bits(patterns):
    """bfloat16 bit patterns -> their values, as the upper half of a float32."""
    u = np.asarray(patterns, dtype=np.uint32) << 16
    with np.errstate(invalid="ignore"):  # signalling NaNs become quiet ones
        return u.view(np.float32).astype(np.float64)


ALL_BF16 = np.arange(1 << 16, dtype=np.uint32)
with np.errstate(invalid="ignore"):
    ALL_FP16 = np.arange(1 << 16, dtype=np.uint16).view(np.float16).astype(np.float64)


# --- the formats --------------------------------------------------------------


@pytest.mark.parametrize("name", ["float16", "float32", "float64"])
def test_formats_match_numpy_finfo(name):
    f, info = FORMATS[name], np.finfo(name)
    assert f.fraction_bits == info.nmant and f.exponent_bits == info.nexp
    assert f.max == float(info.max) and f.eps == float(info.eps)
    assert 2.0**f.emin == float(info.smallest_normal) and f.emax == info.maxexp - 1


def test_bfloat16_format_matches_ml_dtypes():
    f, info = FORMATS["bfloat16"], ml_dtypes.finfo(BF16)
    assert (f.exponent_bits, f.fraction_bits, f.precision) == (8, 7, 8)
    assert f.max == float(info.max) and f.eps == float(info.eps)
    assert 2.0**f.emin == float(info.smallest_normal)
    assert f.largest_exact_integer == 256


def test_float_format_accepts_names_and_dtypes_and_refuses_the_rest():
    assert float_format(np.float16) is FORMATS["float16"]
    assert float_format("bfloat16") is FORMATS["bfloat16"]
    assert float_format(FORMATS["float32"]) is FORMATS["float32"]
    for bad in ["bf16", np.int32, 3, None]:
        with pytest.raises(ValueError, match="fmt must be one of 'float64'"):
            float_format(bad)


# --- float16 against NumPy ----------------------------------------------------


def test_every_float16_is_kept_bit_for_bit():
    assert same_bits(round_to(ALL_FP16, "float16"), ALL_FP16)
    assert same_bits(round_to(ALL_FP16, np.float16), ALL_FP16)


def test_float16_ties_and_their_neighbours_match_numpy():
    finite = np.sort(np.unique(ALL_FP16[np.isfinite(ALL_FP16)]))
    mid = (finite[:-1] + finite[1:]) / 2  # exact in float64: one more bit
    x = np.concatenate([mid, np.nextafter(mid, -np.inf), np.nextafter(mid, np.inf),
                        [65519.99, 65520.0, 65535.0, 1e6, -65520.0, 2.0**-25, 2.0**-26]])
    with np.errstate(over="ignore"):
        expected = x.astype(np.float16).astype(np.float64)
    assert same_bits(round_to(x, "float16"), expected)
    # a tie goes to the neighbour whose last bit is 0
    got = round_to(mid, "float16").astype(np.float16).view(np.uint16)
    assert np.all(got % 2 == 0)


@pytest.mark.parametrize("fmt", ["float16", "float32"])
def test_random_float64_match_numpy(fmt):
    rng = np.random.default_rng(17)
    x = np.concatenate([
        rng.normal(size=200_000) * 10.0 ** rng.integers(-45, 40, size=200_000),
        rng.uniform(-70000, 70000, size=100_000),
        [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, 3.5e38, -3.5e38]])
    with np.errstate(over="ignore"):
        expected = x.astype(fmt).astype(np.float64)
    assert same_bits(round_to(x, fmt), expected)


# --- bfloat16 against its bit layout and against ml_dtypes ---------------------


def test_every_bfloat16_is_kept_bit_for_bit():
    values = bf16_from_bits(ALL_BF16)
    assert same_bits(round_to(values, "bfloat16"), values)


def test_bfloat16_ties_go_to_even_bit_for_bit():
    # the float32 exactly halfway between bfloat16 patterns b and b + 1 is
    # b << 16 | 0x8000; it must round to whichever of b, b + 1 is even
    finite = ALL_BF16[np.isfinite(bf16_from_bits(ALL_BF16))]
    finite = finite[(finite & 0x7FFF) != 0x7F7F]  # not the largest: its next is inf
    mid = ((finite << 16) | 0x8000).view(np.float32).astype(np.float64)
    even = finite + (finite & 1)
    assert same_bits(round_to(mid, "bfloat16"), bf16_from_bits(even))
    # one float32 step either side of the tie: no tie any more
    below = ((finite << 16) | 0x7FFF).view(np.float32).astype(np.float64)
    above = ((finite << 16) | 0x8001).view(np.float32).astype(np.float64)
    assert same_bits(round_to(below, "bfloat16"), bf16_from_bits(finite))
    assert same_bits(round_to(above, "bfloat16"), bf16_from_bits(finite + 1))


def test_bfloat16_overflow_and_specials():
    top = FORMATS["bfloat16"].max  # 0x7F7F
    step = 2.0 ** (127 - 7)
    x = [top, top + step / 2 - 2.0**100, top + step / 2, -(top + step / 2), np.inf, np.nan, -0.0]
    got = round_to(x, "bfloat16")
    assert same_bits(got, [top, top, np.inf, -np.inf, np.inf, np.nan, -0.0])


def test_bfloat16_matches_ml_dtypes_on_float32_input():
    values = bf16_from_bits(ALL_BF16)
    patterns = ALL_BF16.astype(np.uint32) << 16
    near_ties = np.concatenate([patterns | low for low in (0x7FFF, 0x8000, 0x8001, 0x0001, 0xFFFF)])
    rng = np.random.default_rng(17)
    random32 = rng.integers(0, 1 << 32, size=1_000_000, dtype=np.uint64).astype(np.uint32)
    with np.errstate(invalid="ignore"):  # signalling NaNs become quiet ones
        x = np.concatenate([values.astype(np.float32), near_ties.view(np.float32),
                            random32.view(np.float32)])
        reference = x.astype(BF16).astype(np.float64)
        x = x.astype(np.float64)
    assert same_bits(round_to(x, "bfloat16"), reference)


def test_float64_input_is_rounded_once():
    # 1 + 2**-8 is the tie between 1 and 1 + 2**-7; a little above it the
    # nearest bfloat16 is 1 + 2**-7. A round through float32 first (PyTorch's
    # way, and ml_dtypes' before 0.7) drops the 2**-30 and then breaks the
    # tie to 1. Checked against exact arithmetic, whatever ml_dtypes does.
    x = 1 + 2.0**-8 + 2.0**-30
    assert round_to(x, "bfloat16") == exact_round(x, FORMATS["bfloat16"]) == 1 + 2.0**-7
    assert round_to(round_to(x, "float32"), "bfloat16") == 1.0


def test_large_integers_are_rounded_exactly():
    """Integers beyond 2**53 are rounded from the integer, not from its float64."""
    n = 2**60 + 2**36 + 1  # float64 would make it 2**60 + 2**36, a float32 tie
    assert round_to(np.int64(n), "float32") == float(np.int64(n).astype(np.float32))
    assert round_to(np.int64(n), "float32") == 2.0**60 + 2.0**37
    rng = np.random.default_rng(5)
    ints = rng.integers(-(2**63), 2**63 - 1, size=20_000, dtype=np.int64)
    ints = np.r_[ints, np.int64(-(2**63)), 2**63 - 1, 2**53 + 1, -(2**53) - 1, 2**53]
    np.testing.assert_array_equal(round_to(ints, "float32"), ints.astype(np.float32))
    for value in [n, -n, 2**63 + 2**39 + 1, 2**64 - 1, 3 * 2**100 + 1, 2**1000 + 1]:
        for fmt in ["float64", "float32", "bfloat16", "float16", FloatFormat("E5M2", 5, 2)]:
            f = float_format(fmt)
            expected = exact_round(value, f)
            assert round_to(value, fmt) == expected, (value, f.name)
            assert round_to([value, 1], fmt)[0] == expected  # Python ints in a list too
    unsigned = np.array([2**64 - 1, 2**63 + 2**39 + 1, 5], dtype=np.uint64)
    assert list(round_to(unsigned, "float32")) == list(unsigned.astype(np.float32))
    assert round_to(np.array([[n, 3]]), "bfloat16").shape == (1, 2)
    with pytest.raises(ValueError, match="x holds a number too large for float64"):
        round_to(3 * 2**1023, "float32")  # as any number beyond float64


def test_a_signalling_nan_passes_without_a_warning():
    # repository-wide, warnings are errors: numpy's "invalid value in cast" would fail here
    for word, dtype in [(0x7F800001, np.uint32), (0x7FA00000, np.uint32)]:
        snan = np.array([word], dtype=dtype).view(np.float32)
        assert np.isnan(round_to(snan, "bfloat16")).all()
        assert np.isnan(round_to(snan[0], "float16"))
        assert float_bits(snan[0], "float32") == "0 11111111 10000000000000000000000"
    snan16 = np.array([0x7C01], dtype=np.uint16).view(np.float16)
    assert np.isnan(round_to(snan16, "float32")).all()


def exact_round(x, f):
    """The nearest number of format f to x, ties to even, in rational arithmetic."""
    x = fractions.Fraction(x)
    if x == 0:
        return 0.0
    e = f.emin
    while abs(x) >= fractions.Fraction(2) ** (e + 1):
        e += 1
    q = fractions.Fraction(2) ** (e - f.fraction_bits)
    k, r = divmod(x / q, 1)
    if r > fractions.Fraction(1, 2) or (r == fractions.Fraction(1, 2) and k % 2 == 1):
        k += 1
    y = k * q
    return float(y) if abs(y) <= f.max else float(np.copysign(np.inf, float(x)))


@settings(max_examples=300, deadline=None)
@given(x=st.floats(allow_nan=False, allow_infinity=False, min_value=-1e39, max_value=1e39),
       fmt=st.sampled_from(["bfloat16", "float16", "float32"]))
def test_round_to_is_the_exact_nearest(x, fmt):
    assert float(round_to(x, fmt)) == exact_round(x, FORMATS[fmt])


def test_round_to_refuses_bad_input():
    with pytest.raises(TypeError, match="x must hold real numbers"):
        round_to([1 + 2j], "bfloat16")
    with pytest.raises(TypeError, match="x must be array-like of numbers"):
        round_to("one", "bfloat16")
    with pytest.raises(ValueError, match="fmt must be one of"):
        round_to(1.0, "float8")


# --- float_bits ---------------------------------------------------------------


def test_float_bits_agree_with_the_memory_layout():
    for x in [1.0, -2.5, 257.0, 65504.0, 1e-6]:
        word = int(np.float16(x).view(np.uint16))
        assert float_bits(x, "float16").replace(" ", "") == format(word, "016b")
        word = int(np.float32(x).astype(BF16).view(np.uint16))
        assert float_bits(x, "bfloat16").replace(" ", "") == format(word, "016b")
        word = int(np.float32(x).view(np.uint32))
        assert float_bits(x, "float32").replace(" ", "") == format(word, "032b")
    assert float_bits(1.0, "bfloat16") == "0 01111111 0000000"
    with pytest.raises(TypeError, match="x must be a real number"):
        float_bits([1.0], "bfloat16")
    with pytest.raises(ValueError, match="fmt must be one of"):
        float_bits(1.0, "half")


def test_float_bits_on_every_pattern_of_float16_and_bfloat16():
    # every 7th pattern covers zeros, subnormals, normals, both signs; NaNs
    # compare as "some NaN" (float_bits writes the quiet NaN)
    patterns = np.r_[np.arange(0, 1 << 16, 7), 0x7C00, 0xFC00, 0x8000, 0x0001, 0x7BFF]
    for word in patterns.astype(np.uint16):
        value = float(word.view(np.float16))
        if np.isnan(value):
            continue
        assert float_bits(value, "float16").replace(" ", "") == format(int(word), "016b")
        value = float(bf16_from_bits(int(word)))
        if not np.isnan(value):
            assert float_bits(value, "bfloat16").replace(" ", "") == format(int(word), "016b")
    assert float_bits(np.nan, "float16") == "0 11111 1000000000"


E5M2 = FloatFormat("E5M2", 5, 2)


def test_a_format_of_ones_own_matches_ml_dtypes_float8_e5m2():
    assert (E5M2.max, E5M2.emin, E5M2.precision) == (57344.0, -14, 3)
    info = ml_dtypes.finfo(ml_dtypes.float8_e5m2)
    assert E5M2.max == float(info.max) and 2.0**E5M2.emin == float(info.smallest_normal)
    with np.errstate(invalid="ignore"):
        values = np.arange(256, dtype=np.uint8).view(ml_dtypes.float8_e5m2).astype(np.float64)
    finite = np.sort(np.unique(values[np.isfinite(values)]))
    assert same_bits(round_to(finite, E5M2), finite)  # every number is kept
    # ties between neighbours, one step either side, and past the largest
    # (in float32, which ml_dtypes rounds from: every probe is a float32 number)
    ties = ((finite[:-1] + finite[1:]) / 2).astype(np.float32)
    probe = np.r_[ties, np.nextafter(ties, np.float32(-np.inf)),
                  np.nextafter(ties, np.float32(np.inf)),
                  np.float32([61439.0, 61440.0, 1e6, -61440.0])]
    expected = probe.astype(ml_dtypes.float8_e5m2).astype(np.float64)
    assert same_bits(round_to(probe.astype(np.float64), E5M2), expected)
    for x in [57344.0, -1.5, 2.0**-16, 0.0, np.inf]:
        word = int(np.float32(x).astype(ml_dtypes.float8_e5m2).view(np.uint8))
        assert float_bits(x, E5M2).replace(" ", "") == format(word, "08b")


def test_float_format_refuses_bad_bit_counts():
    for bad in [1, 12]:
        with pytest.raises(ValueError, match="exponent_bits must be from 2 to 11 .*, got"):
            FloatFormat("x", bad, 3)
    for bad in [0, 53]:
        with pytest.raises(ValueError, match="fraction_bits must be from 1 to 52 .*, got"):
            FloatFormat("x", 5, bad)
    with pytest.raises(TypeError, match="fraction_bits must be an integer"):
        FloatFormat("x", 5, 2.0)
    with pytest.raises(TypeError, match="name must be a string"):
        FloatFormat(None, 5, 2)
    assert float_format(E5M2) is E5M2 and type(FloatFormat("x", np.int64(5), 2).exponent_bits) is int


# --- RoPE angles and tables ---------------------------------------------------


def test_float64_angles_are_the_plain_outer_product():
    m = np.arange(0, 200000, 37)
    np.testing.assert_array_equal(rope_angles(m, 64, base=500000.0),
                                  np.outer(m, frequencies(64, base=500000.0)))


def test_float32_angles_are_numpy_float32_products():
    m = np.arange(0, 1 << 17, 3)
    theta32 = frequencies(128).astype(np.float32)
    expected = np.outer(m.astype(np.float32), theta32)  # float32 products
    assert expected.dtype == np.float32
    np.testing.assert_array_equal(rope_angles(m, 128, compute="float32"), expected)


def test_float16_angles_are_numpy_float16_products():
    m = np.arange(0, 70000, 7)
    theta16 = frequencies(32).astype(np.float16)
    with np.errstate(over="ignore"):
        expected = np.outer(m.astype(np.float16), theta16)
    got = rope_angles(m, 32, compute=np.float16)
    assert same_bits(got, expected.astype(np.float64))
    assert np.isinf(got[m > 65519]).all() and np.isfinite(got[m <= 65519]).all()


def test_bfloat16_angles_match_ml_dtypes_arithmetic():
    m = np.arange(0, 1 << 17, 5)
    theta = frequencies(128).astype(np.float32).astype(BF16)
    expected = m.astype(np.float32).astype(BF16)[:, None] * theta[None, :]  # bf16 product
    assert expected.dtype == BF16
    got = rope_angles(m, 128, compute="bfloat16")
    assert same_bits(got, expected.astype(np.float64))
    # positions 1500 (a tie between 1496 and 1504) and 1505: both become 1504
    assert m[300] == 1500 and got[300, 0] == got[301, 0] == 1504.0


def test_formats_can_be_mixed():
    m = np.array([257.0, 65535.0])
    # positions in bfloat16, the rest in float32: 257 becomes 256, 65535 becomes 65536
    a = rope_angles(m, 4, compute="float32", position_format="bfloat16")
    np.testing.assert_array_equal(a[:, 0], [256.0, 65536.0])
    # frequencies in bfloat16 only: theta_1 = 0.01 is stored as 0.010009765625
    a = rope_angles(m, 4, compute="float64", frequency_format="bfloat16")
    assert a[0, 1] == 257 * 0.010009765625


def test_cos_sin_tables():
    m = np.arange(0, 70000, 11)
    cos, sin = rope_cos_sin(m, 16)
    angles = np.outer(m, frequencies(16))
    np.testing.assert_array_equal(cos, np.cos(angles))
    np.testing.assert_array_equal(sin, np.sin(angles))
    # stored in bfloat16: every entry a bfloat16 number, within half a step
    c16, s16 = rope_cos_sin(m, 16, cache="bfloat16")
    assert same_bits(c16, round_to(cos, "bfloat16"))
    assert np.abs(s16 - sin).max() <= 2.0**-9
    # in float32: within a float32 step or so of NumPy's float32 cosine
    c32, _ = rope_cos_sin(m, 16, compute="float32")
    numpy32 = np.cos(rope_angles(m, 16, compute="float32").astype(np.float32))
    assert np.abs(c32 - numpy32).max() <= 2.0**-23
    # float16 positions past 65519 are infinite: no cosine
    c, s = rope_cos_sin(m, 16, compute="float16")
    assert np.isnan(c[m > 65519]).all() and np.isfinite(s[m <= 65519]).all()


def test_an_infinite_position_times_a_zero_frequency_is_nan_silently():
    # base 1e10: the slowest float16 frequencies round to 0; position 70000
    # is infinite in float16; inf * 0 is NaN in IEEE arithmetic, no warning
    angles = rope_angles([70000], 64, base=1e10, compute="float16")
    theta16 = round_to(frequencies(64, base=1e10), "float16")
    assert np.any(theta16 == 0) and np.any(theta16 > 0)
    assert np.isnan(angles[0, theta16 == 0]).all() and np.isposinf(angles[0, theta16 > 0]).all()
    cos, sin = rope_cos_sin([70000], 64, base=1e10, compute="float16")
    assert np.isnan(cos).all() and np.isnan(sin).all()


@pytest.mark.parametrize("odd", ["", 0, False, []])
@pytest.mark.parametrize("name", ["position_format", "frequency_format"])
def test_a_falsy_format_is_refused_not_taken_for_compute(name, odd):
    with pytest.raises(ValueError, match=f"{name} must be one of"):
        rope_angles([1, 2], 8, compute="float32", **{name: odd})


def test_rope_helpers_refuse_bad_input():
    with pytest.raises(ValueError, match="head_dim must be even"):
        rope_angles([1, 2], 7)
    with pytest.raises(TypeError, match="head_dim must be an integer"):
        rope_angles([1, 2], 8.0)
    with pytest.raises(ValueError, match="positions must have 1 dimension"):
        rope_angles([[1, 2]], 8)
    with pytest.raises(ValueError, match="positions must contain only finite"):
        rope_angles([1, np.nan], 8)
    with pytest.raises(ValueError, match="compute must be one of"):
        rope_angles([1, 2], 8, compute="int8")
    with pytest.raises(ValueError, match="position_format must be one of"):
        rope_angles([1, 2], 8, position_format="bf16")
    for base in (-1.0, 0.5, 1.0):  # at base <= 1 the frequencies no longer fall
        with pytest.raises(ValueError, match="base must be greater than 1"):
            rope_angles([1, 2], 8, base=base)
    with pytest.raises(ValueError, match="cache must be one of"):
        rope_cos_sin([1, 2], 8, cache="fp8")


@pytest.mark.parametrize("name", [float("nan"), {"a": 1}, np.array(["fmt"]), None, 3])
def test_float_format_takes_only_a_str_as_the_name_of_its_argument(name):
    # issue 40, LOW 3: NaN, a dict or an array was accepted as the name
    with pytest.raises(TypeError, match="^name must be a str"):
        float_format("bfloat16", name=name)
