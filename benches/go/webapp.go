package perfbench

import (
	"encoding/json"
	"errors"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// The DCB web app: an HTTP API over an EventStore, load-tested like the seed's k6 scenarios (append, conditional
// append, read at 100 virtual users). POST /append {"events":[…], "condition":{…}?} answers {"position":n}, or
// 409 when the condition failed; POST /read {"query":{…}, "after":n} answers {"events":[…]}.

type wireItem struct {
	Types []string `json:"types,omitempty"`
	Tags  []string `json:"tags,omitempty"`
}

type wireQuery struct {
	Items []wireItem `json:"items"`
}

type wireEvent struct {
	Type     string          `json:"type"`
	Tags     []string        `json:"tags"`
	Data     json.RawMessage `json:"data,omitempty"`
	Position int64           `json:"position,omitempty"`
}

type appendRequest struct {
	Events    []wireEvent `json:"events"`
	Condition *struct {
		FailIfEventsMatch wireQuery `json:"failIfEventsMatch"`
		After             int64     `json:"after"`
	} `json:"condition,omitempty"`
}

type readRequest struct {
	Query wireQuery `json:"query"`
	After int64     `json:"after"`
}

func (q wireQuery) query() Query {
	out := Query{}
	for _, i := range q.Items {
		out.Items = append(out.Items, QueryItem{Types: i.Types, Tags: i.Tags})
	}
	return out
}

// NewWebApp serves the store's API.
func NewWebApp(store EventStore) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/append", func(w http.ResponseWriter, r *http.Request) {
		var req appendRequest
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Events) == 0 {
			http.Error(w, "expected POST {\"events\":[…]}", http.StatusBadRequest)
			return
		}
		events := make([]Event, len(req.Events))
		for i, e := range req.Events {
			events[i] = Event{Type: e.Type, Tags: e.Tags, Data: []byte(e.Data)}
		}
		var pos int64
		var err error
		if c := req.Condition; c != nil {
			pos, err = store.AppendIf(events, AppendCondition{FailIfEventsMatch: c.FailIfEventsMatch.query(), After: c.After})
		} else {
			pos, err = store.Append(events)
		}
		switch {
		case errors.Is(err, ErrConcurrency):
			http.Error(w, err.Error(), http.StatusConflict)
		case err != nil:
			http.Error(w, err.Error(), http.StatusInternalServerError)
		default:
			writeJSON(w, map[string]int64{"position": pos})
		}
	})
	mux.HandleFunc("/read", func(w http.ResponseWriter, r *http.Request) {
		var req readRequest
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, "expected POST {\"query\":{…}}", http.StatusBadRequest)
			return
		}
		events, err := store.ReadAll(req.Query.query(), req.After)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		out := make([]wireEvent, len(events))
		for i, e := range events {
			out[i] = wireEvent{Type: e.Type, Tags: e.Tags, Position: e.Position}
			if json.Valid(e.Data) {
				out[i].Data = e.Data
			}
		}
		writeJSON(w, map[string]interface{}{"events": out})
	})
	return mux
}

func writeJSON(w http.ResponseWriter, v interface{}) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// LoadResult is what a load run saw: every request's latency and how many succeeded.
type LoadResult struct {
	Requests  int
	Succeeded int
	Elapsed   time.Duration
	latencies []time.Duration
}

// RunLoad sends total requests from vus virtual users at once (each sends its next request as soon as its last
// one answered, like a k6 VU without sleep) and records each request's latency and outcome.
func RunLoad(vus, total int, request func(vu, i int) bool) LoadResult {
	if vus < 1 {
		vus = 1
	}
	res := LoadResult{Requests: total, latencies: make([]time.Duration, total)}
	var next, ok int64
	var wg sync.WaitGroup
	start := time.Now()
	for v := 0; v < vus; v++ {
		wg.Add(1)
		go func(vu int) {
			defer wg.Done()
			for {
				i := int(atomic.AddInt64(&next, 1) - 1)
				if i >= total {
					return
				}
				t0 := time.Now()
				if request(vu, i) {
					atomic.AddInt64(&ok, 1)
				}
				res.latencies[i] = time.Since(t0)
			}
		}(v)
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	res.Succeeded = int(ok)
	return res
}

// Percentile is the nearest-rank percentile (0 < p ≤ 100) of the latencies.
func (r *LoadResult) Percentile(p float64) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	sorted := append([]time.Duration(nil), r.latencies...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	rank := int(p/100*float64(len(sorted))+0.999999) - 1
	if rank < 0 {
		rank = 0
	}
	if rank >= len(sorted) {
		rank = len(sorted) - 1
	}
	return sorted[rank]
}

// SuccessRate is the percentage of requests answered with a 2xx.
func (r *LoadResult) SuccessRate() float64 {
	if r.Requests == 0 {
		return 100
	}
	return 100 * float64(r.Succeeded) / float64(r.Requests)
}
