"""The Python layer's per-review overhead over the Rust call, and the memory
of one idle Advisor.

1 000 finish reviews (one fresh Advisor each, the advisor answers CONTINUE)
against the same local mock OpenAI-compatible server (``python -m
advisor.testing`` in a subprocess, so it does not share this process's GIL),
driven from Python (``Advisor.review`` in a loop; ``review_async`` all at once
under asyncio) and from Rust only (``advisor._advisor._rust_reviews``, the
same reviews as ``benches/rollout_load.rs``, in this process). Rounds are
interleaved (Rust, Python, Rust, Python, …) and the medians compared; the
difference per review is the Python layer's overhead.

Memory (measured first, on a fresh heap): 100 000 idle Advisors sharing one
config, task and endpoint — bytes per Advisor by RSS delta (everything: the
Python object, the Rust advisor, the list slot) and, in a second pass, by
tracemalloc (the Python heap only).

    python bindings/python/bench/bench_overhead.py [--n 1000] [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import tracemalloc
from typing import Any, Callable, Dict, List

from advisor import Advisor, AdvisorConfig, OpenAICompatible, TaskMaterial
from advisor._advisor import _rust_reviews

HIDDEN = "def test_equal_keys():\n    assert merge([(1,'a'),(1,'b')]) == [(1,'a'),(1,'b')]\n" * 20
HISTORY: List[Dict[str, Any]] = [
    {"role": "user", "content": f"step {i}"} if i % 2 == 0 else {"role": "assistant", "content": f"ran check {i}: ok"}
    for i in range(24)
]
DRAFT = {"content": "done", "tool_calls": [{"id": "call_0", "type": "function", "function": {"name": "submit", "arguments": "{}"}}]}


def regenerate(_revision: Any) -> str:
    return "r"


def median_seconds(runs: int, f: Callable[[], Any]) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def machine() -> str:
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} logical CPUs, Linux {platform.release()}, CPython {platform.python_version()}"


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--idle", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    n = args.n
    config = AdvisorConfig()
    task = TaskMaterial("Make merge keep insertion order for equal keys.", {"tests/test_hidden.py": HIDDEN})
    # Idle memory first, on a heap the review runs have not grown yet.
    model = OpenAICompatible("http://127.0.0.1:9/v1", "mock")
    gc.collect()
    rss0 = rss_bytes()
    idle = [Advisor(config, task, model) for _ in range(args.idle)]
    rss1 = rss_bytes()
    del idle
    gc.collect()
    tracemalloc.start()
    snap0 = tracemalloc.take_snapshot()
    idle = [Advisor(config, task, model) for _ in range(args.idle)]
    snap1 = tracemalloc.take_snapshot()
    tracemalloc.stop()
    py_heap = sum(s.size_diff for s in snap1.compare_to(snap0, "filename"))
    del idle
    server = subprocess.Popen([sys.executable, "-m", "advisor.testing"], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        base_url = server.stdout.readline().strip()
        model = OpenAICompatible(base_url, "mock", max_concurrency=64)

        def py_sequential() -> None:
            for _ in range(n):
                Advisor(config, task, model).review(HISTORY, DRAFT, regenerate)

        def py_concurrent() -> None:
            async def run() -> None:
                await asyncio.gather(*(Advisor(config, task, model).review_async(HISTORY, DRAFT, regenerate) for _ in range(n)))

            asyncio.run(run())

        # warm up connections and the runtime
        _rust_reviews(config, task, model, HISTORY, 50, True)
        for _ in range(50):
            Advisor(config, task, model).review(HISTORY, DRAFT, regenerate)

        # Interleaved rounds, so both sides see the same background load.
        rounds: Dict[str, List[float]] = {"rust_seq": [], "py_seq": [], "rust_conc": [], "py_conc": []}
        for _ in range(args.rounds):
            rounds["rust_seq"].append(_rust_reviews(config, task, model, HISTORY, n, False))
            rounds["py_seq"].append(median_seconds(1, py_sequential))
            rounds["rust_conc"].append(_rust_reviews(config, task, model, HISTORY, n, True))
            rounds["py_conc"].append(median_seconds(1, py_concurrent))
        rust_seq, py_seq, rust_conc, py_conc = (statistics.median(rounds[k]) for k in ("rust_seq", "py_seq", "rust_conc", "py_conc"))
    finally:
        server.terminate()
        server.wait(10)

    result = {
        "machine": machine(),
        "reviews": n,
        "rounds": rounds,
        "load_average": os.getloadavg(),
        "sequential": {
            "python_s": py_seq,
            "rust_s": rust_seq,
            "overhead_us_per_review": (py_seq - rust_seq) * 1e6 / n,
            "ratio": py_seq / rust_seq,
        },
        "concurrent": {
            "python_s": py_conc,
            "rust_s": rust_conc,
            "overhead_us_per_review": (py_conc - rust_conc) * 1e6 / n,
            "ratio": py_conc / rust_conc,
        },
        "idle_advisor": {
            "advisors": args.idle,
            "tracemalloc_bytes_each": py_heap / args.idle,
            "rss_bytes_each": (rss1 - rss0) / args.idle,
        },
    }
    s, c, m = result["sequential"], result["concurrent"], result["idle_advisor"]
    print(f"machine: {result['machine']}; load average {os.getloadavg()[0]:.1f}")
    print(
        f"sequential: {n} reviews from Python {s['python_s'] * 1e3:.0f} ms vs Rust {s['rust_s'] * 1e3:.0f} ms: "
        f"Python layer {s['overhead_us_per_review']:.1f} µs per review (ratio {s['ratio']:.2f})"
    )
    print(
        f"concurrent: {n} reviews from Python (review_async) {c['python_s'] * 1e3:.0f} ms vs Rust {c['rust_s'] * 1e3:.0f} ms: "
        f"Python layer {c['overhead_us_per_review']:.1f} µs per review (ratio {c['ratio']:.2f})"
    )
    print(
        f"idle Advisor: {m['tracemalloc_bytes_each']:.0f} bytes of Python heap (tracemalloc), "
        f"{m['rss_bytes_each']:.0f} bytes of RSS each ({args.idle} advisors)"
    )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
