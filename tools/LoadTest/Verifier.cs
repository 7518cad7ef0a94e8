using System.Text.Json;
using Npgsql;

namespace PerfService.LoadTest;

public sealed record Verification(
    int Planned, int Acknowledged, int Stored, int StoredWithoutAck, int Missing, int Partial, int Doubled, int WrongRunId,
    int Unknown, int ApiChecked, int ApiMismatches, IReadOnlyList<string> Findings, IReadOnlyDictionary<string, long> Background,
    double? AnalysisMeanMs)
{
    public bool Ok => Missing == 0 && Partial == 0 && Doubled == 0 && WrongRunId == 0 && Unknown == 0 && ApiMismatches == 0;
}

/// <summary>
/// After the load: the database (not the API under test) must hold every acknowledged run exactly once, under the id the
/// service gave, with every result and file; any other run of the project must be one whose answer was lost and still be
/// whole. A sample of runs is read back through GET /api/v1/runs/{id} too.
/// </summary>
public static class Verifier
{
    private sealed record Row(long Id, string? Key, int Results, int Artifacts);

    public static async Task<Verification> VerifyAsync(LoadOptions options, Ledger ledger, Http http, CancellationToken ct)
    {
        var findings = new List<string>();
        void Find(string what)
        {
            if (findings.Count < 20) findings.Add(what);
        }

        var rows = new List<Row>();
        await using var conn = new NpgsqlConnection(options.Database);
        await conn.OpenAsync(ct);
        await using (var cmd = new NpgsqlCommand("""
            SELECT r.id, r.idempotency_key,
                   (SELECT count(*) FROM results x WHERE x.run_id = r.id), (SELECT count(*) FROM artifacts a WHERE a.run_id = r.id)
            FROM runs r JOIN projects p ON p.id = r.project_id WHERE p.slug = $1
            """, conn))
        {
            cmd.Parameters.Add(new NpgsqlParameter { Value = options.Project });
            await using var reader = await cmd.ExecuteReaderAsync(ct);
            while (await reader.ReadAsync(ct))
                rows.Add(new Row(reader.GetInt64(0), reader.IsDBNull(1) ? null : reader.GetString(1), (int)reader.GetInt64(2), (int)reader.GetInt64(3)));
        }

        var byKey = rows.Where(r => r.Key is not null).GroupBy(r => r.Key!).ToDictionary(g => g.Key, g => g.ToList(), StringComparer.Ordinal);
        var planned = ledger.Runs.ToDictionary(r => r.Key, StringComparer.Ordinal);
        int acknowledged = 0, missing = 0, partial = 0, doubled = 0, wrongId = 0, withoutAck = 0;
        foreach (var run in planned.Values)
        {
            if (run.Acknowledged) acknowledged++;
            if (!byKey.TryGetValue(run.Key, out var stored))
            {
                if (run.Acknowledged)
                {
                    missing++;
                    Find($"{run.Key}: acknowledged as run {run.RunId}, not in the database");
                }
                continue;
            }
            if (stored.Count > 1)
            {
                doubled++;
                Find($"{run.Key}: stored {stored.Count} times");
            }
            var row = stored[0];
            if (!run.Acknowledged) withoutAck++;
            else if (row.Id != run.RunId)
            {
                wrongId++;
                Find($"{run.Key}: acknowledged as run {run.RunId}, stored as run {row.Id}");
            }
            if (row.Results != run.Payload.ExpectedResults || row.Artifacts != run.Payload.Files.Count)
            {
                partial++;
                Find($"{run.Key} (run {row.Id}, {run.Payload.Label}): {row.Results}/{run.Payload.ExpectedResults} results, {row.Artifacts}/{run.Payload.Files.Count} files");
            }
        }
        var unknown = rows.Count(r => r.Key is null || !planned.ContainsKey(r.Key));
        if (unknown > 0) Find($"{unknown} run(s) of the project that no client posted");

        // A sample read back through the API: the same results the database holds.
        var random = new Random(options.Seed);
        var sample = planned.Values.Where(r => r.Acknowledged).OrderBy(_ => random.Next()).Take(100).ToList();
        var apiMismatches = 0;
        foreach (var run in sample)
        {
            var body = await http.GetAsync("verify GET /runs/{id}", $"api/v1/runs/{run.RunId}", ct);
            var count = body is null ? -1 : CountResults(body);
            if (count == run.Payload.ExpectedResults) continue;
            apiMismatches++;
            Find($"GET /api/v1/runs/{run.RunId} ({run.Key}): {count} results, {run.Payload.ExpectedResults} expected");
        }

        return new Verification(planned.Count, acknowledged, rows.Count, withoutAck, missing, partial, doubled, wrongId, unknown,
            sample.Count, apiMismatches, findings, await BackgroundAsync(conn, ct), await AnalysisMeanAsync(conn, ct));
    }

    /// <summary>Mean PerformanceDuration (ms) of the succeeded background jobs, as Hangfire records it.</summary>
    private static async Task<double?> AnalysisMeanAsync(NpgsqlConnection conn, CancellationToken ct)
    {
        try
        {
            await using var cmd = new NpgsqlCommand(
                "SELECT avg(((data::jsonb) ->> 'PerformanceDuration')::float8) FROM hangfire.state WHERE name = 'Succeeded'", conn);
            return await cmd.ExecuteScalarAsync(ct) is double mean ? mean : null;
        }
        catch (PostgresException)
        {
            return null;
        }
    }

    private static int CountResults(string json)
    {
        using var doc = JsonDocument.Parse(json);
        return doc.RootElement.GetProperty("results").GetArrayLength();
    }

    /// <summary>Hangfire's jobs by state: how far the per-run analysis got behind the ingest.</summary>
    private static async Task<IReadOnlyDictionary<string, long>> BackgroundAsync(NpgsqlConnection conn, CancellationToken ct)
    {
        var states = new Dictionary<string, long>(StringComparer.Ordinal);
        try
        {
            await using var cmd = new NpgsqlCommand("SELECT coalesce(statename, '?'), count(*) FROM hangfire.job GROUP BY 1 ORDER BY 1", conn);
            await using var reader = await cmd.ExecuteReaderAsync(ct);
            while (await reader.ReadAsync(ct)) states[reader.GetString(0)] = reader.GetInt64(1);
        }
        catch (PostgresException)
        {
            // No Hangfire schema: nothing to report.
        }
        return states;
    }
}
