"""The book builds strictly, and every page of the table of contents is in it."""

from __future__ import annotations

from tools.paths import ROOT, toc_files


def test_book_builds_strictly(built_book):
    assert (built_book / "index.html").is_file()
    for name in toc_files():
        page = built_book / (name + ".html")
        assert page.is_file(), f"{name} is in _toc.yml but {page.relative_to(ROOT)} was not built"


def test_index_redirects_to_the_landing_page(built_book):
    assert "book/intro.html" in (built_book / "index.html").read_text()


def test_api_page_documents_every_public_function_and_no_checker(built_book):
    import re

    import posenc
    import posenc.exercises
    import posenc.plot

    ids = set(re.findall(r'id="(posenc\.[\w.]+)"', (built_book / "book" / "api.html").read_text()))
    expected = {f"{module.__name__}.{name}" for module in (posenc, posenc.plot, posenc.stats, posenc.schemes)
                for name in module.__all__ if callable(getattr(module, name))}  # functions, not constants or modules
    assert len(expected) > 30
    assert expected - ids == set(), "public functions missing from the API page"
    # a checker's docstring says what a correct answer must satisfy: not on a page students read
    checkers = {name for name in dir(posenc.exercises) if name.startswith("check_")}
    assert checkers, "posenc.exercises has no checkers?"
    leaked = {i for i in ids if i.rsplit(".", 1)[-1] in checkers}
    assert leaked == set(), f"exercise checkers documented on the API page: {sorted(leaked)}"


def test_the_site_is_published_only_after_make_test_passes():
    import yaml

    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "pages.yml").read_text())
    steps = workflow["jobs"]["build"]["steps"]
    runs = [step.get("run", "") for step in steps]
    uses = [step.get("uses", "") for step in steps]
    test = next(i for i, run in enumerate(runs) if run.strip() == "make test")
    upload = next(i for i, use in enumerate(uses) if use.startswith("actions/upload-pages-artifact"))
    assert test < upload, "pages.yml uploads the site before `make test` has passed"
    browser = next(i for i, run in enumerate(runs) if run.strip() == "make browser-check")
    assert test < browser < upload, "pages.yml uploads the site before `make browser-check` has passed"
    assert not any(run.strip() == "make book" for run in runs), "the published site must be the tested one"
    assert workflow["jobs"]["deploy"]["needs"] == "build"
