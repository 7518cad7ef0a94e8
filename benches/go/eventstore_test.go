package perfbench

import (
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"
)

// Benchmarks of the in-memory DCB event store, shaped after a Go DCB library's suite: appends in batches
// of 1/10/100/1000 events, conditional appends, reads by simple and complex queries, projections and
// concurrent appends, over a "small" data set (1,000 courses, 10,000 students, 50,000 enrollments)
// generated once up front so that no benchmark formats data in its timed loop.

const (
	courses     = 1000
	students    = 10000
	enrollments = 50000
)

// pregenerated events for appends: a cycle of course/student registrations and enrollments.
var (
	appendPoolOnce sync.Once
	appendPool     []Event

	smallOnce  sync.Once
	smallStore *Store
)

func eventsFor(n int) []Event {
	appendPoolOnce.Do(func() {
		appendPool = make([]Event, 4096)
		for i := range appendPool {
			c, s := i%courses, (i*7)%students
			appendPool[i] = Event{
				Type: "StudentEnrolledInCourse",
				Tags: []string{"course:" + strconv.Itoa(c), "student:" + strconv.Itoa(s)},
				Data: []byte(fmt.Sprintf(`{"courseId":"c%d","studentId":"s%d","at":"2025-08-24T10:00:00Z"}`, c, s)),
			}
		}
	})
	return appendPool[:n]
}

// small is the shared, read-only data set for read and projection benchmarks.
func small() *Store {
	smallOnce.Do(func() {
		s := NewStore()
		batch := make([]Event, 0, 1000)
		flush := func() { s.Append(batch); batch = batch[:0] }
		for c := 0; c < courses; c++ {
			batch = append(batch, Event{Type: "CourseDefined", Tags: []string{"course:" + strconv.Itoa(c)},
				Data: []byte(fmt.Sprintf(`{"id":"c%d","capacity":%d}`, c, 30+c%50))})
			if len(batch) == cap(batch) {
				flush()
			}
		}
		for st := 0; st < students; st++ {
			batch = append(batch, Event{Type: "StudentRegistered", Tags: []string{"student:" + strconv.Itoa(st)},
				Data: []byte(fmt.Sprintf(`{"id":"s%d"}`, st))})
			if len(batch) == cap(batch) {
				flush()
			}
		}
		for e := 0; e < enrollments; e++ {
			c, st := (e*31)%courses, (e*17)%students
			batch = append(batch, Event{Type: "StudentEnrolledInCourse",
				Tags: []string{"course:" + strconv.Itoa(c), "student:" + strconv.Itoa(st)},
				Data: []byte(fmt.Sprintf(`{"courseId":"c%d","studentId":"s%d"}`, c, st))})
			if len(batch) == cap(batch) {
				flush()
			}
		}
		flush()
		smallStore = s
	})
	return smallStore
}

// keep results alive so the compiler cannot drop the work.
var sink int64

// resetAfter is the store size after which an append benchmark starts a fresh store (timer stopped): small
// enough that slice and map growth and GC work are the same in every sample, whatever b.N is.
const resetAfter = 16384

func BenchmarkAppend(b *testing.B) {
	for _, size := range []int{1, 10, 100, 1000} {
		events := eventsFor(size)
		b.Run("batch="+strconv.Itoa(size), func(b *testing.B) {
			store := NewStore()
			measure(b, func(n int) {
				for i := 0; i < n; i++ {
					sink += store.Append(events)
					if store.Len() >= resetAfter {
						b.StopTimer()
						store = NewStore()
						b.StartTimer()
					}
				}
			})
		})
	}
}

// AppendIf: the decision model reads a course's enrollments, then appends conditioned on none having
// been appended since (no conflict on this path).
func BenchmarkAppendIf(b *testing.B) {
	for _, size := range []int{1, 10, 100} {
		events := eventsFor(size)
		b.Run("batch="+strconv.Itoa(size), func(b *testing.B) {
			store := NewStore()
			store.Append(eventsFor(1000))
			cond := Query{Items: []QueryItem{{Types: []string{"CourseCapacityChanged"}, Tags: []string{"course:7"}}}}
			measure(b, func(n int) {
				for i := 0; i < n; i++ {
					pos, err := store.AppendIf(events, AppendCondition{FailIfEventsMatch: cond, After: store.Head()})
					if err != nil {
						b.Fatal(err)
					}
					sink += pos
					if store.Len() >= resetAfter {
						b.StopTimer()
						store = NewStore()
						b.StartTimer()
					}
				}
			})
		})
	}
}

func BenchmarkRead(b *testing.B) {
	s := small()
	queries := []struct {
		name string
		q    Query
	}{
		// All events of one course (its definition and ~50 enrollments).
		{"simple", Query{Items: []QueryItem{{Tags: []string{"course:42"}}}}},
		// A decision model's query: the course's definition and enrollments, plus the student's.
		{"complex", Query{Items: []QueryItem{
			{Types: []string{"CourseDefined", "StudentEnrolledInCourse"}, Tags: []string{"course:42"}},
			{Types: []string{"StudentRegistered", "StudentEnrolledInCourse"}, Tags: []string{"student:4242"}},
		}}},
		// Every course definition.
		{"by_type", Query{Items: []QueryItem{{Types: []string{"CourseDefined"}}}}},
	}
	for _, tc := range queries {
		q := tc.q
		b.Run(tc.name, func(b *testing.B) {
			measure(b, func(n int) {
				for i := 0; i < n; i++ {
					count := 0
					s.Read(q, 0, func(*Event) bool { count++; return true })
					sink += int64(count)
				}
			})
		})
	}
}

