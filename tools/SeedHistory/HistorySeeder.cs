using System.Diagnostics;
using Npgsql;
using NpgsqlTypes;

namespace PerfService.SeedHistory;

/// <summary>
/// Seeds one large project: dimension rows with server-side statements, then every result through binary COPY in
/// commit order (as ingest writes them). The results table's secondary indexes and foreign keys are dropped for the
/// load and rebuilt afterwards from their own definitions (one sorted build each is many times faster than 50 M
/// random inserts), so the database ends up exactly as migrated. VACUUM ANALYZE at the end sets the visibility map
/// that the series read's index-only scan needs, as autovacuum would in a live service.
/// </summary>
public sealed class HistorySeeder(SeedOptions o, TextWriter log)
{
    private readonly Stopwatch _clock = Stopwatch.StartNew();

    public async Task RunAsync()
    {
        await PerfService.Migrations.DatabaseMigrator.MigrateAsync(o.Connection, step => Say($"migrate: {step}"));
        var builder = new NpgsqlConnectionStringBuilder(o.Connection) { CommandTimeout = 0 };
        await using var conn = new NpgsqlConnection(builder.ConnectionString);
        await conn.OpenAsync();
        await ExecAsync(conn, "SET maintenance_work_mem = '512MB'; SET synchronous_commit = off");

        if (await ScalarAsync<long>(conn, "SELECT count(*) FROM results") > 0)
            throw new InvalidOperationException("results is not empty: seed into an empty database of its own");
        var ids = await DimensionsAsync(conn);
        Say($"{o.Commits:N0} commits × {o.Profiles} profiles = {o.Commits * o.Profiles:N0} runs of {o.Benchmarks:N0} benchmarks");

        var definitions = await DropSecondaryAsync(conn);
        await CopyResultsAsync(conn, ids);
        foreach (var sql in definitions)
        {
            Say($"rebuild: {sql[..Math.Min(sql.Length, 110)]}");
            await ExecAsync(conn, sql);
        }
        Say("vacuum analyze");
        foreach (var sql in new[] { "VACUUM ANALYZE results", "VACUUM ANALYZE runs", "ANALYZE" }) await ExecAsync(conn, sql);
        Say($"done: {await ScalarAsync<long>(conn, "SELECT count(*) FROM results"):N0} results, results table {await ScalarAsync<string>(conn, "SELECT pg_size_pretty(pg_total_relation_size('results'))")}");
    }

    private sealed record Ids(long MeasureId, long BranchId, long[] Benchmarks, long[] Profiles, long FirstRun, DateTimeOffset Start);

