using System.Data;
using System.Text.Json;
using Npgsql;
using NpgsqlTypes;
using PerfService.Core.Contracts;
using PerfService.Core.Disturbances;
using PerfService.Core.Results;

namespace PerfService.Ingestion;

/// <summary>
/// Writes a run in one transaction, set-based: dimension rows (branch, commit, suite, benchmarks, measures) are
/// upserted in a handful of statements, and results and artifacts go through binary COPY, the fastest path into
/// PostgreSQL. A concurrent post with the same idempotency key loses the race on the unique index and returns the
/// winner's run.
/// </summary>
public sealed class RunWriter(NpgsqlDataSource dataSource, TimeProvider time)
{
    private readonly BenchmarkIds _benchmarkIds = new();

    public async Task<RunCreated?> FindByKeyAsync(long projectId, string key, CancellationToken ct)
    {
        // Asked before every keyed post, and almost always answered "none": a bare lookup, with the counts only for a
        // run found. In one statement with them, PostgreSQL planned the counts' subqueries anew on most calls.
        await using var conn = await dataSource.OpenConnectionAsync(ct);
        var runId = await ScalarAsync<long?>(
            conn,
            "SELECT id FROM runs WHERE project_id = $1 AND idempotency_key = $2",
            ct,
            projectId,
            key
        );
        if (runId is not { } id)
            return null;
        await using var cmd = new NpgsqlCommand(
            "SELECT count(DISTINCT benchmark_id) AS benchmarks, count(*) AS results FROM results WHERE run_id = $1",
            conn
        );
        cmd.Parameters.Add(new() { Value = id });
        await using var reader = await cmd.ExecuteReaderAsync(ct);
        await reader.ReadAsync(ct);
        return new RunCreated(id, true, (int)reader.GetInt64("benchmarks"), (int)reader.GetInt64("results"));
    }

    public async Task<RunCreated> WriteAsync(RunWrite w, CancellationToken ct)
    {
        try
        {
            return await WriteOnceAsync(w, ct);
        }
        catch (PostgresException e)
            when (e.SqlState == PostgresErrorCodes.ForeignKeyViolation && _benchmarkIds.Count > 0)
        {
            // A remembered benchmark id no longer exists (an operator deleted the row by hand): forget them all and
            // write again with fresh lookups. The failed transaction stored nothing.
            _benchmarkIds.Clear();
            return await WriteOnceAsync(w, ct);
        }
    }

