#!/usr/bin/env bash
# Run a command (CI: `make test`) and fail if it left the git work tree changed: a tracked file
# modified or deleted, or a new file that is not ignored (.gitignore: .venv/, caches, build output).
# Tests write to scratch folders; the documentation's screenshots come from `make screenshots`.
# Only what the command changed counts: what was already changed before it is not its doing.
set -uo pipefail
cd "$(dirname "$0")/.."
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "tree_stays_clean: not a git work tree, not checked" >&2
  exec "$@"
fi
state() { git status --porcelain=v1 --untracked-files=all 2>/dev/null; }
before=$(state)
"$@"
rc=$?
[ "$rc" -eq 0 ] || exit "$rc"
after=$(state)
if [ "$after" != "$before" ]; then
  echo "'$*' changed the work tree (tests must write to a scratch folder, e.g. pytest's tmp_path;" >&2
  echo "docs/screenshots/ comes from 'make screenshots', benchmark figures go to \$COMPANION_BENCH_OUT):" >&2
  diff <(printf '%s\n' "$before") <(printf '%s\n' "$after") | sed -n 's/^> /  now: /p; s/^< /  was: /p' >&2
  exit 1
fi
