using System.Text;
using PerfService.Core.Parsing.Common;
using PerfService.Core.Results;

namespace PerfService.Core.Parsing.Criterion;

/// <summary>
/// <c>cargo criterion --message-format=json</c>: one JSON object per line. Only "benchmark-complete" records carry
/// results; "group-complete" and any future reasons are skipped. The id is used as the name verbatim: cargo-criterion
/// does not split it into group/function/value, and ids may themselves contain '/'.
/// </summary>
internal static class CargoCriterionMessages
{
    public static void Parse(Artifact file, ResultSink sink)
    {
        var found = 0;
        foreach (var line in TextLines.Read(Utf8.Decode(file.Content)))
        {
            if (string.IsNullOrWhiteSpace(line.Text))
                continue;
            if (!line.Text.TrimStart().StartsWith('{'))
                throw new ParseException(
                    file.Path,
                    TextLines.Location(line.Number),
                    "expected one JSON object per line (cargo criterion --message-format=json)"
                );
            using var document = JsonInput.Parse(Encoding.UTF8.GetBytes(line.Text), file.Path, line.Number - 1);
            var record = new JsonAtPath(document.RootElement, $"line {line.Number}, $", file.Path);
            if (!record.IsObject)
                throw record.Error("expected a JSON object");
            if (record.OptionalString("reason") != "benchmark-complete")
                continue;
            ParseRecord(record, sink);
            found++;
        }
        if (found == 0)
            throw new ParseException(
                file.Path,
                null,
                "no \"benchmark-complete\" records found (cargo criterion --message-format=json)"
            );
    }

    private static void ParseRecord(JsonAtPath record, ResultSink sink)
    {
        var id = Check.Name(record.RequiredString("id"), record.File, record.ChildPath("id"));
        var mean = record.Required("mean", "the mean estimate");
        var unit = mean.OptionalString("unit") ?? record.OptionalString("unit") ?? "ns";
        // Wall time is always "ns"; a custom criterion Measurement reports its own unit, kept as its own measure.
        var factor = Numbers.NanosecondsPer(unit);
        var identity = new BenchmarkResult
        {
            Name = id,
            Measure = factor is null ? unit : Measures.Time,
            Unit = factor is null ? unit : "ns",
            Direction = Direction.LowerIsBetter,
        };
        var scale = factor ?? 1;
        double Estimate(JsonAtPath node, string name, bool nonNegative) =>
            Check.Value(
                node.RequiredNumber(name, nonNegative) * scale,
                node.File,
                node.ChildPath(name),
                $"the {name}",
                nonNegative
            );

        var value = Estimate(mean, "estimate", nonNegative: true);
        var samples = Samples(record, record.OptionalString("unit") ?? unit);
        var time = identity with
        {
            Value = value,
            Samples = samples,
            Summary = new Summary
            {
                Mean = value,
                Median = record.Get("median") is { } median ? Estimate(median, "estimate", nonNegative: true) : null,
                Min = samples?.Min(),
                Max = samples?.Max(),
                // The confidence level is not in the message (criterion's default is 0.95, but it is configurable).
                CiLower = mean.Get("lower_bound") is not null
                    ? Estimate(mean, "lower_bound", nonNegative: false)
                    : null,
                CiUpper = mean.Get("upper_bound") is not null
                    ? Estimate(mean, "upper_bound", nonNegative: false)
                    : null,
                N = samples?.Count,
            },
        };
        sink.Results.Add(time);
        if (factor is not null && record.Get("throughput") is { IsArray: true } throughputs)
            foreach (var t in throughputs.Items())
            {
                var kind = t.RequiredString("unit");
                var throughputUnit = CriterionThroughput.UnitFor(kind) ?? $"{kind}/s";
                CriterionThroughput.Add(
                    time,
                    throughputUnit,
                    t.RequiredNumber("per_iteration", nonNegative: true),
                    sink,
                    t.File,
                    t.Path
                );
            }
    }

    /// <summary>measured_values[i] / iteration_count[i], converted to ns like the estimates.</summary>
    private static List<double>? Samples(JsonAtPath record, string unit)
    {
        if (record.Get("measured_values") is not { } values || record.Get("iteration_count") is not { } counts)
            return null;
        var v = values.Items().ToList();
        var c = counts.Items().ToList();
        if (v.Count != c.Count)
            throw values.Error(
                $"has {v.Count} entries but iteration_count has {c.Count}; expected one per iteration count"
            );
        var scale = Numbers.NanosecondsPer(unit) ?? 1;
        var samples = new List<double>(v.Count);
        for (var i = 0; i < v.Count; i++)
        {
            var n = c[i].AsNumber(nonNegative: true);
            if (n <= 0)
                throw c[i].Error("expected a positive iteration count");
            samples.Add(
                Check.Value(
                    v[i].AsNumber(nonNegative: true) / n * scale,
                    v[i].File,
                    v[i].Path,
                    "the time per iteration",
                    nonNegative: true
                )
            );
        }
        return samples.Count > 0 ? samples : null;
    }
}