    private async Task<RunCreated> WriteOnceAsync(RunWrite w, CancellationToken ct)
    {
        await using var conn = await dataSource.OpenConnectionAsync(ct);
        await using var tx = await conn.BeginTransactionAsync(ct);
        try
        {
            await using (
                var memory = new NpgsqlCommand(
                    $"SET LOCAL work_mem = '{TransitionTableMemory.KilobytesFor(w.Parsed.Results)}kB'",
                    conn
                )
            )
                await memory.ExecuteNonQueryAsync(ct);
            var m = w.Metadata;
            var now = time.GetUtcNow();
            var role = RunRoles.Parse(m.Role);
            // Base rounds of a pull-request job measure the base commit for that comparison only: they stay out of
            // every branch's history.
            long? branchId =
                m.Branch is null || role == RunRole.Base
                    ? null
                    : await UpsertBranchAsync(conn, w.ProjectId, m.Branch, ct);
            var (commitId, seriesAt) = await UpsertCommitAsync(
                conn,
                w.ProjectId,
                m.Commit,
                m.CommittedAt,
                m.CommitMessage,
                now,
                ct
            );
            long? baseCommitId = m.BaseCommit is null
                ? null
                : (await UpsertCommitAsync(conn, w.ProjectId, m.BaseCommit, null, null, now, ct)).Id;
            var suiteId = await UpsertSuiteAsync(conn, w.ProjectId, m.Suite ?? "default", w.Parsed.Format, ct);
            long? agentId = m.JobId is { } jobId
                ? await JobHold.CheckAsync(conn, jobId, w.ProjectId, w.ProjectSlug, m.Agent, w.Poster, ct)
                : await AgentOfPosterAsync(conn, m.Agent, w.Poster, ct);

            var environment = Environment(w);
            var leftOut =
                m.Disturbance?.Disturbed == true && await LeaveOutOfSeriesAsync(conn, w.ProjectId, w.ProfileId, ct);
            var runId = await ScalarAsync<long>(
                conn,
                """
                INSERT INTO runs (project_id, commit_id, branch_id, pull_request, base_commit_id, profile_id, agent_id, job_id, suite_id,
                                  role, round, format, profile_mismatch, environment, environment_fingerprint, idempotency_key,
                                  started_at, finished_at, created_at, result_count, failed_count, declared_targets, disturbed, disturbance)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::jsonb, $15, $16, $17, $18, $19, $20, $21, $22::jsonb,
                        $23, $24::jsonb)
                RETURNING id
                """,
                ct,
                w.ProjectId,
                commitId,
                branchId,
                m.PullRequest,
                baseCommitId,
                w.ProfileId,
                agentId,
                m.JobId,
                suiteId,
                role.Name(),
                m.Round ?? 0,
                w.Parsed.Format,
                m.ProfileMismatch,
                JsonSerializer.Serialize(environment),
                EnvironmentFingerprint.Compute(environment),
                w.IdempotencyKey,
                m.StartedAt,
                m.FinishedAt ?? now,
                now,
                w.Parsed.Results.Count,
                w.Parsed.Results.Count(r => r.Failed),
                m.Targets is { Count: > 0 } declared
                    ? JsonSerializer.Serialize(declared, Core.Suites.SuiteManifest.Json)
                    : null,
                leftOut,
                m.Disturbance is { } d ? JsonSerializer.Serialize(d, JsonSerializerOptions.Web) : null
            );

            // A result's key is built from its name, parameters and job: build each once.
            var keys = w.Parsed.Results.Select(r => r.Key).ToArray();
            var (benchmarkOf, looked, distinct) = await UpsertBenchmarksAsync(
                conn,
                suiteId,
                w.Parsed.Results,
                keys,
                _benchmarkIds,
                ct
            );
            var measureIds = await UpsertMeasuresAsync(conn, w.Parsed.Results, ct);
            await CopyResultsAsync(conn, runId, w, branchId, seriesAt, benchmarkOf, measureIds, ct);
            await CopyArtifactsAsync(conn, runId, w, now, ct);
            if (w.DeclaresProjectTargets)
                await UpsertTargetsAsync(conn, w.ProjectId, suiteId, m.Targets, now, ct);
            await tx.CommitAsync(ct);
            _benchmarkIds.Remember(suiteId, looked);
            return new RunCreated(runId, false, distinct, w.Parsed.Results.Count);
        }
        catch (PostgresException e)
            when (e.SqlState == PostgresErrorCodes.UniqueViolation && e.ConstraintName?.Contains("idempotency") == true)
        {
            await tx.RollbackAsync(CancellationToken.None);
            return await FindByKeyAsync(w.ProjectId, w.IdempotencyKey!, ct)
                ?? throw new InvalidOperationException("idempotency race lost to a run that vanished");
        }
    }

    /// <summary>
    /// A run without a job is attributed to the agent it names only when the posting token may act for that agent (it
    /// registered it, or it is an admin of the whole service); any other name, including another project's private
    /// agent, leaves the run unattributed, so a token can neither borrow another machine's name nor learn whether it
    /// exists.
    /// </summary>
    private static Task<long?> AgentOfPosterAsync(
        NpgsqlConnection conn,
        string? name,
        RunPoster poster,
        CancellationToken ct
    ) =>
        name is null
            ? Task.FromResult<long?>(null)
            : ScalarAsync<long?>(
                conn,
                "SELECT id FROM agents WHERE name = $1 AND ($2 OR token_id = $3)",
                ct,
                name,
                poster.Admin && poster.ProjectId is null,
                poster.TokenId
            );

