using System.Globalization;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using Npgsql;
using PerfService.Data;
using PerfService.Hosting.Http;

namespace PerfService.Dashboard;

internal sealed record CompareSide(
    string Spec,
    string? Commit,
    long ProfileId,
    string Profile,
    IReadOnlyList<long> Runs
);

/// <summary>
/// Two points of a project's history side by side. A side is a run (<c>run:123</c>, <c>#123</c> or a plain number) or a
/// commit (a sha or a unique prefix of at least 4 characters: all its runs on the profile, any branch or role). Several
/// runs of one side are summarised by the median of their values per benchmark × measure.
/// </summary>
internal sealed class CompareQuery(PerfDbContext db, NpgsqlDataSource dataSource)
{
    public async Task<(CompareDto? Result, ProblemHttpResult? Problem)> CompareAsync(
        long projectId,
        string baseSpec,
        string headSpec,
        string? profile,
        CancellationToken ct
    )
    {
        long? profileId = null;
        if (profile is not null)
        {
            profileId = await db
                .Profiles.Where(p => p.Name == profile)
                .Select(p => (long?)p.Id)
                .FirstOrDefaultAsync(ct);
            if (profileId is null)
                return (null, Problems.NotFound($"profile '{profile}' is unknown"));
        }
        // A run fixes the profile for the other side when none is given: results compare only within one profile.
        profileId ??= await RunProfileAsync(projectId, headSpec, ct) ?? await RunProfileAsync(projectId, baseSpec, ct);

        var (head, headProblem) = await ResolveAsync(projectId, headSpec, profileId, ct);
        if (head is null)
            return (null, headProblem);
        var (@base, baseProblem) = await ResolveAsync(projectId, baseSpec, profileId ?? head.ProfileId, ct);
        if (@base is null)
            return (null, baseProblem);
        return (new CompareDto(ToDto(@base), ToDto(head), await RowsAsync(@base.Runs, head.Runs, ct)), null);
    }

    private static CompareSideDto ToDto(CompareSide s) => new(s.Spec, s.Commit, s.Profile, s.Runs);

