"""Big boot files are gzipped by zopfli (`pigz -11`) when it is installed (companion/web.py): the same
Content-Encoding for the browser, a smaller body, its own ETag; zlib's copy until it is ready."""

from __future__ import annotations

import asyncio
import gzip
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import companion.web as web
from companion.web import ZOPFLI_MIN, StaticCompression

FAKE_PIGZ = """#!{python}
import gzip, sys
# stands in for `pigz -11 -n -c FILE`: a valid gzip, told apart by its header's OS byte
data = bytearray(gzip.compress(open(sys.argv[-1], "rb").read(), compresslevel=9, mtime=0))
data[9] = 0x42
sys.stdout.buffer.write(bytes(data))
"""


def get(mw: StaticCompression, path: str) -> tuple[int, dict[bytes, bytes], bytes]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request"}

    async def send(m: dict[str, Any]) -> None:
        sent.append(m)

    scope = {"type": "http", "method": "GET", "path": path, "headers": [(b"accept-encoding", b"gzip")]}
    asyncio.run(mw(scope, receive, send))
    return sent[0]["status"], dict(sent[0]["headers"]), sent[1]["body"]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    r = tmp_path / "web"
    r.mkdir()
    rnd = random.Random(7)
    words = [bytes(rnd.choice(b"abcdefghij") for _ in range(rnd.randint(2, 9))) for _ in range(500)]
    (r / "big.wasm").write_bytes(b" ".join(rnd.choice(words) for _ in range(ZOPFLI_MIN // 4)))
    (r / "small.js").write_bytes(b"var x = 1;\n" * 2000)
    return r


def make(root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pigz: bool = True) -> StaticCompression:
    fake = tmp_path / "pigz"
    fake.write_text(FAKE_PIGZ.format(python=sys.executable))
    fake.chmod(0o755)
    real_which = shutil.which
    monkeypatch.setattr(web.shutil, "which", lambda name: (str(fake) if pigz else None) if name == "pigz"
                        else real_which(name))
    monkeypatch.setattr(web, "ZOPFLI_FILES", ("big.wasm", "small.js"))
    return StaticCompression(lambda *a: None, [root], tmp_path / "cache", encodings=["gzip"])  # type: ignore[arg-type, return-value]


def test_zlib_gzip_until_the_zopfli_copy_is_made_then_that_one(root: Path, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COMPANION_ZOPFLI", raising=False)
    mw = make(root, tmp_path, monkeypatch)
    assert mw.zopfli
    status, hs, body = get(mw, "/big.wasm")
    assert status == 200 and hs[b"content-encoding"] == b"gzip" and hs[b"etag"].endswith(b'-gzip"')
    assert body[9] != 0x42  # zlib's own copy: no zopfli work on a request
    zlib_tag = hs[b"etag"]
    assert gzip.decompress(body) == (root / "big.wasm").read_bytes()
    mw._warm(["big.wasm", "small.js"])  # what the start-up thread does (it waits for each job)
    assert not list((tmp_path / "cache").rglob("*.busy")) and not list((tmp_path / "cache").rglob("*tmp"))
    status, hs, body = get(mw, "/big.wasm")
    assert hs[b"content-encoding"] == b"gzip" and hs[b"etag"].endswith(b'-zopfli"')
    assert body[9] == 0x42 and gzip.decompress(body) == (root / "big.wasm").read_bytes()
    assert int(hs[b"content-length"]) == len(body)
    _, hs, body = get(mw, "/small.js")  # under 256 kB: zlib only
    assert hs[b"etag"].endswith(b'-gzip"') and body[9] != 0x42
    # a phone holding the zlib copy of the same file revalidates it: 304, it keeps its copy
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request"}

    async def send(m: dict[str, Any]) -> None:
        sent.append(m)
    scope = {"type": "http", "method": "GET", "path": "/big.wasm",
             "headers": [(b"accept-encoding", b"gzip"), (b"if-none-match", zlib_tag)]}
    asyncio.run(mw(scope, receive, send))
    assert sent[0]["status"] == 304 and dict(sent[0]["headers"])[b"etag"] == zlib_tag


def test_no_zopfli_without_pigz_or_when_switched_off(root: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    assert not make(root, tmp_path, monkeypatch, pigz=False).zopfli
    monkeypatch.setenv("COMPANION_ZOPFLI", "0")
    mw = make(root, tmp_path, monkeypatch)
    assert not mw.zopfli
    mw._warm(["big.wasm"])
    _, hs, body = get(mw, "/big.wasm")
    assert hs[b"etag"].endswith(b'-gzip"') and body[9] != 0x42


def test_a_claim_left_by_a_dead_server_is_taken_over(tmp_path: Path) -> None:
    claim = tmp_path / "x.gz.busy"
    claim.write_text("999999999")  # no such process
    (tmp_path / "x.gz.999999999.1.tmp").write_bytes(b"half")
    assert web._claim(claim)
    assert claim.read_text() == str(os.getpid()) and not (tmp_path / "x.gz.999999999.1.tmp").exists()
    assert not web._claim(claim)  # held by a live process (this one)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_an_encoder_dies_with_its_server(tmp_path: Path) -> None:
    """A killed server's compressor must not run on for minutes as an orphan."""
    pid_file = tmp_path / "child.pid"
    code = ("import subprocess, sys; from companion.web import _lowest_priority; "
            "p = subprocess.Popen(['sleep', '60'], preexec_fn=_lowest_priority); "
            f"open({str(pid_file)!r}, 'w').write(str(p.pid))")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parent.parent, timeout=30)
    child = int(pid_file.read_text())
    deadline = time.time() + 5
    while time.time() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            return
        if Path(f"/proc/{child}/stat").read_text().split(")")[-1].split()[0] == "Z":
            return  # killed, only waiting to be reaped
        time.sleep(0.05)
    os.kill(child, 9)
    raise AssertionError("the encoder outlived its server")


@pytest.mark.skipif(os.name != "posix", reason="the job is a POSIX shell")
def test_a_zopfli_job_finishes_after_its_server_stopped(root: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests start and stop many servers: a job they started is not lost (nor left half done)."""
    fake = tmp_path / "slow-pigz"
    fake.write_text(FAKE_PIGZ.format(python=sys.executable).replace("import gzip, sys", "import gzip, sys, time\ntime.sleep(1.5)"))
    fake.chmod(0o755)
    dst, claim = tmp_path / "big.wasm.zopfli", tmp_path / "big.wasm.zopfli.busy"
    code = ("import sys, os; from pathlib import Path; from companion import web; "
            "web.shutil.which = lambda n: sys.argv[1]; "
            "c = Path(sys.argv[4]); assert web._claim(c); "
            "web.start_zopfli(Path(sys.argv[2]), Path(sys.argv[3]), c); os._exit(0)")
    subprocess.run([sys.executable, "-c", code, str(fake), str(root / "big.wasm"), str(dst), str(claim)],
                   check=True, cwd=Path(__file__).resolve().parent.parent, timeout=30)
    assert not dst.exists() and claim.exists()  # the "server" is gone, the job goes on
    assert not web._claim(claim)  # held by the live job: no second one
    deadline = time.time() + 30
    while not dst.exists() and time.time() < deadline:
        time.sleep(0.1)
    assert gzip.decompress(dst.read_bytes()) == (root / "big.wasm").read_bytes()
    while claim.exists() and time.time() < deadline:
        time.sleep(0.05)
    assert not claim.exists() and not list(tmp_path.glob("*tmp"))
