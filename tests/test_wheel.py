"""The app as a user installs it: the built wheel, in a fresh virtual environment, run from outside
the source tree, prints with its own font and serves its own page (issue 32.1).

No network and no new downloads: the wheel is built without build isolation by the test venv's
setuptools, and the fresh venv borrows the test venv's third-party packages through a .pth line
(a path line only: the editable install's own .pth hook there is not run, so `companion` can come
from nowhere but the wheel). System fonts are hidden from Pillow (XDG_DATA_DIRS, HOME), which
otherwise quietly takes a font of the same name from /usr/share/fonts when the package lacks it.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"  # a copy: building in the tree would leave build/ and *.egg-info in it
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(ROOT / "companion", src / "companion",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    out = tmp / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--no-index", "-w", str(out), str(src)], check=True, timeout=120)
    (wheel,) = out.glob("tabletop_companion-*.whl")
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=60)
    py = venv / "bin" / "python"
    site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    (site / "borrowed.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--quiet", "--no-deps",
                    "--no-index", str(wheel)], check=True, timeout=120)
    home = tmp / "home"  # no fonts, no data, no cache of the user's: everything from the package
    (home / "empty").mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "XDG_", "COMPANION_"))}
    env.update(HOME=str(home), XDG_DATA_DIRS=str(home / "empty"), PYTHONNOUSERSITE="1")
    return {"wheel": wheel, "venv": venv, "site": site, "home": home, "env": env}  # type: ignore[dict-item]


def test_the_wheel_carries_the_files_the_app_reads(installed: dict) -> None:
    names = set(zipfile.ZipFile(installed["wheel"]).namelist())
    for f in ("companion/assets/fonts/DejaVuSans.ttf", "companion/assets/fonts/DejaVuSans-Bold.ttf",
              "companion/assets/fonts/DejaVuSerif-Bold.ttf", "companion/assets/web/favicon.png",
              "companion/assets/web/icons/icon-192.png", "companion/i18n/locale/de/LC_MESSAGES/companion.po"):
        assert f in names, f


def test_the_installed_app_prints_with_its_own_font(installed: dict) -> None:
    venv, env, cwd = installed["venv"], installed["env"], installed["home"]
    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c",
         "import companion; from companion.printing import fonts; "
         "print(companion.__file__); print(fonts.font('sans', 12).path); print(fonts.font('serif', 12).path)"],
        cwd=cwd, env=env, check=True, capture_output=True, text=True, timeout=60).stdout.split()
    package = installed["site"].resolve() / "companion"
    for f in where:
        assert Path(f).resolve().is_relative_to(package), (f, "not the installed package's own file")
    args = ["print", "quovadis", "--deck", "laurels", "--dpi", "60", "--workers", "1", "-o"]
    out = cwd / "quovadis.pdf"
    run = subprocess.run([str(venv / "bin" / "companion"), *args, str(out)],
                         cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    check = subprocess.run([str(venv / "bin" / "companion"), "print", "--all", "--check"],
                           cwd=cwd, env=env, capture_output=True, text=True, timeout=60)
    assert check.returncode == 2 and "installed copy" in check.stderr  # --all is for a source checkout
    from companion.printing.cli import main as print_main

    # the same pages, byte for byte, as the source tree draws them with the tree's font
    assert print_main([*args, str(cwd / "tree.pdf")]) == 0
    assert out.read_bytes() == (cwd / "tree.pdf").read_bytes()


def test_the_installed_app_serves_its_page(installed: dict) -> None:
    venv, env, cwd = installed["venv"], installed["env"], installed["home"]
    port = _free_port()
    proc = subprocess.Popen([str(venv / "bin" / "companion", ), "--host", "127.0.0.1", "--port", str(port),
                             "--no-browser", "--data-dir", str(cwd / "data")],
                            cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(base + "/health", timeout=5) as r:
                    health = r.read()
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"the installed server did not start: {proc.stderr.read() if proc.stderr else ''}"
                                         ) from None
                time.sleep(0.3)
        assert health
        with urllib.request.urlopen(base + "/", timeout=20) as r:
            assert r.status == 200 and b"<html" in r.read().lower()
        with urllib.request.urlopen(base + "/favicon.png", timeout=20) as r:  # our icon, from the package
            assert r.read() == (ROOT / "companion" / "assets" / "web" / "favicon.png").read_bytes()
        # no printables/ beside an installed package: the host's download is rendered, the same file
        with urllib.request.urlopen(base + "/print/registration-a4.pdf", timeout=60) as r:
            assert r.read() == (ROOT / "printables" / "registration-a4.pdf").read_bytes()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_without_printables_the_english_download_is_rendered_and_cached(tmp_path: Path, monkeypatch) -> None:
    """An installed wheel has no printables/ folder: the host's download is the same file, made on demand."""
    from companion.printing import printables

    committed = (printables.PRINTABLES / "registration-a4.pdf").read_bytes()
    monkeypatch.setattr(printables, "PRINTABLES", tmp_path / "no-printables")
    assert printables.localized("registration-a4", "en", tmp_path / "cache") == committed
    assert [p.name.startswith("registration-a4-en-") for p in (tmp_path / "cache").iterdir()] == [True]
