package perfbench

import (
	"database/sql"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/lib/pq"
)

// PgVariable names the database the PostgreSQL-backed benchmarks use. It takes the same value as the .NET
// persistence suite's variable, an Npgsql connection string ("Host=…;Port=…;Username=…;Database=…"), or a
// lib/pq DSN or URL. Unset: those benchmarks are skipped and say so.
const PgVariable = "PERF_BENCH_PG"

// PgDSN turns PERF_BENCH_PG into a lib/pq connection string ("" when unset).
func PgDSN() string {
	raw := strings.TrimSpace(os.Getenv(PgVariable))
	if raw == "" || strings.Contains(raw, "://") || !strings.Contains(raw, ";") {
		return raw // unset, a URL, or already lib/pq's "host=… port=…"
	}
	keys := map[string]string{"host": "host", "server": "host", "port": "port", "username": "user", "user id": "user",
		"userid": "user", "user": "user", "password": "password", "database": "dbname", "sslmode": "sslmode", "ssl mode": "sslmode"}
	var parts []string
	ssl := false
	for _, kv := range strings.Split(raw, ";") {
		eq := strings.IndexByte(kv, '=')
		if eq <= 0 {
			continue
		}
		key, ok := keys[strings.ToLower(strings.TrimSpace(kv[:eq]))]
		if !ok {
			continue // pooling options and the like mean nothing to lib/pq
		}
		if key == "sslmode" {
			ssl = true
		}
		parts = append(parts, key+"='"+strings.ReplaceAll(strings.TrimSpace(kv[eq+1:]), "'", `\'`)+"'")
	}
	if !ssl {
		parts = append(parts, "sslmode=disable")
	}
	return strings.Join(parts, " ")
}

var pgTables int64

// PgStore is the DCB event store in PostgreSQL: one table of events (gap-free positions under a table lock, type,
// tags as text[] with a GIN index, data), queried with the same semantics as the in-memory Store. Appends and
// conditional appends take the table lock, so a condition's check and its insert are atomic.
type PgStore struct {
	db    *sql.DB
	table string
}

// OpenPg creates a fresh events table (dropped by Close) in the database the DSN names.
func OpenPg(dsn string) (*PgStore, error) {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(20)
	db.SetMaxIdleConns(20)
	table := fmt.Sprintf("perf_dcb_events_%d_%d", os.Getpid(), atomic.AddInt64(&pgTables, 1))
	_, err = db.Exec(`CREATE TABLE ` + table + ` (position bigint PRIMARY KEY, type text NOT NULL, tags text[] NOT NULL, data bytea NOT NULL);
		CREATE INDEX ON ` + table + ` USING gin (tags); CREATE INDEX ON ` + table + ` (type, position)`)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("creating %s: %w", table, err)
	}
	return &PgStore{db: db, table: table}, nil
}

// Analyze refreshes the planner's statistics after a bulk load, so reads use the indexes.
func (s *PgStore) Analyze() error {
	_, err := s.db.Exec(`ANALYZE ` + s.table)
	return err
}

// Close drops the table and closes the pool.
func (s *PgStore) Close() error {
	_, err := s.db.Exec(`DROP TABLE IF EXISTS ` + s.table)
	if cerr := s.db.Close(); err == nil {
		err = cerr
	}
	return err
}

func (s *PgStore) Append(events []Event) (int64, error) {
	return s.AppendIf(events, AppendCondition{After: -1})
}

// AppendIf checks the condition (After < 0: no condition) and inserts, in one transaction under the table lock.
func (s *PgStore) AppendIf(events []Event, cond AppendCondition) (int64, error) {
	tx, err := s.db.Begin()
	if err != nil {
		return 0, err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit this is a no-op
	if _, err := tx.Exec(`LOCK TABLE ` + s.table + ` IN SHARE ROW EXCLUSIVE MODE`); err != nil {
		return 0, err
	}
	if cond.After >= 0 {
		where, args := s.where(cond.FailIfEventsMatch, cond.After)
		var one int
		err := tx.QueryRow(`SELECT 1 FROM `+s.table+` WHERE `+where+` LIMIT 1`, args...).Scan(&one)
		if err == nil {
			return 0, ErrConcurrency
		}
		if err != sql.ErrNoRows {
			return 0, err
		}
	}
	types := make([]string, len(events))
	tags := make([]string, len(events))
	data := make([][]byte, len(events))
	for i, e := range events {
		types[i], tags[i], data[i] = e.Type, strings.Join(e.Tags, "\x1f"), e.Data
		if data[i] == nil {
			data[i] = []byte{}
		}
	}
	// One round trip for the batch: positions continue from the current head, tags travel joined by U+001F.
	var head int64
	err = tx.QueryRow(`WITH head AS (SELECT coalesce(max(position), 0) AS p FROM `+s.table+`),
		ins AS (INSERT INTO `+s.table+` (position, type, tags, data)
			SELECT head.p + e.ord, e.type, CASE WHEN e.tags = '' THEN '{}'::text[] ELSE string_to_array(e.tags, E'\x1f') END, e.data
			FROM head, unnest($1::text[], $2::text[], $3::bytea[]) WITH ORDINALITY AS e(type, tags, data, ord)
			RETURNING position)
		SELECT coalesce(max(position), (SELECT p FROM head)) FROM ins`,
		pq.Array(types), pq.Array(tags), pq.ByteaArray(data)).Scan(&head)
	if err != nil {
		return 0, err
	}
	return head, tx.Commit()
}

// where renders "position > after AND (item OR item…)"; an item is "type = ANY(…) AND tags @> …".
func (s *PgStore) where(q Query, after int64) (string, []interface{}) {
	args := []interface{}{after}
	var items []string
	for _, item := range q.Items {
		var conds []string
		if len(item.Types) > 0 {
			args = append(args, pq.Array(item.Types))
			conds = append(conds, "type = ANY($"+strconv.Itoa(len(args))+")")
		}
		if len(item.Tags) > 0 {
			args = append(args, pq.Array(item.Tags))
			conds = append(conds, "tags @> $"+strconv.Itoa(len(args))+"::text[]")
		}
		if len(conds) == 0 {
			conds = append(conds, "true")
		}
		items = append(items, "("+strings.Join(conds, " AND ")+")")
	}
	where := "position > $1"
	if len(items) > 0 {
		where += " AND (" + strings.Join(items, " OR ") + ")"
	}
	return where, args
}

func (s *PgStore) ReadAll(q Query, after int64) ([]Event, error) {
	where, args := s.where(q, after)
	rows, err := s.db.Query(`SELECT position, type, tags, data FROM `+s.table+` WHERE `+where+` ORDER BY position`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		var e Event
		if err := rows.Scan(&e.Position, &e.Type, pq.Array(&e.Tags), &e.Data); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

func (s *PgStore) Head() (int64, error) {
	var head int64
	err := s.db.QueryRow(`SELECT coalesce(max(position), 0) FROM ` + s.table).Scan(&head)
	return head, err
}
