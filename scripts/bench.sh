#!/usr/bin/env bash
# Runs the benchmarks and prints the ratio each one measures in a single run.
# The guard bench uses the note mix of shared/data/gen_notes.py when it is
# beside the repository, else an equivalent mix generated in Rust.
#
#   scripts/bench.sh            # all benches
#   scripts/bench.sh guard      # one bench
set -euo pipefail
cd "$(dirname "$0")/.."

benches=("$@")
[ ${#benches[@]} -gt 0 ] || benches=(guard observe finish_overhead rollout_load reviewer hook)

gen="../shared/data/gen_notes.py"
if [ -f "$gen" ] && command -v python3 >/dev/null; then
  mkdir -p target
  python3 "$gen" 100000 > target/notes.tsv
  export ADVISOR_NOTES_TSV="$PWD/target/notes.tsv"
fi

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(rustc --version)"
for b in "${benches[@]}"; do
  cargo bench --quiet --bench "$b" -- --warm-up-time 1 --measurement-time 3 2>/dev/null \
    | grep -E '^(RESULT|[a-z].*time:|                        time:)|^[a-zA-Z0-9 ()/_-]+$' || true
done | grep -E 'RESULT|time:' 
