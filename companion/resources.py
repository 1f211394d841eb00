"""The package's own files (fonts, icons, the client's precompressed copies), found the same way in
a source checkout, an editable install and a built wheel: through `importlib.resources`, never
by walking up from `__file__` to the repository (a wheel has no repository around it).

Everything the app reads at run time lives under `companion/` and is package data
(pyproject.toml's `[tool.setuptools.package-data]`); tests/test_wheel.py builds the wheel, installs
it into a fresh virtual environment and prints and serves from it.
"""

from __future__ import annotations

import atexit
import contextlib
from importlib import resources
from pathlib import Path

_extracted = contextlib.ExitStack()  # files of a zipped package, unpacked once, removed at exit
atexit.register(_extracted.close)


def path(relative: str) -> Path:
    """A file or folder of the package ("assets/fonts/DejaVuSans.ttf") as a real path: the file
    itself when the package is installed as files (wheel, editable, source tree), else a copy
    kept until the process ends."""
    ref = resources.files("companion")
    for part in relative.split("/"):
        ref = ref.joinpath(part)
    if isinstance(ref, Path):
        return ref
    return _extracted.enter_context(resources.as_file(ref))
