#!/usr/bin/env bash
# Issue 37's check: the whole `make test`, again and again, in a fresh clone of this checkout's
# HEAD, with a CPU hog beside it (a busy machine brings out races that an idle one hides).
#   scripts/soak.sh [RUNS] [DIR]     (default 10 runs in a new temporary directory)
# Prints one line a run (exit code, seconds, pytest's summary) and stops at the first failure;
# each run's whole output stays in DIR/run-N.log.
set -uo pipefail
runs=${1:-10}
dir=${2:-$(mktemp -d /tmp/banmen-soak.XXXXXX)}
src=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
git clone -q "$src" "$dir/clone"
echo "soak of $(git -C "$dir/clone" log --oneline -1) in $dir, $runs runs"
python3 -c 'while True: pass' &
hog=$!
trap 'kill $hog 2>/dev/null' EXIT
for i in $(seq 1 "$runs"); do
  start=$(date +%s)
  (cd "$dir/clone" && make test) > "$dir/run-$i.log" 2>&1
  rc=$?
  summary=$(grep -E '[0-9]+ (passed|failed)' "$dir/run-$i.log" | tail -1)
  echo "run $i rc=$rc $(( $(date +%s) - start ))s $summary"
  [ "$rc" -eq 0 ] || exit "$rc"
done
