package perfbench

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"testing"
	"time"
)

// TestMain declares, in benchfmt's unit metadata, that the web app's success rate is higher-is-better (any other
// custom unit not ending in "/s" is read as lower-is-better).
func TestMain(m *testing.M) {
	fmt.Println("Unit success-% better=higher")
	os.Exit(m.Run())
}

// VUs is the number of virtual users of the web-app load benchmark: PERF_BENCH_VUS, default 100 (the seed's).
func VUs() int {
	if n, err := strconv.Atoi(os.Getenv("PERF_BENCH_VUS")); err == nil && n > 0 {
		return n
	}
	return 100
}

type scenario struct {
	name    string
	request func(client *http.Client, url string, vu, i int) bool
}

func post(client *http.Client, url, body string, want int) bool {
	resp, err := client.Post(url, "application/json", bytes.NewBufferString(body))
	if err != nil {
		return false
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode == want
}

// The seed's web-app scenarios: append one enrollment; conditional append (conditioned on the user's own
// student tag, so concurrent users never conflict and every request should succeed); read a course's events.
var scenarios = []scenario{
	{"append", func(c *http.Client, url string, vu, i int) bool {
		return post(c, url+"/append", fmt.Sprintf(`{"events":[{"type":"StudentEnrolledInCourse","tags":["course:%d","student:%d"],"data":{"n":%d}}]}`, i%courses, vu, i), 200)
	}},
	{"appendif", func(c *http.Client, url string, vu, i int) bool {
		return post(c, url+"/append", fmt.Sprintf(`{"events":[{"type":"StudentEnrolledInCourse","tags":["course:%d","student:vu%d"]}],`+
			`"condition":{"failIfEventsMatch":{"items":[{"types":["StudentLeft"],"tags":["student:vu%d"]}]},"after":0}}`, i%courses, vu, vu), 200)
	}},
	{"read", func(c *http.Client, url string, vu, i int) bool {
		return post(c, url+"/read", fmt.Sprintf(`{"query":{"items":[{"tags":["course:%d"]}]}}`, (vu*7+i)%courses), 200)
	}},
}

func seed(store EventStore) error {
	var batch []Event
	for c := 0; c < courses; c++ {
		batch = append(batch, Event{Type: "CourseDefined", Tags: []string{"course:" + strconv.Itoa(c)}, Data: []byte(`{"capacity":30}`)})
	}
	_, err := store.Append(batch)
	return err
}

// BenchmarkWebApp load-tests the HTTP API at VUs() virtual users over the in-memory store and, with PERF_BENCH_PG
// set, over PostgreSQL. Each op is one request; custom metrics: req/s, latency percentiles (p50-ms … p99-ms) and
// success-% of the requests of the run.
func BenchmarkWebApp(b *testing.B) {
	vus := VUs()
	backends := []struct {
		name string
		open func() (EventStore, func(), error)
	}{
		{"memory", func() (EventStore, func(), error) { return MemoryBackend{NewStore()}, func() {}, nil }},
		{"postgres", func() (EventStore, func(), error) {
			if PgDSN() == "" {
				return nil, nil, nil
			}
			s, err := OpenPg(PgDSN())
			if err != nil {
				return nil, nil, err
			}
			return s, func() { s.Close() }, nil
		}},
	}
	for _, backend := range backends {
		b.Run(backend.name, func(b *testing.B) {
			store, closeStore, err := backend.open()
			if err != nil {
				b.Fatal(err)
			}
			if store == nil {
				b.Skipf("%s is not set: the PostgreSQL-backed web app is skipped", PgVariable)
			}
			defer closeStore()
			if err := seed(store); err != nil {
				b.Fatal(err)
			}
			server := httptest.NewServer(NewWebApp(store))
			defer server.Close()
			client := &http.Client{Transport: &http.Transport{MaxIdleConns: vus, MaxIdleConnsPerHost: vus}}
			defer client.CloseIdleConnections()
			for _, sc := range scenarios {
				sc := sc
				b.Run(sc.name+"/vus="+strconv.Itoa(vus), func(b *testing.B) {
					var res LoadResult
					elapsed := measure(b, func(n int) {
						res = RunLoad(vus, n, func(vu, i int) bool { return sc.request(client, server.URL, vu, i) })
					})
					b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
					for _, p := range []float64{50, 90, 95, 99} {
						b.ReportMetric(float64(res.Percentile(p).Microseconds())/1000, "p"+strconv.Itoa(int(p))+"-ms")
					}
					b.ReportMetric(res.SuccessRate(), "success-%")
				})
			}
		})
	}
}

// BenchmarkPostgres: the seed's library benchmarks (append batches, conditional append, reads, projection) on the
// PostgreSQL-backed store. Skipped, saying so, without PERF_BENCH_PG.
func BenchmarkPostgres(b *testing.B) {
	dsn := PgDSN()
	if dsn == "" {
		b.Skipf("%s is not set: the PostgreSQL-backed event store benchmarks are skipped", PgVariable)
	}
	store, err := OpenPg(dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	if err := seed(store); err != nil {
		b.Fatal(err)
	}
	for e := 0; e < 5000; e += 1000 { // enrollments for reads and projections (~5 per course)
		batch := make([]Event, 1000)
		for i := range batch {
			c, st := ((e+i)*31)%courses, ((e+i)*17)%students
			batch[i] = Event{Type: "StudentEnrolledInCourse", Tags: []string{"course:" + strconv.Itoa(c), "student:" + strconv.Itoa(st)}, Data: []byte(`{}`)}
		}
		if _, err := store.Append(batch); err != nil {
			b.Fatal(err)
		}
	}
	if err := store.Analyze(); err != nil {
		b.Fatal(err)
	}
	// Reads and projections first, on the seeded data set: the appends below grow the courses' event lists.
	simple := Query{Items: []QueryItem{{Tags: []string{"course:42"}}}}
	b.Run("read/simple", func(b *testing.B) {
		measure(b, func(n int) {
			for i := 0; i < n; i++ {
				if _, err := store.ReadAll(simple, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
	enrolled := Query{Items: []QueryItem{{Types: []string{"StudentEnrolledInCourse"}, Tags: []string{"course:42"}}}}
	b.Run("projection/single", func(b *testing.B) {
		measure(b, func(n int) {
			for i := 0; i < n; i++ {
				events, err := store.ReadAll(enrolled, 0)
				if err != nil {
					b.Fatal(err)
				}
				sink += int64(len(events))
			}
		})
	})
	for _, size := range []int{1, 10, 100, 1000} {
		events := eventsFor(size)
		b.Run("append/batch="+strconv.Itoa(size), func(b *testing.B) {
			measure(b, func(n int) {
				for i := 0; i < n; i++ {
					if _, err := store.Append(events); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
	for _, size := range []int{10, 100} {
		events := eventsFor(size)
		cond := Query{Items: []QueryItem{{Types: []string{"CourseCapacityChanged"}, Tags: []string{"course:7"}}}}
		b.Run("appendif/batch="+strconv.Itoa(size), func(b *testing.B) {
			measure(b, func(n int) {
				for i := 0; i < n; i++ {
					head, err := store.Head()
					if err == nil {
						_, err = store.AppendIf(events, AppendCondition{FailIfEventsMatch: cond, After: head})
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

func TestWebAppServesEveryRequestAtFullLoad(t *testing.T) {
	store := MemoryBackend{NewStore()}
	if err := seed(store); err != nil {
		t.Fatal(err)
	}
	server := httptest.NewServer(NewWebApp(store))
	defer server.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 100}}
	for _, sc := range scenarios {
		res := RunLoad(100, 500, func(vu, i int) bool { return sc.request(client, server.URL, vu, i) })
		if res.SuccessRate() != 100 || res.Percentile(99) < res.Percentile(50) {
			t.Fatalf("%s: success %.1f%%, p50 %v, p99 %v", sc.name, res.SuccessRate(), res.Percentile(50), res.Percentile(99))
		}
	}
	// A failed condition is a 409, and counts as a failure.
	if post(client, server.URL+"/append", `{"events":[{"type":"X","tags":["course:1"]}],"condition":{"failIfEventsMatch":{"items":[{"tags":["course:1"]}]},"after":0}}`, 200) {
		t.Fatal("a conditional append against existing events succeeded")
	}
}

func TestPercentilesAreNearestRank(t *testing.T) {
	r := LoadResult{Requests: 4, Succeeded: 3}
	for i := 100; i >= 1; i-- { // 100 µs … 1 µs, unsorted
		r.latencies = append(r.latencies, time.Duration(i)*time.Microsecond)
	}
	if r.Percentile(50) != 50*time.Microsecond || r.Percentile(99) != 99*time.Microsecond || r.SuccessRate() != 75 {
		t.Fatalf("p50 %v p99 %v success %v", r.Percentile(50), r.Percentile(99), r.SuccessRate())
	}
}

func TestPostgresStoreKeepsDCBSemantics(t *testing.T) {
	if PgDSN() == "" {
		t.Skipf("%s is not set", PgVariable)
	}
	s, err := OpenPg(PgDSN())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pos, err := s.Append([]Event{{Type: "CourseDefined", Tags: []string{"course:1"}}, {Type: "StudentEnrolledInCourse", Tags: []string{"course:1", "student:1"}}})
	if err != nil || pos != 2 {
		t.Fatalf("append: %d %v", pos, err)
	}
	got, err := s.ReadAll(Query{Items: []QueryItem{{Tags: []string{"course:1", "student:1"}}}}, 0)
	if err != nil || len(got) != 1 || got[0].Position != 2 || got[0].Type != "StudentEnrolledInCourse" {
		t.Fatalf("read: %+v %v", got, err)
	}
	cond := AppendCondition{FailIfEventsMatch: Query{Items: []QueryItem{{Tags: []string{"course:1"}}}}, After: 1}
	if _, err := s.AppendIf([]Event{{Type: "X"}}, cond); err != ErrConcurrency {
		t.Fatalf("expected a conflict, got %v", err)
	}
	cond.After = 2
	if pos, err := s.AppendIf([]Event{{Type: "X"}}, cond); err != nil || pos != 3 {
		t.Fatalf("expected success at 3, got %d %v", pos, err)
	}
}

func TestNpgsqlConnectionStringsBecomeLibPqDSNs(t *testing.T) {
	t.Setenv(PgVariable, "Host=127.0.0.1;Port=54320;Username=postgres;Database=postgres;Pooling=true")
	if got := PgDSN(); got != "host='127.0.0.1' port='54320' user='postgres' dbname='postgres' sslmode=disable" {
		t.Fatal(got)
	}
	t.Setenv(PgVariable, "postgres://u@h/db")
	if PgDSN() != "postgres://u@h/db" {
		t.Fatal(PgDSN())
	}
}
