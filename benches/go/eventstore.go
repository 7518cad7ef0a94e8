package perfbench

import (
	"errors"
	"sort"
	"sync"
)

// An in-memory event store in the style of Dynamic Consistency Boundaries (DCB): events carry a type
// and tags; reads select events by a query (any of several items, each a set of types and a set of
// tags that must all be present); a conditional append fails when events matching the condition's
// query were appended after the position the decision was based on. Projections fold the events a
// query selects into state.

// Event is one stored fact. Position is assigned by the store (1-based, gap-free).
type Event struct {
	Type     string
	Tags     []string
	Data     []byte
	Position int64
}

// QueryItem matches an event whose type is one of Types (any type when empty) and that carries every tag
// in Tags.
type QueryItem struct {
	Types []string
	Tags  []string
}

// Query matches an event when any of its items does; a query without items matches every event.
type Query struct {
	Items []QueryItem
}

// AppendCondition makes an append fail if any event matching FailIfEventsMatch exists after After.
type AppendCondition struct {
	FailIfEventsMatch Query
	After             int64
}

// ErrConcurrency is returned by AppendIf when the condition's query matched a newer event.
var ErrConcurrency = errors.New("append condition failed: a matching event was appended after the given position")

// Store is safe for concurrent use. The store keeps the Tags and Data slices it is given: callers must not
// modify them after appending.
type Store struct {
	mu     sync.RWMutex
	events []Event
	byTag  map[string][]int32 // tag -> indexes into events, ascending
	byType map[string][]int32
}

func NewStore() *Store {
	return &Store{byTag: make(map[string][]int32), byType: make(map[string][]int32)}
}

// Len is the number of events stored.
func (s *Store) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.events)
}

// Append stores the events in order and returns the position of the last one.
func (s *Store) Append(events []Event) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.appendLocked(events)
}

// AppendIf stores the events only if the condition holds, atomically with the check.
func (s *Store) AppendIf(events []Event, cond AppendCondition) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	conflict := false
	s.scanLocked(cond.FailIfEventsMatch, cond.After, func(*Event) bool {
		conflict = true
		return false
	})
	if conflict {
		return 0, ErrConcurrency
	}
	return s.appendLocked(events), nil
}

func (s *Store) appendLocked(events []Event) int64 {
	for i := range events {
		idx := int32(len(s.events))
		e := events[i]
		e.Position = int64(idx) + 1
		s.events = append(s.events, e)
		s.byType[e.Type] = append(s.byType[e.Type], idx)
		for _, t := range e.Tags {
			s.byTag[t] = append(s.byTag[t], idx)
		}
	}
	return int64(len(s.events))
}

// Read calls fn for every event matching q with a position greater than after, in position order,
// until fn returns false.
func (s *Store) Read(q Query, after int64, fn func(*Event) bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	s.scanLocked(q, after, fn)
}

// ReadAll returns copies of the matching events.
func (s *Store) ReadAll(q Query, after int64) []Event {
	var out []Event
	s.Read(q, after, func(e *Event) bool {
		out = append(out, *e)
		return true
	})
	return out
}

// Head is the position of the newest event (0 when empty).
func (s *Store) Head() int64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return int64(len(s.events))
}

func (item *QueryItem) matches(e *Event) bool {
	if len(item.Types) > 0 {
		ok := false
		for _, t := range item.Types {
			if t == e.Type {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	for _, want := range item.Tags {
		ok := false
		for _, have := range e.Tags {
			if have == want {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// candidates is the shortest index list that contains every event the item can match, or nil with
// all=true when the item constrains nothing an index covers.
func (s *Store) candidates(item *QueryItem) (list []int32, all bool) {
	best := -1
	for _, t := range item.Tags {
		l := s.byTag[t]
		if best < 0 || len(l) < best {
			list, best = l, len(l)
		}
	}
	if len(item.Types) > 0 {
		var n int
		for _, t := range item.Types {
			n += len(s.byType[t])
		}
		if best < 0 || n < best {
			if len(item.Types) == 1 {
				list = s.byType[item.Types[0]]
			} else {
				merged := make([]int32, 0, n)
				for _, t := range item.Types {
					merged = append(merged, s.byType[t]...)
				}
				sort.Slice(merged, func(i, j int) bool { return merged[i] < merged[j] })
				list = merged
			}
			best = n
		}
	}
	return list, best < 0
}

func (s *Store) scanLocked(q Query, after int64, fn func(*Event) bool) {
	start := int32(after) // events[start] has position after+1
	if after < 0 {
		start = 0
	}
	if len(q.Items) == 0 {
		for i := int(start); i < len(s.events); i++ {
			if !fn(&s.events[i]) {
				return
			}
		}
		return
	}
	if len(q.Items) == 1 {
		item := &q.Items[0]
		list, all := s.candidates(item)
		if all {
			for i := int(start); i < len(s.events); i++ {
				if item.matches(&s.events[i]) && !fn(&s.events[i]) {
					return
				}
			}
			return
		}
		for _, idx := range list[lowerBound(list, start):] {
			if e := &s.events[idx]; item.matches(e) && !fn(e) {
				return
			}
		}
		return
	}
	// Several items: gather each item's candidates, then visit the union in position order.
	var union []int32
	for i := range q.Items {
		item := &q.Items[i]
		list, all := s.candidates(item)
		if all {
			for idx := start; int(idx) < len(s.events); idx++ {
				if q.matchesAny(&s.events[idx]) && !fn(&s.events[idx]) {
					return
				}
			}
			return
		}
		for _, idx := range list[lowerBound(list, start):] {
			if item.matches(&s.events[idx]) {
				union = append(union, idx)
			}
		}
	}
	sort.Slice(union, func(i, j int) bool { return union[i] < union[j] })
	prev := int32(-1)
	for _, idx := range union {
		if idx == prev {
			continue
		}
		prev = idx
		if !fn(&s.events[idx]) {
			return
		}
	}
}

func (q *Query) matchesAny(e *Event) bool {
	for i := range q.Items {
		if q.Items[i].matches(e) {
			return true
		}
	}
	return len(q.Items) == 0
}

func lowerBound(list []int32, v int32) int {
	return sort.Search(len(list), func(i int) bool { return list[i] >= v })
}

// Project folds the events matching q into state, returning the state and the position of the last
// event folded (the position a later AppendIf should be conditioned on).
func Project[S any](s *Store, q Query, initial S, fold func(S, *Event) S) (S, int64) {
	state := initial
	var last int64
	s.Read(q, 0, func(e *Event) bool {
		state = fold(state, e)
		last = e.Position
		return true
	})
	return state, last
}
