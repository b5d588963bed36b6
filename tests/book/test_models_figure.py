"""Chapter 9's interactive figure, every setting: its numbers are posenc's.

tests/book/test_widgets.py drives the figure in a browser and checks the
settings its slider moves reach; this test runs the figure's own
JavaScript (in the build's V8, as the build does) at every model and every
length, so that no entry of its table of configs can drift from
posenc.transformers_reference().
"""

from __future__ import annotations

import json

import pytest

from book._ext import posenc_widgets
from tests.book.widget_checks.models import check_models


@pytest.fixture(scope="module")
def figure():
    renderer = posenc_widgets.renderer()
    controls = json.loads(renderer.ctx.eval(
        "JSON.stringify(PosencWidgets.widgets.models.controls)"))
    return renderer, {c["name"]: c["values"] for c in controls}


def test_every_model_at_every_length_is_posencs(figure):
    renderer, values = figure
    checked = 0
    for model in values["model"]:
        for length in values["length"]:
            params = json.dumps({"model": model, "length": length})
            v = json.loads(renderer.ctx.eval(
                f"JSON.stringify(PosencWidgets.widgets.models.compute({params}))"))
            check_models(v)
            checked += 1
    assert checked == len(values["model"]) * len(values["length"]) >= 14 * 7


def test_the_figure_draws_a_text_alternative_for_every_model(figure):
    renderer, values = figure
    for model in values["model"]:
        params = json.dumps({"model": model, "length": 4097})
        out = json.loads(renderer.ctx.eval(
            "JSON.stringify((() => { const w = PosencWidgets.widgets.models; "
            f"return w.draw({params}, w.compute({params}), 320); }})())"))
        assert out["svg"].startswith("<svg") and "pairs" in out["alt"]
        assert "of" in out["summary"] and "NaN" not in out["summary"] + out["alt"]
