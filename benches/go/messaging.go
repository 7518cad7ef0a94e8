package perfbench

import "sync"

// A messaging network shaped after Perper's messaging benchmark: a group of nodes send messages to
// random other nodes. Two delivery strategies:
//   - Direct: a message goes straight to its target's inbox channel.
//   - Filter: a node publishes every message on its output stream, which reaches every other node; each
//     node filters the stream for messages addressed to it (Perper's "Enumeration" strategy).
// Each node has a receiver goroutine for the life of the network; senders run per round.

type Message struct {
	From, To int32
	Seq      int64
	Payload  [32]byte
}

type Strategy int

const (
	Direct Strategy = iota
	Filter
)

func (s Strategy) String() string {
	if s == Filter {
		return "filter"
	}
	return "direct"
}

type Network struct {
	strategy Strategy
	inboxes  []chan Message
	round    sync.WaitGroup // one Done per message delivered to its addressee
	seen     []int64        // per node: messages read from the inbox (delivered or filtered out)
	received []int64        // per node: messages addressed to it
	done     sync.WaitGroup // receivers
	rng      []uint64
}

// NewNetwork starts nodes receiver goroutines. Close stops them.
func NewNetwork(nodes int, strategy Strategy, inboxCapacity int) *Network {
	n := &Network{
		strategy: strategy,
		inboxes:  make([]chan Message, nodes),
		seen:     make([]int64, nodes*8), // padded: one counter per 64-byte line
		received: make([]int64, nodes*8),
		rng:      make([]uint64, nodes),
	}
	for i := range n.inboxes {
		n.inboxes[i] = make(chan Message, inboxCapacity)
		n.rng[i] = uint64(i)*0x9E3779B97F4A7C15 + 1
	}
	n.done.Add(nodes)
	for i := range n.inboxes {
		go n.receive(int32(i))
	}
	return n
}

func (n *Network) receive(me int32) {
	defer n.done.Done()
	var seen, received int64
	for m := range n.inboxes[me] {
		seen++
		if m.To != me {
			continue // filter strategy: someone else's message
		}
		received++
		n.round.Done()
	}
	n.seen[int(me)*8] = seen
	n.received[int(me)*8] = received
}

// Round has every node send perNode messages to random other nodes and returns when all are delivered.
func (n *Network) Round(perNode int) {
	nodes := len(n.inboxes)
	n.round.Add(nodes * perNode)
	var senders sync.WaitGroup
	senders.Add(nodes)
	for i := 0; i < nodes; i++ {
		go func(me int) {
			defer senders.Done()
			x := n.rng[me]
			for k := 0; k < perNode; k++ {
				x ^= x << 13
				x ^= x >> 7
				x ^= x << 17
				to := int(x % uint64(nodes-1))
				if to >= me {
					to++
				}
				m := Message{From: int32(me), To: int32(to), Seq: int64(k)}
				if n.strategy == Direct {
					n.inboxes[to] <- m
				} else {
					for j, inbox := range n.inboxes {
						if j != me {
							inbox <- m
						}
					}
				}
			}
			n.rng[me] = x
		}(i)
	}
	senders.Wait()
	n.round.Wait()
}

// Close stops the receivers and returns the totals (messages read from inboxes, messages delivered).
func (n *Network) Close() (seen, received int64) {
	for _, inbox := range n.inboxes {
		close(inbox)
	}
	n.done.Wait()
	for i := range n.inboxes {
		seen += n.seen[i*8]
		received += n.received[i*8]
	}
	return seen, received
}