    /// <summary>Whether a disturbed run stays out of change points and baselines (<see
    /// cref="DisturbedRounds.LeaveOutOfSeries"/>),
    /// from the profile's measured runs among the project's 50 latest (a bounded read of the project's newest-runs
    /// index).</summary>
    private static async Task<bool> LeaveOutOfSeriesAsync(
        NpgsqlConnection conn,
        long projectId,
        long profileId,
        CancellationToken ct
    )
    {
        var counts = await ScalarAsync<int[]>(
            conn,
            """
            SELECT ARRAY[count(*) FILTER (WHERE (r.disturbance->>'disturbed')::boolean), count(*)]::int[]
            FROM (SELECT profile_id, disturbance FROM runs WHERE project_id = $1 ORDER BY created_at DESC LIMIT 50) r
            WHERE r.profile_id = $2 AND r.disturbance IS NOT NULL
            """,
            ct,
            projectId,
            profileId
        );
        return DisturbedRounds.LeaveOutOfSeries(true, counts[0], counts[1]);
    }

    private static Dictionary<string, string> Environment(RunWrite w)
    {
        var env = new Dictionary<string, string>(w.Parsed.Environment);
        foreach (var (k, v) in w.Metadata.Environment ?? new Dictionary<string, string>())
            env[k] = v;
        return env;
    }

    // Dimension rows are looked up first and inserted only when missing. An "ON CONFLICT DO UPDATE" would lock the
    // shared row until this transaction commits and serialise every concurrent ingest of the project behind it.
    private static async Task<long> UpsertBranchAsync(
        NpgsqlConnection conn,
        long projectId,
        string name,
        CancellationToken ct
    ) =>
        await ScalarAsync<long?>(
            conn,
            "SELECT id FROM branches WHERE project_id = $1 AND name = $2",
            ct,
            projectId,
            name
        )
        ?? await ScalarAsync<long?>(
            conn,
            "INSERT INTO branches (project_id, name) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING id",
            ct,
            projectId,
            name
        )
        ?? await ScalarAsync<long>(
            conn,
            "SELECT id FROM branches WHERE project_id = $1 AND name = $2",
            ct,
            projectId,
            name
        );

    private static async Task<(long Id, DateTimeOffset SeriesAt)> UpsertCommitAsync(
        NpgsqlConnection conn,
        long projectId,
        string sha,
        DateTimeOffset? committedAt,
        string? message,
        DateTimeOffset now,
        CancellationToken ct
    )
    {
        await using var cmd = new NpgsqlCommand(
            """
            INSERT INTO commits (project_id, sha, committed_at, message, first_seen_at) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (project_id, sha) DO UPDATE
              SET committed_at = coalesce(commits.committed_at, excluded.committed_at), message = coalesce(commits.message, excluded.message)
            RETURNING id, coalesce(committed_at, first_seen_at) AS series_at
            """,
            conn
        );
        foreach (var v in new object?[] { projectId, sha.ToLowerInvariant(), committedAt, message, now })
            cmd.Parameters.Add(new NpgsqlParameter { Value = v ?? DBNull.Value });
        await using var reader = await cmd.ExecuteReaderAsync(ct);
        await reader.ReadAsync(ct);
        return (reader.GetInt64("id"), reader.GetFieldValue<DateTimeOffset>("series_at"));
    }

    private static async Task<long> UpsertSuiteAsync(
        NpgsqlConnection conn,
        long projectId,
        string name,
        string harness,
        CancellationToken ct
    ) =>
        await ScalarAsync<long?>(conn, "SELECT id FROM suites WHERE project_id = $1 AND name = $2", ct, projectId, name)
        ?? await ScalarAsync<long?>(
            conn,
            "INSERT INTO suites (project_id, name, harness) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING id",
            ct,
            projectId,
            name,
            harness
        )
        ?? await ScalarAsync<long>(
            conn,
            "SELECT id FROM suites WHERE project_id = $1 AND name = $2",
            ct,
            projectId,
            name
        );

