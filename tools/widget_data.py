"""Data for the interactive figure that shows what a chapter trained.

The reader's browser cannot train the chapter's models, so chapter 4's figure
(``numberline`` in ``book/_ext/static/widgets/figures/learned.js``) draws the
learned position tables that ``book/04_learned.ipynb`` trains. This tool
executes that notebook as ``make execute`` does (with the pinned arithmetic,
``tools.paths.ARITHMETIC_ENV``), without changing it, takes rows 0 to 23 of
every seed's trained table ``models["learned"][seed]["params"]["P"]`` from the
kernel, and writes them into the data block of ``learned.js``: float32 bytes
in base64 (little-endian, in lines of 76 characters), with the shape and the SHA-256 of the notebook's code cells.
``tests/book/test_widgets.py`` compares that hash with the notebook, so a
change to the chapter's code asks for this tool to be run again.

Usage: ``python -m tools.widget_data`` (about a minute: the notebook runs
whole once).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import re
import sys

import nbformat
from nbclient import NotebookClient

from tools import paths

NOTEBOOK = paths.BOOK / "04_learned.ipynb"
FIGURE = paths.ROOT / "book" / "_ext" / "static" / "widgets" / "figures" / "learned.js"
ROWS = 24  # rows 0-15 are trained (training lengths 4 to 16), 16-23 never

# run in the kernel after the notebook: the tables as float32 bytes
EXPORT = f"""
import base64 as _base64, json as _json
_tables = np.stack([m["params"]["P"][:{ROWS}] for m in models["learned"]])
assert _tables.dtype == np.float32, _tables.dtype
print("WIDGET-DATA" + _json.dumps({{"shape": list(_tables.shape),
      "float32": _base64.b64encode(_tables.astype("<f4").tobytes()).decode()}}))
"""

BLOCK = re.compile(r"(// BEGIN DATA[^\n]*\n)(.*?)(\n\s*// END DATA)", re.S)


def code_hash(path=NOTEBOOK):
    """SHA-256 of the notebook's code cells, in order: what the data depend on."""
    nb = nbformat.read(path, as_version=4)
    sources = [cell.source for cell in nb.cells if cell.cell_type == "code"]
    return hashlib.sha256("\n\0".join(sources).encode()).hexdigest()


def stored(path=FIGURE):
    """The data block of learned.js, as a dict (its JSON)."""
    match = BLOCK.search(path.read_text(encoding="utf-8"))
    if match is None:
        raise ValueError(f"{path} has no '// BEGIN DATA' ... '// END DATA' block")
    body = match.group(2).strip()
    return json.loads(body[body.index("{"):body.rindex("}") + 1])


def tables(path=FIGURE):
    """The stored tables, a float32 array of shape (seeds, rows, d_model)."""
    import numpy as np

    data = stored(path)
    flat = np.frombuffer(base64.b64decode("".join(data["float32"])), dtype="<f4")
    return flat.reshape(data["shape"])


def export(notebook=NOTEBOOK):
    os.environ.update(paths.ARITHMETIC_ENV)  # inherited by the kernel
    nb = nbformat.read(notebook, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(EXPORT))
    NotebookClient(nb, timeout=600, kernel_name="python3", record_timing=False,
                   resources={"metadata": {"path": str(notebook.parent)}}).execute()
    text = "".join(out.get("text", "") for out in nb.cells[-1].outputs)
    data = json.loads(text[text.index("WIDGET-DATA") + len("WIDGET-DATA"):])
    packed = data["float32"]  # in lines of 76 characters, as MIME does
    data["float32"] = [packed[i:i + 76] for i in range(0, len(packed), 76)]
    return {"notebook": notebook.relative_to(paths.ROOT).as_posix(),
            "code_sha256": code_hash(notebook), "what": "models['learned'][seed]['params']['P']"
            f"[:{ROWS}] for the 16 seeds", **data}


def write(data, path=FIGURE):
    text = path.read_text(encoding="utf-8")
    body = "  const DATA = " + json.dumps(data, indent=1).replace("\n", "\n  ") + ";"
    new, count = BLOCK.subn(lambda m: m.group(1) + body + m.group(3), text)
    if count != 1:
        raise ValueError(f"{path} needs one '// BEGIN DATA' ... '// END DATA' block")
    path.write_text(new, encoding="utf-8")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    data = export()
    write(data)
    print(f"wrote {data['shape']} float32 from {data['notebook']} into "
          f"{FIGURE.relative_to(paths.ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
