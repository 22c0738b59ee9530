#!/usr/bin/env python3
"""Turns gen_notes.py's TSV (`severity<TAB>text`, `BEGIN<TAB>-` between reviews)
into `advisor replay` input: one `{"notes":[{"text","severity"}]}` line per review.
With `distinct`, every note's text gets ` (#N)` appended, N its 1-based index."""
import json, sys

distinct = len(sys.argv) > 1 and sys.argv[1] == "distinct"
reviews, n = [], 0
for line in sys.stdin.read().split("\n"):
    if not line:
        continue
    sev, text = line.split("\t", 1)
    if sev == "BEGIN":
        reviews.append([])
        continue
    n += 1
    if distinct:
        text = f"{text} (#{n})"
    reviews[-1].append({"text": text, "severity": sev})
sys.stdout.write("".join(json.dumps({"notes": r}, ensure_ascii=False) + "\n" for r in reviews))