    // Known ids first (this process's memory of committed rows), then one lookup of the rest, then an insert of what is
    // still missing: a suite's benchmarks rarely change from run to run, and a lookup of 10,000 keys costs a fraction
    // of an INSERT … ON CONFLICT that parses every parameters object and probes every key. Returns each result's
    // benchmark id, the ids read from the database (to remember once committed) and how many distinct benchmarks.
    private static async Task<(long[] Of, Dictionary<string, long> Looked, int Distinct)> UpsertBenchmarksAsync(
        NpgsqlConnection conn,
        long suiteId,
        IReadOnlyList<BenchmarkResult> results,
        string[] keys,
        BenchmarkIds known,
        CancellationToken ct
    )
    {
        const string Lookup = "SELECT key, id FROM benchmarks WHERE suite_id = $1 AND key = ANY($2)";
        var of = new long[keys.Length];
        var unknown = new Dictionary<string, BenchmarkResult>();
        for (var i = 0; i < keys.Length; i++)
        {
            if (known.TryGet(suiteId, keys[i], out var id))
                of[i] = id;
            else
                unknown.TryAdd(keys[i], results[i]);
        }
        var looked = new Dictionary<string, long>();
        if (unknown.Count > 0)
        {
            foreach (var (key, id) in await ReadIdsAsync(conn, Lookup, ct, [suiteId, unknown.Keys.ToArray()]))
                looked[key] = id;
            var missing = unknown.Where(u => !looked.ContainsKey(u.Key)).ToList();
            if (missing.Count > 0)
            {
                await using (
                    var insert = new NpgsqlCommand(
                        """
                        INSERT INTO benchmarks (suite_id, key, name, parameters, job)
                        SELECT $1, k, n, p::jsonb, j FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS t(k, n, p, j)
                        ON CONFLICT (suite_id, key) DO NOTHING
                        """,
                        conn
                    )
                )
                {
                    insert.Parameters.Add(new() { Value = suiteId });
                    insert.Parameters.Add(new() { Value = missing.Select(m => m.Key).ToArray() });
                    insert.Parameters.Add(new() { Value = missing.Select(m => m.Value.Name).ToArray() });
                    insert.Parameters.Add(
                        new() { Value = missing.Select(m => ParametersJson(m.Value.Parameters)).ToArray() }
                    );
                    insert.Parameters.Add(
                        new()
                        {
                            Value = missing.Select(m => m.Value.Job).ToArray(),
                            NpgsqlDbType = NpgsqlDbType.Array | NpgsqlDbType.Text,
                        }
                    );
                    await insert.ExecuteNonQueryAsync(ct);
                }
                // Read back rather than RETURNING: a concurrent ingest may have inserted some of them (DO NOTHING
                // returns no row).
                foreach (
                    var (key, id) in await ReadIdsAsync(
                        conn,
                        Lookup,
                        ct,
                        [suiteId, missing.Select(m => m.Key).ToArray()]
                    )
                )
                    looked[key] = id;
            }
            for (var i = 0; i < keys.Length; i++)
                if (of[i] == 0)
                    of[i] = looked[keys[i]];
        }
        return (of, looked, new HashSet<long>(of).Count);
    }

    private static async Task<Dictionary<(string Measure, string Unit), long>> UpsertMeasuresAsync(
        NpgsqlConnection conn,
        IReadOnlyList<BenchmarkResult> results,
        CancellationToken ct
    )
    {
        const string Lookup =
            "SELECT name || '|' || unit AS key, id FROM measures WHERE (name || '|' || unit) = ANY($1)";
        var distinct = results.DistinctBy(r => (r.Measure, r.Unit)).ToList();
        var ids = await ReadIdsAsync(conn, Lookup, ct, [distinct.Select(r => MeasureKey(r)).ToArray()]);
        var missing = distinct.Where(r => !ids.ContainsKey(MeasureKey(r))).ToList();
        if (missing.Count == 0)
            return ByMeasure(distinct, ids);
        await using (
            var insert = new NpgsqlCommand(
                """
                INSERT INTO measures (name, unit, direction)
                SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT (name, unit) DO NOTHING
                """,
                conn
            )
        )
        {
            insert.Parameters.Add(new() { Value = missing.Select(r => r.Measure).ToArray() });
            insert.Parameters.Add(new() { Value = missing.Select(r => r.Unit).ToArray() });
            insert.Parameters.Add(new() { Value = missing.Select(r => r.Direction.ToString()).ToArray() });
            await insert.ExecuteNonQueryAsync(ct);
        }
        foreach (var (key, id) in await ReadIdsAsync(conn, Lookup, ct, [missing.Select(r => MeasureKey(r)).ToArray()]))
            ids[key] = id;
        return ByMeasure(distinct, ids);
    }