    private async Task<Ids> DimensionsAsync(NpgsqlConnection conn)
    {
        var project = await ScalarAsync<long>(conn, """
            INSERT INTO projects (slug, name, default_branch, is_public, created_at) VALUES ($1, $1, 'main', true, now()) RETURNING id
            """, o.Project);
        var branch = await ScalarAsync<long>(conn, "INSERT INTO branches (project_id, name) VALUES ($1, 'main') RETURNING id", project);
        var suite = await ScalarAsync<long>(conn, "INSERT INTO suites (project_id, name, harness) VALUES ($1, 'history', 'bdn') RETURNING id", project);
        var measure = await ScalarAsync<long>(conn, """
            INSERT INTO measures (name, unit, direction) VALUES ('time', 'ns', 'LowerIsBetter')
            ON CONFLICT (name, unit) DO UPDATE SET unit = excluded.unit RETURNING id
            """);
        await ExecAsync(conn, $"""
            INSERT INTO profiles (name) SELECT 'history-' || i FROM generate_series(1, {o.Profiles}) i
            WHERE (SELECT count(*) FROM profiles) < {o.Profiles} ON CONFLICT DO NOTHING
            """);
        var profiles = await ListAsync(conn, $"SELECT id FROM profiles ORDER BY id LIMIT {o.Profiles}");
        await ExecAsync(conn, $"""
            INSERT INTO benchmarks (suite_id, key, name, parameters, job)
            SELECT {suite}, 'History.Suite' || (i / 100) || '.Method' || (i % 100) || '(N: ' || (i % 7) || ')',
                   'History.Suite' || (i / 100) || '.Method' || (i % 100), jsonb_build_object('N', (i % 7)::text), '.NET 10.0'
            FROM generate_series(0, {o.Benchmarks - 1}) i
            """);
        var benchmarks = await ListAsync(conn, $"SELECT id FROM benchmarks WHERE suite_id = {suite} ORDER BY id");

        // One commit every CommitHours, ending now; runs are numbered commit-major so run id = first + c × profiles + p.
        var start = DateTimeOffset.UtcNow.AddHours(-o.CommitHours * o.Commits);
        await ExecAsync(conn, $"""
            INSERT INTO commits (project_id, sha, committed_at, first_seen_at, on_default_branch, message)
            SELECT {project}, md5('{o.Project}' || c) || substr(md5('x' || c), 1, 8), $1 + c * interval '{o.CommitHours} hours',
                   $1 + c * interval '{o.CommitHours} hours', true, 'commit ' || c
            FROM generate_series(0, {o.Commits - 1}) c
            """, start);
        Say("commits inserted");
        var firstRun = await ScalarAsync<long>(conn, "SELECT coalesce(max(id), 0) + 1 FROM runs");
        await ExecAsync(conn, $"""
            INSERT INTO runs (id, project_id, commit_id, branch_id, profile_id, suite_id, role, round, format, profile_mismatch,
                              environment, created_at, finished_at, result_count, failed_count)
            OVERRIDING SYSTEM VALUE
            SELECT {firstRun} + (c.n * {o.Profiles}) + p.ord - 1, {project}, c.id, {branch}, p.id, {suite}, 'head', 0, 'bdn', false,
                   '{"{}"}', c.committed_at + interval '1 hour', c.committed_at + interval '1 hour', {o.Benchmarks}, 0
            FROM (SELECT id, committed_at, row_number() OVER (ORDER BY committed_at) - 1 AS n FROM commits WHERE project_id = {project}) c
            CROSS JOIN (SELECT id, row_number() OVER (ORDER BY id) AS ord FROM profiles WHERE id = ANY($1)) p
            """, profiles);
        await ExecAsync(conn, "SELECT setval(pg_get_serial_sequence('runs', 'id'), (SELECT max(id) FROM runs))");
        Say("runs inserted");
        return new Ids(measure, branch, benchmarks, profiles, firstRun, start);
    }

    /// <summary>Drops results' indexes other than the primary key, and its foreign keys; returns the statements that
    /// recreate them (indexes first, then the constraints, which validate against the finished table).</summary>
    private async Task<List<string>> DropSecondaryAsync(NpgsqlConnection conn)
    {
        var indexes = new List<(string Name, string Sql)>();
        await using (var cmd = new NpgsqlCommand("""
            SELECT i.relname, pg_get_indexdef(i.oid) FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
            WHERE x.indrelid = 'results'::regclass AND NOT x.indisprimary
            """, conn))
        await using (var reader = await cmd.ExecuteReaderAsync())
            while (await reader.ReadAsync()) indexes.Add((reader.GetString(0), reader.GetString(1)));
        var constraints = new List<(string Name, string Sql)>();
        await using (var cmd = new NpgsqlCommand("""
            SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'results'::regclass AND contype = 'f'
            """, conn))
        await using (var reader = await cmd.ExecuteReaderAsync())
            while (await reader.ReadAsync()) constraints.Add((reader.GetString(0), reader.GetString(1)));
        foreach (var (name, _) in constraints) await ExecAsync(conn, $"ALTER TABLE results DROP CONSTRAINT {name}");
        foreach (var (name, _) in indexes) await ExecAsync(conn, $"DROP INDEX {name}");
        return [.. indexes.Select(i => i.Sql), .. constraints.Select(c => $"ALTER TABLE results ADD CONSTRAINT {c.Name} {c.Sql}")];
    }