func BenchmarkProjection(b *testing.B) {
	s := small()
	courseQuery := Query{Items: []QueryItem{{Types: []string{"StudentEnrolledInCourse"}, Tags: []string{"course:42"}}}}
	studentQuery := Query{Items: []QueryItem{{Types: []string{"StudentEnrolledInCourse"}, Tags: []string{"student:4242"}}}}
	definedQuery := Query{Items: []QueryItem{{Types: []string{"CourseDefined"}, Tags: []string{"course:42"}}}}
	count := func(n int, _ *Event) int { return n + 1 }

	b.Run("single", func(b *testing.B) {
		measure(b, func(n int) {
			for i := 0; i < n; i++ {
				enrolled, _ := Project(s, courseQuery, 0, count)
				sink += int64(enrolled)
			}
		})
	})
	// Three projections a "enroll student" decision needs: course exists, course fill, student load.
	b.Run("multiple", func(b *testing.B) {
		measure(b, func(n int) {
			for i := 0; i < n; i++ {
				exists, _ := Project(s, definedQuery, false, func(bool, *Event) bool { return true })
				enrolled, _ := Project(s, courseQuery, 0, count)
				load, _ := Project(s, studentQuery, 0, count)
				if exists {
					sink += int64(enrolled + load)
				}
			}
		})
	})
}

// ConcurrentAppends: 10 users each append one enrollment per operation, concurrently.
func BenchmarkConcurrentAppends(b *testing.B) {
	const users = 10
	b.Run("users="+strconv.Itoa(users), func(b *testing.B) {
		store := NewStore()
		events := eventsFor(users)
		measure(b, func(n int) {
			for i := 0; i < n; i++ {
				var wg sync.WaitGroup
				wg.Add(users)
				for u := 0; u < users; u++ {
					go func(u int) {
						defer wg.Done()
						store.Append(events[u : u+1])
					}(u)
				}
				wg.Wait()
				if store.Len() >= resetAfter {
					b.StopTimer()
					store = NewStore()
					b.StartTimer()
				}
			}
		})
	})
}

func TestStoreQueriesAndConditions(t *testing.T) {
	s := NewStore()
	s.Append([]Event{
		{Type: "CourseDefined", Tags: []string{"course:1"}},
		{Type: "StudentRegistered", Tags: []string{"student:1"}},
		{Type: "StudentEnrolledInCourse", Tags: []string{"course:1", "student:1"}},
		{Type: "StudentEnrolledInCourse", Tags: []string{"course:2", "student:1"}},
	})
	got := func(q Query, after int64) []int64 {
		var ps []int64
		for _, e := range s.ReadAll(q, after) {
			ps = append(ps, e.Position)
		}
		return ps
	}
	eq := func(a, b []int64) bool { return fmt.Sprint(a) == fmt.Sprint(b) }
	if p := got(Query{Items: []QueryItem{{Tags: []string{"course:1"}}}}, 0); !eq(p, []int64{1, 3}) {
		t.Fatalf("tag query: %v", p)
	}
	if p := got(Query{Items: []QueryItem{{Tags: []string{"course:1", "student:1"}}}}, 0); !eq(p, []int64{3}) {
		t.Fatalf("two tags: %v", p)
	}
	complexQ := Query{Items: []QueryItem{{Types: []string{"CourseDefined"}}, {Tags: []string{"student:1"}}}}
	if p := got(complexQ, 0); !eq(p, []int64{1, 2, 3, 4}) {
		t.Fatalf("union: %v", p)
	}
	if p := got(complexQ, 2); !eq(p, []int64{3, 4}) {
		t.Fatalf("after: %v", p)
	}
	if p := got(Query{}, 3); !eq(p, []int64{4}) {
		t.Fatalf("all after 3: %v", p)
	}
	n, last := Project(s, Query{Items: []QueryItem{{Types: []string{"StudentEnrolledInCourse"}}}}, 0,
		func(n int, _ *Event) int { return n + 1 })
	if n != 2 || last != 4 {
		t.Fatalf("projection: %d %d", n, last)
	}
	cond := AppendCondition{FailIfEventsMatch: Query{Items: []QueryItem{{Tags: []string{"course:2"}}}}, After: 3}
	if _, err := s.AppendIf([]Event{{Type: "X"}}, cond); err != ErrConcurrency {
		t.Fatalf("expected a conflict, got %v", err)
	}
	cond.After = 4
	if pos, err := s.AppendIf([]Event{{Type: "X"}}, cond); err != nil || pos != 5 {
		t.Fatalf("expected success at 5, got %d %v", pos, err)
	}
}

func TestSlowdownParsing(t *testing.T) {
	e := parseSlowdown("BenchmarkAppend=40, BenchmarkRead/simple=10%;batch=1000=5,filter/n=10=7,bad,x=y")
	cases := map[string]float64{
		"BenchmarkAppend/batch=10":       40,
		"BenchmarkRead/simple":           10,
		"BenchmarkRead/complex":          0,
		"BenchmarkAppendIf/batch=1000":   5,
		"BenchmarkMessaging/direct/n=10": 0,
		"BenchmarkMessaging/filter/n=10": 7,
	}
	for name, want := range cases {
		if got := slowdownIn(e, name); got != want {
			t.Errorf("%s: got %v want %v", name, got, want)
		}
	}
}

func TestStretchAddsThePercentage(t *testing.T) {
	start := time.Now()
	for time.Since(start) < 2*time.Millisecond {
	}
	total := stretch(start, 50)
	if total < 3*time.Millisecond {
		t.Fatalf("stretch(50%%) after 2 ms of work took %v in all", total)
	}
}
