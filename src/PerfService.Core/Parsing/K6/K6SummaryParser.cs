using PerfService.Core.Parsing.Common;
using PerfService.Core.Results;

namespace PerfService.Core.Parsing.K6;

/// <summary>
/// k6 end-of-test summaries: the legacy <c>--summary-export</c> (stats directly in each metric) and the
/// <c>handleSummary</c> data (<c>{type, contains, values}</c>). Name = the metric name as k6 prints it, submetric
/// tags included (<c>http_req_duration{expected_response:true}</c>); Measure = the statistic (avg, med, p95, count,
/// rate, passes, fails, value…). Per-check results use Name "checks" with the check's group path as parameter.
/// Failed thresholds become warnings: they are k6's verdict, not a measurement.
/// </summary>
public sealed class K6SummaryParser : JsonFileParser
{
    public override string Format => "k6";

    private protected override void ParseRoot(JsonAtPath root, Artifact file, ResultSink sink)
    {
        if (!root.IsObject || root.Get("metrics") is not { IsObject: true } metrics)
            throw root.Error(
                "expected a k6 summary: an object with a \"metrics\" object (--summary-export or handleSummary data)"
            );
        var before = sink.Results.Count;
        foreach (var (name, metric) in metrics.Properties())
            ParseMetric(name, metric, sink);
        if (root.Get("root_group") is { IsObject: true } group)
            ParseChecks(group, sink);
        if (
            root.Get("state") is { IsObject: true } state
            && state.Get("testRunDurationMs") is { IsNumber: true } duration
        )
            sink.Environment("k6.test_run_duration_ms", Check.Show(duration.AsNumber(nonNegative: true)), file.Path);
        if (sink.Results.Count == before)
            throw metrics.Error("the summary has no metrics");
    }

    private static void ParseMetric(string name, JsonAtPath metric, ResultSink sink)
    {
        if (!metric.IsObject)
            throw metric.Error($"expected a metric object, found {JsonAtPath.Describe(metric.Kind)}");
        Check.Name(name, metric.File, metric.Path);
        var legacy = metric.Get("values") is null;
        var values = metric.Get("values") ?? metric;
        var type = metric.OptionalString("type") ?? InferType(values);
        var contains = metric.OptionalString("contains") ?? K6Rules.LegacyContains(name);
        ReportThresholds(name, metric, legacy, sink);
        if (type is null)
        {
            sink.Warnings.Add(
                $"{metric.File} at {metric.Path}: skipped, not recognisable as a trend, counter, rate or gauge"
            );
            return;
        }
        if (type == "gauge" && K6Rules.BaseName(name) is "vus" or "vus_max")
        {
            // The number of virtual users is test configuration, not a performance measurement.
            if (name == "vus_max" && values.Get("max") is { IsNumber: true } max)
                sink.Environment("k6.vus_max", Check.Show(max.AsNumber(true)), metric.File);
            return;
        }
        var failures = K6Rules.CountsFailures(name);
        var nonNegative = contains is "time" or "data";
        switch (type)
        {
            case "trend":
                foreach (var (stat, node) in Numbers(values).Where(s => K6Rules.IsTrendStat(s.Stat)))
                    Add(
                        sink,
                        name,
                        K6Rules.StatName(stat),
                        K6Rules.ValueUnit(contains),
                        Direction.LowerIsBetter,
                        node,
                        nonNegative
                    );
                break;
            case "counter":
                if (values.Get("count") is { } count)
                    Add(sink, name, "count", K6Rules.CountUnit(contains), K6Rules.Better(!failures), count, true);
                if (values.Get("rate") is { } rate)
                    Add(sink, name, "rate", K6Rules.RateUnit(name, contains), K6Rules.Better(!failures), rate, true);
                break;
            case "rate":
                AddRate(sink, name, values, failures);
                break;
            case "gauge":
                foreach (var (stat, node) in Numbers(values).Where(s => s.Stat is "value" or "min" or "max"))
                    Add(sink, name, stat, K6Rules.ValueUnit(contains), Direction.LowerIsBetter, node, nonNegative);
                break;
            default:
                sink.Warnings.Add($"{metric.File} at {metric.Path}: skipped, unknown k6 metric type '{type}'");
                break;
        }
    }

