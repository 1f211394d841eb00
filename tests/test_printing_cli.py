"""`companion print` as a user meets it: bad values and bad output paths are refused with one line
before any rendering, and the PDF is written atomically (never a truncated file)."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.printing import cli
from companion.printing.cli import main
from companion.printing.pdf import read_pages


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """The messages follow --lang, else the locale: these tests read the English ones."""
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    rc = main(argv)
    err = capsys.readouterr().err
    return rc, err


@pytest.mark.parametrize("argv, words", [
    (["lutetia", "--quality", "500"], "--quality"),
    (["lutetia", "--quality", "0"], "--quality"),
    (["lutetia", "--copies", "0"], "--copies"),
    (["lutetia", "--copies", "-2"], "--copies"),
    (["lutetia", "--workers", "0"], "--workers"),
    (["lutetia", "--workers", "-1"], "--workers"),
    (["--join", "", ""], "--join"),
    (["--join", "K7QX", " "], "--join"),
    (["lutetia", "--offset", "abc"], "offset must be X,Y"),
    (["lutetia", "--offset", "1,2,3"], "offset must be X,Y"),
    (["lutetia", "--dpi", "5"], "--dpi"),
    (["--registration", "--backs", "fold"], "duplex"),
])
def test_bad_values_are_refused_with_one_line(argv: list[str], words: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    rendered = []
    monkeypatch.setattr(cli.api, "render_pdf", lambda *a, **k: rendered.append(1) or b"")
    rc, err = run(["print", *argv, "-o", str(tmp_path / "x.pdf")], capsys)
    assert rc == 2
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and words in lines[0], err
    assert "Traceback" not in err and "unpack" not in err
    assert not rendered and not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize("where", ["missing-dir", "is-dir", "trailing-slash"])
def test_bad_output_paths_are_said_before_rendering(where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    rendered = []
    monkeypatch.setattr(cli.api, "render_pdf", lambda *a, **k: rendered.append(1) or b"")
    out = {"missing-dir": str(tmp_path / "nope" / "x.pdf"), "is-dir": str(tmp_path),
           "trailing-slash": str(tmp_path / "new") + "/"}[where]
    rc, err = run(["print", "lutetia", "-o", out], capsys)
    assert rc == 1 and not rendered
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert ("does not exist" in err) if where == "missing-dir" else ("directory" in err)


def test_a_full_disk_is_one_line_and_leaves_the_old_file_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "votes.pdf"
    out.write_bytes(b"old file")
    real_fdopen = os.fdopen

    class Full:
        def __init__(self, f: object) -> None:
            self.f = f

        def __enter__(self) -> Full:
            return self

        def __exit__(self, *exc: object) -> None:
            self.f.close()  # type: ignore[attr-defined]

        def write(self, data: bytes) -> int:
            self.f.write(data[: len(data) // 2])  # type: ignore[attr-defined]
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(cli.os, "fdopen", lambda fd, mode: Full(real_fdopen(fd, mode)))
    rc, err = run(["print", "lutetia", "--deck", "votes", "--dpi", "50", "--workers", "1", "-o", str(out), "--force"],
                  capsys)
    assert rc == 1
    assert "disk is full" in err and "Traceback" not in err
    assert out.read_bytes() == b"old file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["votes.pdf"]  # no .part left behind


def test_the_pdf_is_written_whole_by_rename(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    replaced: list[tuple[str, str]] = []
    real_replace = os.replace
    monkeypatch.setattr(cli.os, "replace", lambda a, b: (replaced.append((str(a), str(b))), real_replace(a, b)))
    out = tmp_path / "reg.pdf"
    rc, err = run(["print", "--registration", "--dpi", "50", "-o", str(out)], capsys)
    assert rc == 0 and "wrote" in err
    assert replaced and replaced[0][1] == str(out) and Path(replaced[0][0]).parent == tmp_path
    assert len(read_pages(out.read_bytes())) == 2


def test_registration_honours_the_orientation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "reg.pdf"
    rc, _ = run(["print", "--registration", "--orientation", "landscape", "--dpi", "50", "-o", str(out)], capsys)
    assert rc == 0
    w, h = read_pages(out.read_bytes())[0].size_mm
    assert w > h


def test_ink_saver_uses_far_less_ink_and_keeps_the_backs_edge_safe(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from PIL import ImageStat

    from companion.printing.api import game_jobs
    from companion.printing.engine import paint

    def ink(saver: bool) -> float:
        jobs = game_jobs("lutetia", "votes", dpi=50, backs="duplex-long", ink_saver=saver)
        return sum(255 - ImageStat.Stat(paint(j).convert("L")).mean[0] for j in jobs) / len(jobs)
    full, saver = ink(False), ink(True)
    assert saver < 0.5 * full, (full, saver)
    out = tmp_path / "v.pdf"
    rc, _ = run(["print", "lutetia", "--deck", "votes", "--ink-saver", "--dpi", "50", "-o", str(out)], capsys)
    assert rc == 0 and len(read_pages(out.read_bytes())) == 8


def test_sleeve_sizes_for_lutece(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.printing.api import game_jobs
    from companion.printing.units import mm_to_px

    for card, (w, h) in (("mini-euro", (44, 68)), ("mini-us", (41, 63))):
        jobs = game_jobs("lutece", dpi=100, card=card, guide=False)
        p = jobs[0].placed[0]
        assert (p.w, p.h) == (mm_to_px(w, 100), mm_to_px(h, 100))


ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("argv, rc_want, words", [
    (["lutetia", "--mod-deck", "a,b,c"], 2, "--mod-deck"),
    (["lutetia", "--mod-deck", "12,12"], 2, "--mod-deck"),
    (["quovadis", "--mod-deck", "12,12,12"], 2, "--mod-deck: not an option of quovadis"),  # (LUTETIA's own)
    (["lutetia", "--paper", "a5"], 2, "--paper must be one of a4, letter"),
    (["lutetia", "--lang", "es"], 2, "--lang must be one of en, de, fr"),
    (["lutetia", "--backs", "both"], 2, "--backs must be one of"),
    (["lutetia", "--dpi", "high"], 2, "--dpi"),
    (["lutetia", "--output", "{tmp}/x.png"], 1, "x.pdf"),
    (["lutetia", "-o", "{tmp}/cards"], 1, "cards.pdf"),
    (["--registration", "-o", "{tmp}/reg.PNG"], 1, ".pdf"),
])
def test_cli_mistakes_get_one_line_that_says_what_to_do(argv: list[str], rc_want: int, words: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 34.3: no "invalid literal for int()", no twelve lines of usage, no PDF named .png."""
    rendered = []
    monkeypatch.setattr(cli.api, "render_pdf", lambda *a, **k: rendered.append(1) or b"")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    if "-o" not in argv and "--output" not in argv:
        argv += ["-o", str(tmp_path / "x.pdf")]
    rc, err = run(["print", *argv], capsys)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert rc == rc_want and len(lines) == 1 and words in lines[0], (rc, err)
    assert "Traceback" not in err and "invalid literal" not in err and "usage:" not in err
    assert not rendered and list(tmp_path.iterdir()) == []