    // Looked up per row by (measure, unit) rather than by a joined string, which would allocate one per result.
    private static Dictionary<(string, string), long> ByMeasure(
        List<BenchmarkResult> distinct,
        Dictionary<string, long> ids
    ) => distinct.ToDictionary(r => (r.Measure, r.Unit), r => ids[MeasureKey(r)]);

    private static async Task CopyResultsAsync(
        NpgsqlConnection conn,
        long runId,
        RunWrite w,
        long? branchId,
        DateTimeOffset seriesAt,
        long[] benchmarkOf,
        Dictionary<(string Measure, string Unit), long> measureIds,
        CancellationToken ct
    )
    {
        await using var copy = await conn.BeginBinaryImportAsync(
            """
            COPY results (run_id, benchmark_id, measure_id, profile_id, branch_id, series_at, value, mean, median, std_dev, min, max,
                          ci_lower, ci_upper, sample_count, samples, error) FROM STDIN (FORMAT BINARY)
            """,
            ct
        );
        for (var i = 0; i < w.Parsed.Results.Count; i++)
        {
            var r = w.Parsed.Results[i];
            var s = r.Summary;
            await copy.StartRowAsync(ct);
            await copy.WriteAsync(runId, NpgsqlDbType.Bigint, ct);
            await copy.WriteAsync(benchmarkOf[i], NpgsqlDbType.Bigint, ct);
            await copy.WriteAsync(measureIds[(r.Measure, r.Unit)], NpgsqlDbType.Bigint, ct);
            await copy.WriteAsync(w.ProfileId, NpgsqlDbType.Bigint, ct);
            await WriteNullable(copy, branchId, NpgsqlDbType.Bigint, ct);
            await copy.WriteAsync(seriesAt, NpgsqlDbType.TimestampTz, ct);
            await WriteNullable(copy, r.Value, NpgsqlDbType.Double, ct);
            await WriteNullable(copy, s?.Mean, NpgsqlDbType.Double, ct);
            await WriteNullable(copy, s?.Median, NpgsqlDbType.Double, ct);
            await WriteNullable(copy, s?.StdDev, NpgsqlDbType.Double, ct);
            await WriteNullable(copy, s?.Min, NpgsqlDbType.Double, ct);
            await WriteNullable(copy, s?.Max, NpgsqlDbType.Double, ct);
            await WriteNullable(copy, s?.CiLower, NpgsqlDbType.Double, ct);
            await WriteNullable(copy, s?.CiUpper, NpgsqlDbType.Double, ct);
            await copy.WriteAsync(r.Samples?.Count ?? s?.N ?? 0, NpgsqlDbType.Integer, ct);
            await WriteNullable(
                copy,
                r.Samples is { Count: > 0 } ? r.Samples as double[] ?? r.Samples.ToArray() : null,
                NpgsqlDbType.Array | NpgsqlDbType.Double,
                ct
            );
            await WriteNullable(copy, r.Error, NpgsqlDbType.Text, ct);
        }
        await copy.CompleteAsync(ct);
    }

