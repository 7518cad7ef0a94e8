// Command perper-table runs the messaging network the way Perper's messaging benchmark runs its nodes and prints
// what that program prints: a Markdown table of per-second counters, one row appended every second. PerfService
// reads it with the counters harness (perf.json suite "perper"), with no wrapper.
//
//	go run ./cmd/perper-table -nodes 10 -seconds 5 -strategy direct
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"perfbench"
)

func main() {
	nodes := flag.Int("nodes", 10, "nodes sending messages to each other")
	seconds := flag.Int("seconds", 5, "rows to print (one per second)")
	strategy := flag.String("strategy", "direct", "direct or filter (Perper's Enumeration: every node reads every stream)")
	flag.Parse()
	s := perfbench.Direct
	if *strategy == "filter" {
		s = perfbench.Filter
	}
	net := perfbench.NewNetwork(*nodes, s, 256)
	perRound := 1000 / *nodes
	if perRound < 1 {
		perRound = 1
	}
	fmt.Printf("# benchmark: Perper.Messaging\n# parameters: method=%s, nodes=%d\n\n", *strategy, *nodes)
	fmt.Println("| Time (s) | Sent (msgs/s) | Received (msgs/s) | Read (msgs/s) |")
	fmt.Println("| - | - | - | - |")
	for row := 1; row <= *seconds; row++ {
		start := time.Now()
		sent := 0
		for time.Since(start) < time.Second {
			net.Round(perRound)
			sent += perRound * *nodes
		}
		elapsed := time.Since(start).Seconds()
		// A round returns once every message reached its target, so received = sent; with the filter strategy every
		// node reads every other node's stream.
		read := float64(sent)
		if s == perfbench.Filter {
			read *= float64(*nodes - 1)
		}
		fmt.Printf("| %d | %.0f | %.0f | %.0f |\n", row, float64(sent)/elapsed, float64(sent)/elapsed, read/elapsed)
	}
	net.Close()
	fmt.Fprintln(os.Stderr, "all rows printed")
}