def test_an_existing_file_is_replaced_only_with_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "reg.pdf"
    out.write_bytes(b"my own file")
    rc, err = run(["print", "--registration", "--dpi", "50", "-o", str(out)], capsys)
    assert rc == 1 and out.read_bytes() == b"my own file"
    assert len(err.strip().splitlines()) == 1 and "already exists" in err and "--force" in err
    rc, err = run(["print", "--registration", "--dpi", "50", "-o", str(out), "--force"], capsys)
    assert rc == 0 and len(read_pages(out.read_bytes())) == 2


def _sigint_state(pid: int) -> str:
    """Whether process `pid` still runs and what its main thread does with SIGINT (Linux /proc)."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return "no /proc status"
    f = dict(ln.split(":", 1) for ln in lines if ":" in ln)
    bit = 1 << (signal.SIGINT - 1)
    how = next((name for name, key in (("ignored", "SigIgn"), ("blocked", "SigBlk"), ("caught", "SigCgt"))
                if int(f[key], 16) & bit), "default")
    return f"state {f['State'].strip()}, SIGINT {how}"


def test_ctrl_c_while_printing_is_one_line_and_no_traceback(tmp_path: Path) -> None:
    """Ctrl-C in a terminal sends SIGINT to the whole process group: the CLI and its render workers."""
    out = tmp_path / "lutetia.pdf"
    # A terminal starts the CLI with SIGINT at its default. The test runner's process may have it
    # ignored (seen under pytest-xdist: the CLI then printed all 38 pages, "SIGINT ignored"), and an
    # ignored signal stays ignored across exec – so the CLI is started as a terminal would start it.
    held = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = subprocess.Popen([sys.executable, "-m", "companion.printing", "lutetia", "--workers", "2", "-o",
                                 str(out)], cwd=ROOT, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                                start_new_session=True)
    finally:
        signal.signal(signal.SIGINT, held)
    assert proc.stderr is not None
    seen = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # rendering has started (the first progress line)
        line = proc.stderr.readline()
        seen.append(line)
        if "pages" in line or not line:
            break
    assert any("pages" in ln for ln in seen), seen
    state = _sigint_state(proc.pid)  # (said if it fails: a CLI already done, or not catching SIGINT)
    os.killpg(proc.pid, signal.SIGINT)
    try:
        rest = proc.stderr.read()
        rc = proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    lines = [ln for ln in rest.splitlines() if ln.strip() and not ln.endswith(" pages")]
    assert rc != 0, (state, rest)
    assert "Traceback" not in rest and "KeyboardInterrupt" not in rest, rest
    assert len(lines) == 1 and "interrupted" in lines[0], rest
    assert list(tmp_path.iterdir()) == []  # no PDF, no .part file


@pytest.mark.parametrize("argv, env, rc_want, words", [
    (["lutetia", "--quality", "500", "--lang", "de"], None, 2, "--quality muss 1..100 sein (JPEG-Qualität), nicht 500"),
    (["lutetia", "--paper", "a5", "--lang=fr"], None, 2,
     "--paper doit être l’un de a4, letter, pas 'a5' (voir companion print --help)"),
    (["lutetia", "--dpi", "high", "--lang", "de"], None, 2, "--dpi braucht eine ganze Zahl, nicht 'high'"),
    (["lutetia", "--offset", "abc", "--lang", "fr"], None, 2, "le décalage doit être X,Y en mm"),
    (["quovadis", "--mod-deck", "12,12,12"], "de_DE.UTF-8", 2, "--mod-deck: keine Option von quovadis"),
    (["lutetia", "-o", "{tmp}/cards"], "fr_FR.UTF-8", 1, "donnez un nom qui finit par .pdf"),
    (["lutetia", "--lang", "es"], "de_DE.UTF-8", 2, "--lang muss eines von en, de, fr sein, nicht 'es'"),
    (["--registration", "--backs", "fold"], "fr_CH.UTF-8", 2, "--registration mesure l’impression recto verso"),
])
def test_mistakes_are_said_in_the_language_of_lang_or_the_locale(argv: list[str], env: str | None, rc_want: int,
                                                                 words: str, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """--lang (else $LANG) says the mistake in English, German or French, as `companion history`."""
    if env:
        monkeypatch.setenv("LANG", env)
    monkeypatch.setattr(cli.api, "render_pdf", lambda *a, **k: b"")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    if "-o" not in argv:
        argv += ["-o", str(tmp_path / "x.pdf")]
    rc, err = run(["print", *argv], capsys)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert rc == rc_want and len(lines) == 1 and words in lines[0], (rc, err)
    assert lines[0].startswith("companion print: ")


def test_a_german_locale_says_the_mistakes_in_german_but_prints_english_unless_asked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    langs: list[str] = []
    monkeypatch.setattr(cli.api, "render_pdf", lambda *a, **k: langs.append(k["lang"]) or b"%PDF-1.4")
    (tmp_path / "votes.pdf").write_bytes(b"old")
    rc, err = run(["print", "lutetia", "--deck", "votes", "-o", str(tmp_path / "votes.pdf")], capsys)
    assert rc == 1 and "gibt es schon; mit --force wird die Datei ersetzt" in err and not langs
    rc, err = run(["print", "lutetia", "--deck", "votes", "-o", str(tmp_path / "votes.pdf"), "--force"], capsys)
    assert rc == 0 and langs == ["en"]  # (the printed texts: English unless --lang)