    private async Task CopyResultsAsync(NpgsqlConnection conn, Ids ids)
    {
        var random = new Random(42);
        // Each benchmark has its own level, noise and a few steps over the years (what change-point detection looks for).
        var level = ids.Benchmarks.Select(_ => Math.Exp(random.NextDouble() * 12)).ToArray();
        var samples = new double[o.Samples];
        long written = 0, total = o.Commits * o.Profiles * o.Benchmarks;
        const int CommitsPerCopy = 200;
        for (long c0 = 0; c0 < o.Commits; c0 += CommitsPerCopy)
        {
            await using var copy = await conn.BeginBinaryImportAsync("""
                COPY results (run_id, benchmark_id, measure_id, profile_id, branch_id, series_at, value, mean, median, std_dev, min, max,
                              ci_lower, ci_upper, sample_count, samples) FROM STDIN (FORMAT BINARY)
                """);
            for (var c = c0; c < Math.Min(o.Commits, c0 + CommitsPerCopy); c++)
            {
                var at = ids.Start.AddHours(o.CommitHours * c);
                if (c % 1000 == 999) level[random.Next(level.Length)] *= 1.1 + random.NextDouble() * 0.2;
                for (var p = 0; p < o.Profiles; p++)
                {
                    var run = ids.FirstRun + c * o.Profiles + p;
                    for (var b = 0; b < ids.Benchmarks.Length; b++)
                    {
                        var mean = level[b] * (1 + p * 0.3);
                        double sum = 0, min = double.MaxValue, max = double.MinValue;
                        for (var i = 0; i < samples.Length; i++)
                        {
                            samples[i] = mean * (1 + (random.NextDouble() - 0.5) * 0.04);
                            sum += samples[i];
                            min = Math.Min(min, samples[i]);
                            max = Math.Max(max, samples[i]);
                        }
                        var avg = samples.Length > 0 ? sum / samples.Length : mean;
                        copy.StartRow();
                        copy.Write(run, NpgsqlDbType.Bigint);
                        copy.Write(ids.Benchmarks[b], NpgsqlDbType.Bigint);
                        copy.Write(ids.MeasureId, NpgsqlDbType.Bigint);
                        copy.Write(ids.Profiles[p], NpgsqlDbType.Bigint);
                        copy.Write(ids.BranchId, NpgsqlDbType.Bigint);
                        copy.Write(at, NpgsqlDbType.TimestampTz);
                        copy.Write(avg, NpgsqlDbType.Double);
                        copy.Write(avg, NpgsqlDbType.Double);
                        copy.Write(avg, NpgsqlDbType.Double);
                        copy.Write(mean * 0.01, NpgsqlDbType.Double);
                        copy.Write(samples.Length > 0 ? min : avg, NpgsqlDbType.Double);
                        copy.Write(samples.Length > 0 ? max : avg, NpgsqlDbType.Double);
                        copy.Write(avg * 0.995, NpgsqlDbType.Double);
                        copy.Write(avg * 1.005, NpgsqlDbType.Double);
                        copy.Write(o.Samples, NpgsqlDbType.Integer);
                        if (samples.Length > 0) copy.Write(samples, NpgsqlDbType.Array | NpgsqlDbType.Double);
                        else copy.WriteNull();
                    }
                }
            }
            await copy.CompleteAsync();
            written += (Math.Min(o.Commits, c0 + CommitsPerCopy) - c0) * o.Profiles * o.Benchmarks;
            Say($"results: {written:N0} / {total:N0} ({written / Math.Max(1, _clock.Elapsed.TotalSeconds):N0}/s overall)");
        }
    }

    private void Say(string message) => log.WriteLine($"seed-history [{_clock.Elapsed:hh\\:mm\\:ss}] {message}");

    private static async Task ExecAsync(NpgsqlConnection conn, string sql, params object[] args)
    {
        await using var cmd = new NpgsqlCommand(sql, conn);
        foreach (var a in args) cmd.Parameters.Add(new NpgsqlParameter { Value = a });
        await cmd.ExecuteNonQueryAsync();
    }

    private static async Task<T> ScalarAsync<T>(NpgsqlConnection conn, string sql, params object[] args)
    {
        await using var cmd = new NpgsqlCommand(sql, conn);
        foreach (var a in args) cmd.Parameters.Add(new NpgsqlParameter { Value = a });
        return (T)(await cmd.ExecuteScalarAsync())!;
    }

    private static async Task<long[]> ListAsync(NpgsqlConnection conn, string sql)
    {
        var list = new List<long>();
        await using var cmd = new NpgsqlCommand(sql, conn);
        await using var reader = await cmd.ExecuteReaderAsync();
        while (await reader.ReadAsync()) list.Add(reader.GetInt64(0));
        return [.. list];
    }
}
