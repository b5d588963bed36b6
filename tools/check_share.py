"""How much of each public function's body is argument checking (issue 41, item 2).

    python -m tools.check_share [--root DIR] [module ...]   # default: every module of posenc

For every public function of a module (its ``__all__``), the code lines of
its body (no docstring, no blank or comment-only lines) are split into check
lines and the rest. A statement is a check when it is

* a ``raise``, or an ``if``/``elif`` branch that ends in one (the test and
  the branch), or a ``try`` whose ``except`` clauses raise;
* a call (alone, assigned, or in a tuple or generator) of ``_checks.*``, of
  a ``_validate_*`` or ``_check*`` function, or of one of ``HELPERS``: the
  package's private helpers that only check and convert an argument.

A ``with np.errstate(...)`` block and a ``for`` loop count by their content.
The report gives, per module and in total, the check lines, the code lines
and their ratio. The tool reads the source; it imports nothing.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Private helpers that only check (and convert) an argument, by name.
HELPERS = {
    "_grid", "_sections", "_segment", "_heads", "_values", "_matrices", "_check_tokens",
    "_float_array", "_fit", "_boolean_mask", "_grid_task_sizes", "_base", "float_format",
}

MODULES = ["sinusoidal", "text", "attention", "rotary", "scaling", "relative", "positions2d",
           "by_hand", "tables", "tasks", "precision", "stats", "schemes", "model", "backward",
           "training"]


def _called(node):
    """The dotted name of what ``node`` calls, or None."""
    if not isinstance(node, ast.Call):
        return None
    f = node.func
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
        return f"{f.value.id}.{f.attr}"
    if isinstance(f, ast.Name):
        return f.id
    return None


def _is_check_call(node):
    """True if ``node`` is a call of a check, possibly inside a tuple or a generator."""
    for sub in ast.walk(node):
        name = _called(sub)
        if name and (name.startswith("_checks.") or name in HELPERS
                     or name.split(".")[-1].startswith(("_validate", "_check"))):
            return True
    return False


def _ends_in_raise(body):
    return bool(body) and isinstance(body[-1], ast.Raise)


def _lines(node, code):
    """The code lines that ``node`` spans."""
    return {n for n in range(node.lineno, node.end_lineno + 1) if n in code}


def _check_lines(statements, code):
    """The check lines among ``statements`` (see the module's docstring)."""
    found = set()
    for st in statements:
        if isinstance(st, ast.Raise):
            found |= _lines(st, code)
        elif isinstance(st, ast.If):
            node = st
            while True:  # the if, then each elif, then the else
                first = node.lineno if node is st else node.test.lineno  # "elif" is on the test's line
                if _ends_in_raise(node.body):
                    found |= {n for n in range(first, node.body[-1].end_lineno + 1) if n in code}
                else:
                    found |= _check_lines(node.body, code)
                if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
                    node = node.orelse[0]
                    continue
                if _ends_in_raise(node.orelse):  # "else:" sits on the line before its body
                    found |= {n for n in range(node.orelse[0].lineno - 1, node.orelse[-1].end_lineno + 1)
                              if n in code}
                else:
                    found |= _check_lines(node.orelse, code)
                break
        elif isinstance(st, ast.Try) and st.handlers and all(_ends_in_raise(h.body) for h in st.handlers):
            found |= _lines(st, code)
        elif isinstance(st, (ast.With, ast.For)):
            found |= _check_lines(st.body, code)
        elif isinstance(st, (ast.Assign, ast.AnnAssign, ast.Expr, ast.Return)) and st.value is not None:
            if _is_check_call(st.value):
                found |= _lines(st, code)
    return found


def measure(path):
    """``{function: (check lines, code lines)}`` for the public functions of the module at ``path``."""
    source = path.read_text()
    tree = ast.parse(source)
    public = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
            public = set(ast.literal_eval(node.value))
    text = source.splitlines()
    result = {}
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or node.name not in public:
            continue
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]  # the docstring
        if not body:
            continue
        span = range(body[0].lineno, node.end_lineno + 1)
        code = {n for n in span if text[n - 1].strip() and not text[n - 1].strip().startswith("#")}
        result[node.name] = (len(_check_lines(body, code)), len(code))
    return result


def main(argv):
    root = ROOT
    if argv[:1] == ["--root"]:  # another checkout, for a before-and-after comparison
        root, argv = Path(argv[1]), argv[2:]
    modules = argv or MODULES
    total_checks = total_code = 0
    print(f"{'module':<12} {'checks':>6} {'code':>6} {'share':>6}")
    for name in modules:
        path = root / "posenc" / f"{name}.py"
        if not path.exists():
            continue
        counts = measure(path)
        checks = sum(c for c, _ in counts.values())
        code = sum(n for _, n in counts.values())
        total_checks, total_code = total_checks + checks, total_code + code
        print(f"{name:<12} {checks:>6} {code:>6} {checks / max(code, 1):>6.0%}")
    print(f"{'total':<12} {total_checks:>6} {total_code:>6} {total_checks / max(total_code, 1):>6.0%}")


if __name__ == "__main__":
    main(sys.argv[1:])
