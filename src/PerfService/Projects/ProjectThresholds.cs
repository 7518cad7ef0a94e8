using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using PerfService.Access;
using PerfService.Data;
using PerfService.Data.Configurations;
using PerfService.Data.Entities;

namespace PerfService.Projects;

/// <summary>A project's threshold overrides for pull-request verdicts: read like the project, replaced as a whole by
/// admins.</summary>
public static class ProjectThresholds
{
    private const int MaxRules = 1000;
    private const double MaxThreshold = 10;

    public static async Task<Results<Ok<ThresholdOverridesDto>, NotFound>> GetAsync(
        PerfDbContext db,
        HttpContext http,
        CancellationToken ct
    ) => TypedResults.Ok(await ReadAsync(db, http.Project().Id, ct)); // {slug} resolved and checked by ProjectAccess

    public static async Task<Results<Ok<ThresholdOverridesDto>, ValidationProblem, NotFound>> ReplaceAsync(
        string slug,
        ReplaceThresholdsRequest request,
        PerfDbContext db,
        TimeProvider time,
        CancellationToken ct
    )
    {
        var errors = Validate(request);
        if (errors.Count > 0)
            return TypedResults.ValidationProblem(errors);

        await using var tx = await db.Database.BeginTransactionAsync(ct);
        // The project row lock serialises replacements: two concurrent ones would otherwise both delete the old list
        // (neither sees the other's new rows) and leave the union of both new lists.
        var locked = await db
            .Database.SqlQuery<long>($"""SELECT id AS "Value" FROM projects WHERE slug = {slug} FOR UPDATE""")
            .ToListAsync(ct);
        if (locked.Count == 0)
            return TypedResults.NotFound();
        var projectId = locked[0];

        await db.ThresholdOverrides.Where(t => t.ProjectId == projectId).ExecuteDeleteAsync(ct);
        var now = time.GetUtcNow();
        db.ThresholdOverrides.AddRange(
            request.Thresholds!.Select(r => new ThresholdOverride
            {
                ProjectId = projectId,
                Pattern = r!.Pattern!.Trim(),
                Measure = Measure(r.Measure),
                Threshold = r.Threshold!.Value,
                CreatedAt = now,
            })
        );
        await db.SaveChangesAsync(ct);
        await tx.CommitAsync(ct);
        return TypedResults.Ok(await ReadAsync(db, projectId, ct));
    }

    // In the order they were given: the list reads back as it was written.
    private static async Task<ThresholdOverridesDto> ReadAsync(
        PerfDbContext db,
        long projectId,
        CancellationToken ct
    ) =>
        new(
            await db
                .ThresholdOverrides.AsNoTracking()
                .Where(t => t.ProjectId == projectId)
                .OrderBy(t => t.Id)
                .Select(t => new ThresholdOverrideDto(t.Pattern, t.Measure, t.Threshold))
                .ToListAsync(ct)
        );

    private static Dictionary<string, string[]> Validate(ReplaceThresholdsRequest request)
    {
        var errors = new Dictionary<string, string[]>();
        if (request.Thresholds is not { } rules)
        {
            errors["thresholds"] = ["is required: the whole new list (empty to remove every override)"];
            return errors;
        }
        if (rules.Count > MaxRules)
            errors["thresholds"] = [$"at most {MaxRules} entries"];

        var seen = new Dictionary<(string, string), int>();
        for (var i = 0; i < rules.Count; i++)
        {
            var field = $"thresholds[{i}]";
            if (rules[i] is not { } rule)
            {
                errors[field] = ["must be an object with pattern, threshold and optionally measure"];
                continue;
            }
            var pattern = rule.Pattern?.Trim();
            if (
                string.IsNullOrEmpty(pattern)
                || pattern.Length > ThresholdOverrideConfiguration.MaxPattern
                || pattern.Any(char.IsControl)
            )
                errors[$"{field}.pattern"] =
                [
                    $"1 to {ThresholdOverrideConfiguration.MaxPattern} printable characters: a benchmark key, or a glob with * and ?",
                ];
            if (rule.Threshold is not { } t || !double.IsFinite(t) || t <= 0 || t > MaxThreshold)
                errors[$"{field}.threshold"] =
                [
                    $"a relative change greater than 0 and at most {MaxThreshold} (0.10 = 10%)",
                ];
            var measure = Measure(rule.Measure);
            if (
                measure is { Length: > ThresholdOverrideConfiguration.MaxMeasure }
                || measure?.Any(char.IsControl) == true
            )
                errors[$"{field}.measure"] =
                [
                    $"at most {ThresholdOverrideConfiguration.MaxMeasure} printable characters (e.g. time, alloc), or omitted for every measure",
                ];
            if (string.IsNullOrEmpty(pattern))
                continue;
            // Measures match case-insensitively, so "Time" and "time" would be the same rule twice.
            var key = (pattern, measure?.ToLowerInvariant() ?? "");
            if (seen.TryGetValue(key, out var first))
                errors[field] = [$"repeats the pattern and measure of thresholds[{first}]"];
            else
                seen[key] = i;
        }
        return errors;
    }

    private static string? Measure(string? measure) => string.IsNullOrWhiteSpace(measure) ? null : measure.Trim();
}