    private static async Task CopyArtifactsAsync(
        NpgsqlConnection conn,
        long runId,
        RunWrite w,
        DateTimeOffset now,
        CancellationToken ct
    )
    {
        await using var copy = await conn.BeginBinaryImportAsync(
            "COPY artifacts (run_id, path, size, sha256, content_gzip, created_at) FROM STDIN (FORMAT BINARY)",
            ct
        );
        foreach (var file in w.Files)
        {
            await copy.StartRowAsync(ct);
            await copy.WriteAsync(runId, NpgsqlDbType.Bigint, ct);
            await copy.WriteAsync(file.Path, NpgsqlDbType.Text, ct);
            await copy.WriteAsync((long)file.Content.Length, NpgsqlDbType.Bigint, ct);
            await copy.WriteAsync(
                System.Security.Cryptography.SHA256.HashData(file.Content.Span),
                NpgsqlDbType.Bytea,
                ct
            );
            await copy.WriteAsync(Gzip.Compress(file.Content.Span), NpgsqlDbType.Bytea, ct);
            await copy.WriteAsync(now, NpgsqlDbType.TimestampTz, ct);
        }
        await copy.CompleteAsync(ct);
    }

    /// <summary>The suite's targets as the default branch's perf.json declares them at this commit: the latest
    /// declaration wins. Other runs keep theirs on the run (runs.declared_targets), judged for that run
    /// alone.</summary>
    private static async Task UpsertTargetsAsync(
        NpgsqlConnection conn,
        long projectId,
        long suiteId,
        IReadOnlyList<Core.Suites.TargetDeclaration>? targets,
        DateTimeOffset now,
        CancellationToken ct
    )
    {
        if (targets is null || targets.Count == 0)
            return;
        await using var cmd = new NpgsqlCommand(
            """
            INSERT INTO targets (project_id, suite_id, name, definition, created_at)
            SELECT $1, $2, n, d::jsonb, $5 FROM unnest($3::text[], $4::text[]) AS t(n, d)
            ON CONFLICT (project_id, suite_id, name) DO UPDATE SET definition = excluded.definition
            """,
            conn
        );
        var distinct = targets.DistinctBy(t => t.Name).ToList();
        cmd.Parameters.Add(new() { Value = projectId });
        cmd.Parameters.Add(new() { Value = suiteId });
        cmd.Parameters.Add(new() { Value = distinct.Select(t => t.Name).ToArray() });
        cmd.Parameters.Add(
            new()
            {
                Value = distinct.Select(t => JsonSerializer.Serialize(t, Core.Suites.SuiteManifest.Json)).ToArray(),
            }
        );
        cmd.Parameters.Add(new() { Value = now });
        await cmd.ExecuteNonQueryAsync(ct);
    }

    private static Task WriteNullable<T>(
        NpgsqlBinaryImporter copy,
        T? value,
        NpgsqlDbType type,
        CancellationToken ct
    ) => value is null ? copy.WriteNullAsync(ct) : copy.WriteAsync(value, type, ct);

    private static string MeasureKey(BenchmarkResult r) => r.Measure + "|" + r.Unit;

    private static string ParametersJson(IReadOnlyList<KeyValuePair<string, string>> parameters) =>
        JsonSerializer.Serialize(parameters.ToDictionary(p => p.Key, p => p.Value));

    /// <summary>Ids by key, from a lookup whose columns are <c>key</c> and <c>id</c>.</summary>
    private static async Task<Dictionary<string, long>> ReadIdsAsync(
        NpgsqlConnection conn,
        string sql,
        CancellationToken ct,
        object[] args
    )
    {
        await using var cmd = new NpgsqlCommand(sql, conn);
        foreach (var a in args)
            cmd.Parameters.Add(new NpgsqlParameter { Value = a });
        var ids = new Dictionary<string, long>();
        await using var reader = await cmd.ExecuteReaderAsync(ct);
        var (key, id) = (reader.GetOrdinal("key"), reader.GetOrdinal("id"));
        while (await reader.ReadAsync(ct))
            ids[reader.GetString(key)] = reader.GetInt64(id);
        return ids;
    }

    private static async Task<T> ScalarAsync<T>(
        NpgsqlConnection conn,
        string sql,
        CancellationToken ct,
        params object?[] args
    )
    {
        await using var cmd = new NpgsqlCommand(sql, conn);
        foreach (var a in args)
            cmd.Parameters.Add(new NpgsqlParameter { Value = a ?? DBNull.Value });
        var result = await cmd.ExecuteScalarAsync(ct);
        return result is null or DBNull ? default! : (T)result;
    }
}
