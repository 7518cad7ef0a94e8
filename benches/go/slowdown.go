package perfbench

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// PERF_SLOWDOWN=name=percent[,name=percent...] makes the named benchmarks slower by about that
// percentage, so a demo or an end-to-end test can plant a regression of known size. A name matches a
// benchmark whose b.Name() equals it ("BenchmarkAppend/batch=10"), whose top-level function it is
// ("BenchmarkAppend" — every sub-benchmark), whose path starts with it ("BenchmarkMessaging/direct"),
// whose path ends with it ("direct/nodes=10"), or whose last segment it is ("batch=10"). The extra time
// is added inside the timed region, proportional to the time the real loop took, so ns/op rises by the
// percentage whatever b.N is: a sleep for all but the last 0.5 ms, then a spin (spinning alone overshoots
// on a busy machine: a thread that burns its time slice is descheduled and resumes late).

type slowdownEntry struct {
	name    string
	percent float64
}

func parseSlowdown(spec string) []slowdownEntry {
	var out []slowdownEntry
	for _, entry := range strings.FieldsFunc(spec, func(r rune) bool { return r == ',' || r == ';' }) {
		eq := strings.IndexByte(entry, '=')
		if eq <= 0 {
			continue
		}
		// Go sub-benchmark names contain '=' themselves ("batch=10"): the percentage is after the last one.
		eq = strings.LastIndexByte(entry, '=')
		name := strings.TrimSpace(entry[:eq])
		pct, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(entry[eq+1:]), "%"), 64)
		if name == "" || err != nil || pct <= 0 {
			continue
		}
		out = append(out, slowdownEntry{name, pct})
	}
	return out
}

func slowdownIn(entries []slowdownEntry, benchName string) float64 {
	segments := strings.Split(benchName, "/")
	for _, e := range entries {
		if e.name == benchName || e.name == segments[0] || e.name == segments[len(segments)-1] ||
			strings.HasPrefix(benchName, e.name+"/") || strings.HasSuffix(benchName, "/"+e.name) {
			return e.percent
		}
	}
	return 0
}

// slowdownPercent is the percentage PERF_SLOWDOWN asks for the named benchmark, or 0.
func slowdownPercent(benchName string) float64 {
	return slowdownIn(parseSlowdown(os.Getenv("PERF_SLOWDOWN")), benchName)
}

// stretch waits from start until (1 + pct/100) times the time since start has passed, and returns the total.
func stretch(start time.Time, pct float64) time.Duration {
	work := time.Since(start)
	if pct <= 0 {
		return work
	}
	target := time.Duration(float64(work) * (1 + pct/100))
	const spinTail = 500 * time.Microsecond
	if extra := target - work; extra > 2*spinTail {
		time.Sleep(extra - spinTail)
	}
	for {
		if now := time.Since(start); now >= target {
			return now
		}
	}
}

// measure resets the timer, runs loop(b.N) and applies the benchmark's slowdown; it returns the time the
// timed region took (for custom metrics such as msgs/s).
func measure(b *testing.B, loop func(n int)) time.Duration {
	pct := slowdownPercent(b.Name())
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	loop(b.N)
	elapsed := stretch(start, pct)
	b.StopTimer()
	return elapsed
}
