"""CI's check that `make test` leaves a clean clone clean (tools/tree_stays_clean.sh, run by .ci/run):
a new or changed file fails it and is named; ignored files (.venv/, caches) and a clean run do not."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "clone"
    (repo / "tools").mkdir(parents=True)
    shutil.copy2(ROOT / "tools" / "tree_stays_clean.sh", repo / "tools" / "tree_stays_clean.sh")
    (repo / ".gitignore").write_text(".venv/\n.pytest_cache/\n")
    (repo / "tracked.txt").write_text("as committed\n")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "clean"], check=True)
    return repo


def _run(repo: Path, command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(repo / "tools" / "tree_stays_clean.sh"), "bash", "-c", command],
                          capture_output=True, text=True, timeout=60)


def test_a_clean_run_and_ignored_files_pass(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    assert _run(repo, "mkdir -p .venv .pytest_cache && touch .venv/x .pytest_cache/y").returncode == 0


def test_a_new_or_changed_file_fails_and_is_named(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    r = _run(repo, "echo shot > new.png && echo again >> tracked.txt")
    assert r.returncode == 1
    assert "?? new.png" in r.stderr and " M tracked.txt" in r.stderr


def test_the_command_failing_is_its_own_failure(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    r = _run(repo, "touch new.png; exit 3")
    assert r.returncode == 3