    /// <summary>
    /// A rate's "passes" counts TRUE samples, so for http_req_failed "passes" are failed requests. The rate is
    /// recomputed as passes / (passes + fails) because old exports wrote value 0 even when all checks passed.
    /// </summary>
    private static void AddRate(ResultSink sink, string name, JsonAtPath values, bool failures)
    {
        var passes = values.Get("passes");
        var fails = values.Get("fails");
        var given = values.Get("rate") ?? values.Get("value");
        if (passes is { } p && fails is { } f)
        {
            var total = p.AsNumber(true) + f.AsNumber(true);
            if (total > 0)
                Add(sink, name, "rate", "ratio", K6Rules.Better(!failures), p.AsNumber(true) / total, values);
            else if (given is { } g)
                Add(sink, name, "rate", "ratio", K6Rules.Better(!failures), g, true);
            Add(sink, name, "passes", "count", K6Rules.Better(!failures), p, true);
            Add(sink, name, "fails", "count", K6Rules.Better(failures), f, true);
        }
        else if (given is { } g)
        {
            Add(sink, name, "rate", "ratio", K6Rules.Better(!failures), g, true);
        }
    }

    /// <summary>Per-check pass/fail counts from root_group (objects keyed by name in legacy exports, arrays
    /// later).</summary>
    private static void ParseChecks(JsonAtPath group, ResultSink sink)
    {
        if (group.Get("checks") is { } checks && (checks.IsArray || checks.IsObject))
        {
            var items = checks.IsArray ? checks.Items() : checks.Properties().Select(p => p.Value);
            foreach (var check in items.Where(c => c.IsObject))
            {
                var path = Check.Name(
                    check.OptionalString("path") ?? check.OptionalString("name"),
                    check.File,
                    check.Path
                );
                var id = new BenchmarkResult
                {
                    Name = "checks",
                    Parameters = [new("check", path)],
                    Measure = "rate",
                    Unit = "ratio",
                };
                AddRate(sink, id, check);
            }
        }
        if (group.Get("groups") is { } groups && (groups.IsArray || groups.IsObject))
            foreach (var child in groups.IsArray ? groups.Items() : groups.Properties().Select(p => p.Value))
                if (child.IsObject)
                    ParseChecks(child, sink);
    }

    private static void AddRate(ResultSink sink, BenchmarkResult id, JsonAtPath check)
    {
        var passes = check.Required("passes", "the number of passes").AsNumber(true);
        var fails = check.Required("fails", "the number of fails").AsNumber(true);
        if (passes + fails > 0)
            sink.Results.Add(id with { Direction = Direction.HigherIsBetter, Value = passes / (passes + fails) });
        sink.Results.Add(
            id with
            {
                Measure = "passes",
                Unit = "count",
                Direction = Direction.HigherIsBetter,
                Value = passes,
            }
        );
        sink.Results.Add(
            id with
            {
                Measure = "fails",
                Unit = "count",
                Direction = Direction.LowerIsBetter,
                Value = fails,
            }
        );
    }

    /// <summary>handleSummary: {expr: {ok: false}} failed. Legacy export: {expr: true} means the threshold was
    /// CROSSED.</summary>
    private static void ReportThresholds(string name, JsonAtPath metric, bool legacy, ResultSink sink)
    {
        if (metric.Get("thresholds") is not { IsObject: true } thresholds)
            return;
        foreach (var (expression, verdict) in thresholds.Properties())
        {
            var failed =
                legacy && verdict.Kind == System.Text.Json.JsonValueKind.True
                || verdict.Get("ok") is { Kind: System.Text.Json.JsonValueKind.False };
            if (failed)
                sink.Warnings.Add($"k6 threshold '{expression}' on {name} failed");
        }
    }

    private static string? InferType(JsonAtPath values)
    {
        if (values.Properties().Any(p => K6Rules.IsTrendStat(p.Name) && p.Name != "min" && p.Name != "max"))
            return "trend";
        if (values.Has("passes") || values.Has("fails"))
            return "rate";
        if (values.Has("count"))
            return "counter";
        if (values.Has("value"))
            return "gauge";
        return null;
    }

    /// <summary>The statistics present (null means "not computed"); a stat that is not a number fails in
    /// AsNumber.</summary>
    private static IEnumerable<(string Stat, JsonAtPath Node)> Numbers(JsonAtPath values) =>
        values
            .Properties()
            .Where(p => p.Value.Kind != System.Text.Json.JsonValueKind.Null)
            .Select(p => (p.Name, p.Value));

    private static void Add(
        ResultSink sink,
        string name,
        string measure,
        string unit,
        Direction direction,
        JsonAtPath node,
        bool nonNegative
    ) =>
        sink.Results.Add(
            new BenchmarkResult
            {
                Name = name,
                Measure = measure,
                Unit = unit,
                Direction = direction,
                Value = node.AsNumber(nonNegative),
            }
        );

    private static void Add(
        ResultSink sink,
        string name,
        string measure,
        string unit,
        Direction direction,
        double value,
        JsonAtPath at
    ) =>
        sink.Results.Add(
            new BenchmarkResult
            {
                Name = name,
                Measure = measure,
                Unit = unit,
                Direction = direction,
                Value = Check.Value(value, at.File, at.Path, $"the {measure}", nonNegative: true),
            }
        );
}
