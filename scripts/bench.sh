#!/usr/bin/env bash
# Runs the benchmarks and prints the ratio each one measures in a single run.
# The guard bench uses the note mix of shared/data/gen_notes.py when it is
# beside the repository, else an equivalent mix generated in Rust.
#
#   scripts/bench.sh            # all benches
#   scripts/bench.sh guard      # one bench
#   scripts/bench.sh replay     # whole-process `advisor replay --json` on 200 000 notes
#
# The replay row generates the corpus (gen_notes.py 200000, and the variant
# where every note is distinct), times the whole process with hyperfine when
# present, else RUNS runs reporting min / median wall and CPU time (user +
# system, all threads), and
# prints notes per second. With `go` installed it times the Go reference
# guard (crates/advisor/benches/reference/emission.go) on the same notes in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."

benches=("$@")
[ ${#benches[@]} -gt 0 ] || benches=(guard observe finish_overhead rollout_load reviewer replay hook)

# min and median of the numbers on stdin
stats() { sort -g | awk '{a[NR]=$1} END {printf "min %.3f s, median %.3f s", a[1], a[int((NR+1)/2)]}'; }

# times "$@" with stdin $1 RUNS times: wall and CPU (user + system, all
# threads) seconds, one line each
time_runs() {
  local input="$1"; shift
  local i
  for i in $(seq "${RUNS:-7}"); do
    /usr/bin/time -f "%e %U %S" "$@" <"$input" 2>&1 >/dev/null | tail -1 | awk '{print $1, $2 + $3}'
  done
}

replay_row() {
  local notes=200000 dir=target/replay-bench
  [ -f "$gen" ] || { echo "RESULT replay: $gen not found (set GEN_NOTES); skipped"; return; }
  mkdir -p "$dir"
  python3 "$gen" "$notes" >"$dir/notes.tsv"
  awk -F'\t' '$1=="BEGIN"{print;next}{n++; print $0 " (#" n ")"}' "$dir/notes.tsv" >"$dir/distinct.tsv"
  python3 scripts/notes_to_jsonl.py <"$dir/notes.tsv" >"$dir/notes.jsonl"
  python3 scripts/notes_to_jsonl.py distinct <"$dir/notes.tsv" >"$dir/distinct.jsonl"
  cargo build --quiet --release --bin advisor
  local ref=""
  if command -v go >/dev/null; then
    (cd crates/advisor/benches/reference && go build -o "../../../../$dir/reference" emission.go) && ref="$dir/reference"
  fi
  local v
  for v in notes distinct; do
    if command -v hyperfine >/dev/null; then
      hyperfine --warmup 1 --input "$dir/$v.jsonl" --output null "target/release/advisor replay --json -" \
        ${ref:+--input "$dir/$v.tsv" "$ref"} | sed "s/^/replay $v: /"
      continue
    fi
    local runs wall user
    runs=$(time_runs "$dir/$v.jsonl" target/release/advisor replay --json -)
    wall=$(echo "$runs" | awk '{print $1}' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    echo "RESULT replay $v: advisor replay --json, $notes notes: wall $(echo "$runs" | awk '{print $1}' | stats); cpu $(echo "$runs" | awk '{print $2}' | stats); $(awk -v n=$notes -v t="$wall" 'BEGIN {printf "%.0f", n / t}') notes/s at the median"
    if [ -n "$ref" ]; then
      runs=$(time_runs "$dir/$v.tsv" "$ref")
      echo "RESULT replay $v: Go reference, $notes notes: wall $(echo "$runs" | awk '{print $1}' | stats); cpu $(echo "$runs" | awk '{print $2}' | stats)"
    fi
  done
}

gen="${GEN_NOTES:-../shared/data/gen_notes.py}"
if [ -f "$gen" ] && command -v python3 >/dev/null; then
  mkdir -p target
  python3 "$gen" 100000 > target/notes.tsv
  export ADVISOR_NOTES_TSV="$PWD/target/notes.tsv"
fi

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(rustc --version), load average $(cut -d" " -f1-3 /proc/loadavg)"
for b in "${benches[@]}"; do
  if [ "$b" = replay ]; then
    replay_row
    continue
  fi
  cargo bench --quiet --bench "$b" -- --warm-up-time 1 --measurement-time 3 2>/dev/null \
    | grep -E '^(RESULT|[a-z].*time:|                        time:)|^[a-zA-Z0-9 ()/_-]+$' || true
done | grep -E 'RESULT|time:' 
