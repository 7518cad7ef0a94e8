package perfbench

import (
	"strconv"
	"testing"
)

// Messaging benchmark after Perper's: N nodes exchange messages addressed to random other nodes. One
// operation is a round of messagesPerRound messages; the custom metric msgs/s is messages delivered to
// their addressee per second (the slowdown, when planted, is included, so msgs/s drops accordingly).

const messagesPerRound = 10000

func BenchmarkMessaging(b *testing.B) {
	cases := []struct {
		strategy Strategy
		nodes    int
	}{
		{Direct, 2}, {Direct, 10}, {Direct, 50},
		{Filter, 10},
	}
	for _, tc := range cases {
		tc := tc
		b.Run(tc.strategy.String()+"/nodes="+strconv.Itoa(tc.nodes), func(b *testing.B) {
			net := NewNetwork(tc.nodes, tc.strategy, 256)
			perNode := messagesPerRound / tc.nodes
			net.Round(perNode) // warm the goroutines and channels
			elapsed := measure(b, func(n int) {
				for i := 0; i < n; i++ {
					net.Round(perNode)
				}
			})
			delivered := float64(b.N * perNode * tc.nodes)
			b.ReportMetric(delivered/elapsed.Seconds(), "msgs/s")
			if tc.strategy == Filter {
				// every message is read by every other node
				b.ReportMetric(delivered*float64(tc.nodes-1)/elapsed.Seconds(), "reads/s")
			}
			net.Close()
		})
	}
}

func TestMessagingDeliversEverything(t *testing.T) {
	for _, s := range []Strategy{Direct, Filter} {
		net := NewNetwork(5, s, 8)
		for r := 0; r < 3; r++ {
			net.Round(200)
		}
		seen, received := net.Close()
		if received != 3*200*5 {
			t.Fatalf("%v: received %d", s, received)
		}
		if s == Filter && seen != received*4 {
			t.Fatalf("filter: seen %d, want %d", seen, received*4)
		}
	}
}
