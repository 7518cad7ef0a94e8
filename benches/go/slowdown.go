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
// percentage whatever b.N is. It is CPU work in a function of its own (slowdownWork), as a real
// regression is, so that a CPU profile of the slower benchmark names it.

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

// stretch works from start until (1 + pct/100) times the time since start has passed, and returns the total.
func stretch(start time.Time, pct float64) time.Duration {
	work := time.Since(start)
	if pct <= 0 {
		return work
	}
	return slowdownWork(start, time.Duration(float64(work)*(1+pct/100)))
}

// slowdownSink keeps slowdownWork's arithmetic from being optimised away.
var slowdownSink uint64

// slowdownWork burns CPU until target has passed since start. It reads the clock only every few microseconds,
// so that a CPU profile's samples land in this frame's own code rather than in the clock's; it is never
// inlined, so the profile names it.
//
//go:noinline
func slowdownWork(start time.Time, target time.Duration) time.Duration {
	x := slowdownSink | 1
	for {
		for i := 0; i < 4096; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
		if now := time.Since(start); now >= target {
			slowdownSink = x
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