    private static long? RunId(string spec)
    {
        var text =
            spec.StartsWith("run:", StringComparison.OrdinalIgnoreCase) ? spec[4..]
            : spec.StartsWith('#') ? spec[1..]
            : spec;
        var explicitRun = text.Length != spec.Length;
        // A bare number is a run id; shas of up to 10 decimal digits only would be ambiguous and are read as run ids
        // too.
        return
            (explicitRun || text.Length <= 10)
            && long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var id)
            ? id
            : null;
    }

    private async Task<long?> RunProfileAsync(long projectId, string spec, CancellationToken ct) =>
        RunId(spec) is { } id
            ? await db
                .Runs.Where(r => r.Id == id && r.ProjectId == projectId)
                .Select(r => (long?)r.ProfileId)
                .FirstOrDefaultAsync(ct)
            : null;

    private async Task<(CompareSide? Side, ProblemHttpResult? Problem)> ResolveAsync(
        long projectId,
        string spec,
        long? profileId,
        CancellationToken ct
    )
    {
        if (RunId(spec) is { } runId)
        {
            var run = await db
                .Runs.AsNoTracking()
                .Where(r => r.Id == runId && r.ProjectId == projectId)
                .Select(r => new
                {
                    r.ProfileId,
                    Sha = r.Commit!.Sha,
                    Profile = r.Profile!.Name,
                })
                .FirstOrDefaultAsync(ct);
            return run is null
                ? (null, Problems.NotFound($"run {runId} is not in this project"))
                : (new CompareSide(spec, run.Sha, run.ProfileId, run.Profile, [runId]), null);
        }

        var prefix = spec.Trim().ToLowerInvariant();
        if (prefix.Length is < 4 or > 64 || !prefix.All(char.IsAsciiHexDigit))
            return (
                null,
                Problems.BadRequest($"'{spec}' is neither a run id nor a commit sha (at least 4 hex digits)")
            );
        var commits = await db
            .Commits.AsNoTracking()
            .Where(c => c.ProjectId == projectId && c.Sha.StartsWith(prefix))
            .OrderBy(c => c.Sha)
            .Select(c => new { c.Id, c.Sha })
            .Take(2)
            .ToListAsync(ct);
        if (commits.Count != 1)
            return (
                null,
                commits.Count == 0
                    ? Problems.NotFound($"no commit {spec} in this project")
                    : Problems.BadRequest($"commit prefix {spec} is ambiguous")
            );
        var commit = commits[0];
        var runs = await db
            .Runs.AsNoTracking()
            .Where(r => r.CommitId == commit.Id && (profileId == null || r.ProfileId == profileId))
            .OrderByDescending(r => r.CreatedAt)
            .Select(r => new { r.Id, r.ProfileId })
            .ToListAsync(ct);
        if (runs.Count == 0)
            return (null, Problems.NotFound($"commit {commit.Sha} has no runs on this profile"));
        var chosen = profileId ?? runs[0].ProfileId;
        var name = await db.Profiles.Where(p => p.Id == chosen).Select(p => p.Name).FirstAsync(ct);
        return (
            new CompareSide(
                spec,
                commit.Sha,
                chosen,
                name,
                runs.Where(r => r.ProfileId == chosen).Select(r => r.Id).ToList()
            ),
            null
        );
    }

    internal const string RowsSql = """
        WITH b AS (SELECT benchmark_id, measure_id, percentile_cont(0.5) WITHIN GROUP (ORDER BY value) AS v
                   FROM results WHERE run_id = ANY($1) AND value IS NOT NULL GROUP BY benchmark_id, measure_id),
             h AS (SELECT benchmark_id, measure_id, percentile_cont(0.5) WITHIN GROUP (ORDER BY value) AS v
                   FROM results WHERE run_id = ANY($2) AND value IS NOT NULL GROUP BY benchmark_id, measure_id)
        SELECT bm.id, bm.key, m.name AS measure, m.unit, m.direction, b.v AS base, h.v AS head
        FROM b FULL JOIN h ON h.benchmark_id = b.benchmark_id AND h.measure_id = b.measure_id
        JOIN benchmarks bm ON bm.id = coalesce(b.benchmark_id, h.benchmark_id)
        JOIN measures m ON m.id = coalesce(b.measure_id, h.measure_id)
        ORDER BY bm.key, m.name
        """;

    private async Task<List<CompareRowDto>> RowsAsync(
        IReadOnlyList<long> baseRuns,
        IReadOnlyList<long> headRuns,
        CancellationToken ct
    )
    {
        await using var cmd = dataSource.CreateCommand(RowsSql);
        cmd.Parameters.Add(new() { Value = baseRuns.ToArray() });
        cmd.Parameters.Add(new() { Value = headRuns.ToArray() });
        var rows = new List<CompareRowDto>();
        await using var reader = await cmd.ExecuteReaderAsync(ct);
        var (id, key, measure) = (reader.GetOrdinal("id"), reader.GetOrdinal("key"), reader.GetOrdinal("measure"));
        var (unit, direction) = (reader.GetOrdinal("unit"), reader.GetOrdinal("direction"));
        var (baseValue, headValue) = (reader.GetOrdinal("base"), reader.GetOrdinal("head"));
        while (await reader.ReadAsync(ct))
        {
            double? b = reader.IsDBNull(baseValue) ? null : reader.GetDouble(baseValue);
            double? h = reader.IsDBNull(headValue) ? null : reader.GetDouble(headValue);
            double? change = b is { } bv && h is { } hv && bv != 0 ? (hv - bv) / Math.Abs(bv) * 100 : null;
            rows.Add(
                new CompareRowDto(
                    reader.GetInt64(id),
                    reader.GetString(key),
                    reader.GetString(measure),
                    reader.GetString(unit),
                    reader.GetString(direction),
                    b,
                    h,
                    change
                )
            );
        }
        return rows;
    }
}
