"""The project's own tools: notebook tools, classroom editions, style checks, the PDF, benchmarks.

Run them as modules from the repository's root, for example
``python -m tools.nbtools execute book/01_why.ipynb``; the Makefile does.
The tests import them as ``from tools import nbtools``.
"""
