"""Exercises and their solutions, as a reader meets them.

- Each exercise's and solution's content gets an id of its own
  (sphinx-exercise gives them all ``exercise-content`` or
  ``solution-content``: an id used twice on a page).
- nbgrader's ``# BEGIN SOLUTION`` / ``# END SOLUTION`` lines are left out of
  the code shown in the HTML (the notebooks keep them).
- A solution's title holds no link (a tap anywhere on it opens the solution);
  the link back to the exercise ends the solution.

(``static/posenc-site.js`` names each solution toggle after its solution,
"Solution to Exercise 2.1 (...)", instead of "Toggle hidden content".)
"""

from __future__ import annotations

import re

from docutils import nodes

# nbgrader's solution markers, as the book writes them (README, "Writing an exercise").
SOLUTION_MARKER = re.compile(r"^[ \t]*#+[ \t]*(BEGIN|END) SOLUTION[ \t]*$")


def strip_solution_markers(code):
    """Code without nbgrader's ``# BEGIN SOLUTION`` / ``# END SOLUTION`` lines.

    >>> strip_solution_markers("x = 1\\n# BEGIN SOLUTION\\ny = 2\\n    # END SOLUTION")
    'x = 1\\ny = 2'
    """
    return "\n".join(line for line in code.split("\n") if not SOLUTION_MARKER.match(line))


def _in_code_cell(node):
    parent = node.parent
    while parent is not None:
        if isinstance(parent, nodes.container) and "cell_input" in parent.get("classes", []):
            return True
        parent = parent.parent
    return False


def untangle_solution_title(solution):
    """A solution's title as plain text, its link to the exercise moved into the solution.

    sphinx-exercise titles a solution "Solution to <a>Exercise 7.1 (...)</a>":
    on a phone the link covers most of the title, so a tap meant to open the
    solution jumped back to the exercise instead. The title keeps the words
    and becomes, all of it, the toggle's target; the solution ends with a
    "Back to Exercise 7.1" link.
    """
    title = solution.next_node(nodes.title)
    if title is None:
        return
    for ref in list(title.findall(nodes.reference)):
        label = re.sub(r"\s*\(.*$", "", ref.astext()).strip()  # "Exercise 7.1"
        ref.replace_self(ref.children)
        back = nodes.reference("", "", *([nodes.Text(f"Back to {label}")] if label else []),
                               **{k: ref[k] for k in ("refid", "refuri", "internal") if k in ref})
        solution += nodes.paragraph("", "", back, classes=["posenc-backlink"])


def tidy_exercises(app, doctree, docname):
    """Unique ids for exercise and solution content; no nbgrader markers in code
    cells; solution titles without a link in them."""
    from sphinx_exercise.nodes import solution_node  # noqa: PLC0415

    for solution in doctree.findall(solution_node):
        untangle_solution_title(solution)
    for section in doctree.findall(nodes.section):
        ids = section.get("ids", [])
        if ids in (["exercise-content"], ["solution-content"]) and section.parent is not None:
            owner = (section.parent.get("ids") or [docname])[0]
            section["ids"] = [nodes.make_id(f"{owner}-content")]
    for block in list(doctree.findall(nodes.literal_block)):
        text = block.astext()
        if _in_code_cell(block) and any(SOLUTION_MARKER.match(line) for line in text.split("\n")):
            new = strip_solution_markers(text)
            block.children = []
            block += nodes.Text(new)
            block.rawsource = new


def setup(app):
    app.connect("doctree-resolved", tidy_exercises)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
