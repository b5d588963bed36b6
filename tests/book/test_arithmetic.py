"""The arithmetic pins of tools/paths.py (ARITHMETIC_ENV) hold where the
notebooks run: the Makefile exports them, and NumPy knows the names of the
code it is told to switch off."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

from tools.paths import ARITHMETIC_ENV, ROOT


def test_the_makefile_exports_the_pins():
    """Every recipe of the Makefile (make execute, make test...) runs with
    each pin, at its value, even when the caller's environment has none."""
    env = {k: v for k, v in os.environ.items() if k not in ARITHMETIC_ENV and not k.startswith("MAKE")}
    result = subprocess.run(["make", "--no-print-directory", "-s", "--eval", "print-env: ; @env",
                             "print-env"], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    seen = dict(line.split("=", 1) for line in result.stdout.splitlines() if "=" in line)
    assert {k: seen.get(k) for k in ARITHMETIC_ENV} == ARITHMETIC_ENV


@pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"),
                    reason="NumPy's x86-64 dispatch names exist only there")
def test_numpy_knows_the_avx512_code_it_is_told_to_switch_off():
    """On x86-64 the names are NumPy's own dispatch targets: a name NumPy did
    not build for (a NumPy that renamed its groups) would be ignored with an
    ImportWarning, and the AVX-512 code would run again where the CPU has it."""
    names = ARITHMETIC_ENV["NPY_DISABLE_CPU_FEATURES"].split()
    code = ("import numpy._core._multiarray_umath as m; "
            "print(' '.join(m.__cpu_dispatch__)); "
            "print(' '.join(k for k, on in m.__cpu_features__.items() if on)); "
            "print(m.__cpu_targets_info__['exp']['dd']['current'])")
    result = subprocess.run([sys.executable, "-W", "error::ImportWarning", "-c", code],
                            env={**os.environ, **ARITHMETIC_ENV}, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    dispatched, enabled, exp_f64 = (line.split() for line in result.stdout.splitlines())
    assert set(names) <= set(dispatched), (names, dispatched)
    assert not set(names) & set(enabled), enabled  # off, whatever the CPU
    assert exp_f64[0] in ("X86_V3", "baseline(X86_V2)"), exp_f64  # float64 exp: the AVX2 code or less


EXP_LOG_BITS = ("import hashlib, numpy as np; "
                "x = np.random.default_rng(0).uniform(-20, 20, 100_000); "
                "print(hashlib.sha256(np.exp(x).tobytes() + np.log(np.abs(x)).tobytes()).hexdigest())")


def _cpu_has_avx512():
    code = "import numpy._core._multiarray_umath as m; print(m.__cpu_features__.get('AVX512_SKX', False))"
    env = {k: v for k, v in os.environ.items() if k != "NPY_DISABLE_CPU_FEATURES"}
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True).stdout.strip() == "True"


@pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"),
                    reason="NumPy's x86-64 dispatch names exist only there")
def test_on_an_avx512_cpu_the_pin_changes_float64_exp_and_log():
    """Why the pin is there: where the CPU has AVX-512, NumPy's float64 exp
    and log round differently in their AVX-512 code than in their AVX2 code
    (seen on an AMD EPYC, 2026-12-04: the eight cells that printed another
    last digit, chapters 4 and 10 and the fast-tables appendix, print the
    stored digits with the pin and other digits without it)."""
    if not _cpu_has_avx512():
        pytest.skip("this CPU has no AVX-512: the pin changes nothing here")
    env = {k: v for k, v in os.environ.items() if k != "NPY_DISABLE_CPU_FEATURES"}
    bits = {}
    for pinned in (True, False):
        run_env = {**env, **ARITHMETIC_ENV} if pinned else env
        bits[pinned] = subprocess.run([sys.executable, "-c", EXP_LOG_BITS], env=run_env,
                                      capture_output=True, text=True, check=True).stdout
    assert bits[True] != bits[False]
