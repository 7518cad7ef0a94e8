// The tests kill and restart processes and PostgreSQL clusters and measure timing-dependent behaviour (leases,
// retries) on a small machine: one test at a time keeps them deterministic.
[assembly: CollectionBehavior(DisableTestParallelization = true)]
