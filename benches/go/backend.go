package perfbench

// EventStore is what the web app and the backend-neutral benchmarks need from a DCB event store: the in-memory
// Store (through MemoryBackend) or the PostgreSQL-backed PgStore.
type EventStore interface {
	Append(events []Event) (int64, error)
	AppendIf(events []Event, cond AppendCondition) (int64, error)
	ReadAll(q Query, after int64) ([]Event, error)
	Head() (int64, error)
}

// MemoryBackend adapts the in-memory Store, whose operations cannot fail, to EventStore.
type MemoryBackend struct{ S *Store }

func (m MemoryBackend) Append(events []Event) (int64, error) { return m.S.Append(events), nil }

func (m MemoryBackend) AppendIf(events []Event, cond AppendCondition) (int64, error) {
	return m.S.AppendIf(events, cond)
}

func (m MemoryBackend) ReadAll(q Query, after int64) ([]Event, error) {
	return m.S.ReadAll(q, after), nil
}

func (m MemoryBackend) Head() (int64, error) { return m.S.Head(), nil }
