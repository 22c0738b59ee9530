// The reference emission guard, for `scripts/bench.sh replay` only: agentray's
// emission.go algorithm as described behaviourally (lowercase, then NFKC;
// letters and decimal digits kept, every other run one space; 36 content-free
// keys; escalation dedupe with a 4096-key FIFO; a breadth cap of 3 per review).
// Written from that description, not copied. Go's standard library has no
// NFKC, so text that is not ASCII is passed through unnormalized here: this
// under-counts the reference's work and makes it, if anything, faster.
//
// Input: the TSV of gen_notes.py (`severity<TAB>text`, `BEGIN<TAB>-` between
// reviews). Output: one line per note, `accepted|rejected<TAB>key`.
package main

import (
	"bufio"
	"os"
	"strings"
	"unicode"
)

var contentFree = map[string]bool{}

func init() {
	for _, p := range []string{"stop", "stop here", "stop now", "halt", "abort", "done", "task done",
		"task complete", "complete", "finished", "ok", "okay", "ok done", "no issue", "no issues",
		"no issue continue", "no concerns", "no concern", "nothing to add", "nothing to flag",
		"nothing to report", "no notes", "no further input", "no further input needed",
		"no further advice", "no further advice needed", "lgtm", "looks good", "all good", "on track",
		"agent on track", "agent is on track", "continue", "carry on", "no action needed",
		"no changes needed"} {
		contentFree[p] = true
	}
}

func normalize(text string) string {
	lower := strings.ToLower(text)
	var b strings.Builder
	pending := false
	for _, r := range lower {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if pending && b.Len() > 0 {
				b.WriteByte(' ')
			}
			pending = false
			b.WriteRune(r)
		} else {
			pending = true
		}
	}
	return b.String()
}

func rank(sev string) int {
	switch sev {
	case "blocker":
		return 3
	case "concern":
		return 2
	}
	return 1
}

func main() {
	seen := map[string]int{}
	order := []string{}
	perReview := 0
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	defer out.Flush()
	for in.Scan() {
		line := in.Text()
		tab := strings.IndexByte(line, '\t')
		if tab < 0 {
			continue
		}
		sev, text := line[:tab], line[tab+1:]
		if sev == "BEGIN" {
			perReview = 0
			continue
		}
		text = strings.TrimSpace(text)
		if r := []rune(text); len(r) > 2000 {
			text = string(r[:2000])
		}
		key := normalize(text)
		rk := rank(sev)
		ok := false
		if key != "" && !contentFree[key] {
			if prev, had := seen[key]; !had || rk > prev {
				if perReview < 3 {
					perReview++
					if !had {
						order = append(order, key)
						if len(order) > 4096 {
							delete(seen, order[0])
							order = order[1:]
						}
					}
					seen[key] = rk
					ok = true
				}
			}
		}
		if ok {
			out.WriteString("accepted\t")
		} else {
			out.WriteString("rejected\t")
		}
		out.WriteString(key)
		out.WriteByte('\n')
	}
}
