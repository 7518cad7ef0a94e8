using PerfService.Core.Parsing.Common;
using PerfService.Core.Results;

namespace PerfService.Core.Parsing.Bdn;

/// <summary>
/// BenchmarkDotNet JSON exports: full, full-compressed, brief, and the 0.9.x legacy schema. One result per benchmark
/// case for time (ns/op), plus alloc/gen0/gen1/gen2 when the memory diagnoser ran. The CSV, markdown and HTML
/// exporters are rejected (they round values and carry no samples), or skipped when a JSON export came with them.
/// </summary>
public sealed class BenchmarkDotNetParser : IResultParser
{
    public string Format => "bdn";

    public ParseResult Parse(IReadOnlyList<Artifact> files)
    {
        var sink = new ResultSink(Format);
        var exports = files.Where(IsJson).ToList();
        foreach (var other in files.Where(f => !IsJson(f)))
        {
            if (exports.Count == 0)
                throw NotAnExport(other);
            sink.Warnings.Add(
                $"{other.Path}: skipped, not a BenchmarkDotNet JSON export (the JSON export uploaded with it has the same data)"
            );
        }
        foreach (var file in exports)
            ParseFile(file, sink);
        return sink.ToResult();
    }

    private static bool IsJson(Artifact file) =>
        Utf8.FirstSignificant(Utf8.WithoutBom(file.Content).Span) is (byte)'{' or (byte)'[';

    private static ParseException NotAnExport(Artifact file)
    {
        if (Utf8.IsBlank(Utf8.WithoutBom(file.Content).Span))
            return new ParseException(file.Path, null, "the file is empty");
        var text = Utf8.Decode(file.Content);
        var kind =
            text.Contains("<html", StringComparison.OrdinalIgnoreCase) ? "HTML report"
            : text.TrimStart().StartsWith('|')
            || text.Contains("|---", StringComparison.Ordinal)
            || text.Contains("```", StringComparison.Ordinal)
                ? "markdown report"
            : text.Contains(",Mean", StringComparison.Ordinal) || text.Contains(";Mean", StringComparison.Ordinal)
                ? "CSV report"
            : null;
        var what = kind is null
            ? "this is not JSON"
            : $"this is BenchmarkDotNet's {kind}, which rounds values and has no samples";
        return new ParseException(
            file.Path,
            "line 1",
            $"{what}; upload the JSON export instead (*-report-full.json or *-report-full-compressed.json, from [JsonExporterAttribute.Full] or --exporters json)"
        );
    }

    private static void ParseFile(Artifact file, ResultSink sink)
    {
        using var document = JsonInput.Parse(file);
        var root = JsonAtPath.Root(document, file.Path);
        if (!root.IsObject || root.Get("Benchmarks") is not { IsArray: true } benchmarks)
            throw root.Error("expected a BenchmarkDotNet JSON export: an object with a \"Benchmarks\" array");
        if (root.Get("HostEnvironmentInfo") is { IsObject: true } host)
            ReadEnvironment(host, sink);
        var count = 0;
        foreach (var benchmark in benchmarks.Items())
        {
            ParseBenchmark(benchmark, sink);
            count++;
        }
        if (count == 0)
            throw benchmarks.Error("the export lists no benchmarks");
    }

    private static void ParseBenchmark(JsonAtPath b, ResultSink sink)
    {
        if (!b.IsObject)
            throw b.Error($"expected a benchmark object, found {JsonAtPath.Describe(b.Kind)}");
        var type = Check.Name(b.RequiredString("Type"), b.File, b.ChildPath("Type"));
        var method = Check.Name(b.RequiredString("Method"), b.File, b.ChildPath("Method"));
        var parametersText = b.OptionalString("Parameters");
        var identity = new BenchmarkResult
        {
            Name = BdnIdentity.Name(b.OptionalString("Namespace"), type, method),
            Parameters = BdnIdentity.Parameters(parametersText),
            Job = BdnIdentity.Job(
                b.OptionalString("DisplayInfo"),
                type,
                b.OptionalString("MethodTitle") ?? method,
                !string.IsNullOrEmpty(parametersText)
            ),
            Measure = Measures.Time,
            Unit = "ns",
            Direction = Direction.LowerIsBetter,
        };

        if (b.Get("Statistics") is not { } stats)
        {
            // A failed benchmark is recorded, never dropped nor zeroed, so a break shows up as a failure.
            sink.Results.Add(identity with { Error = BdnIdentity.FailureReason(b) });
            return;
        }
        if (!stats.IsObject)
            throw stats.Error($"expected an object or null, found {JsonAtPath.Describe(stats.Kind)}");
        var mean = stats.RequiredNumber("Mean", nonNegative: true);
        var interval = stats.Get("ConfidenceInterval");
        var summary = new Summary
        {
            Mean = mean,
            Median = Statistic(stats, "Median", nonNegative: true),
            StdDev = Statistic(stats, "StandardDeviation", nonNegative: true),
            Min = Statistic(stats, "Min", nonNegative: true),
            Max = Statistic(stats, "Max", nonNegative: true),
            // The CI of a tiny N can reach below zero (newday fixture: Lower = -255.4); that is BDN's honest figure.
            CiLower = interval is { } lower ? Statistic(lower, "Lower", nonNegative: false) : null,
            CiUpper = interval is { } upper ? Statistic(upper, "Upper", nonNegative: false) : null,
            CiLevel = interval is { } ci ? BdnIdentity.ConfidenceLevel(ci) : null,
            N = stats.Get("N") is { } n ? ToCount(n) : null,
        };
        sink.Results.Add(identity with { Value = mean, Summary = summary, Samples = Samples(b, stats) });
        AddMemory(b, identity, sink);
    }

    /// <summary>Per-op times of the measured iterations: Workload/Result measurements (older BDN: mode "Result"),
    /// else the statistics' OriginalValues (brief export); the 0.9.x schema has neither.</summary>
    private static IReadOnlyList<double>? Samples(JsonAtPath b, JsonAtPath stats)
    {
        var samples = new List<double>();
        if (b.Get("Measurements") is { } measurements)
        {
            foreach (var m in measurements.Items())
            {
                var mode = m.OptionalString("IterationMode");
                var stage = m.OptionalString("IterationStage");
                if (!(mode == "Workload" && stage == "Result") && !(mode == "Result" && stage is null))
                    continue;
                var operations = m.Required("Operations", "the operation count").AsLong();
                if (operations <= 0)
                    throw m.Error($"Operations is {operations}; expected a positive count");
                var ns = m.RequiredNumber("Nanoseconds", nonNegative: true);
                samples.Add(Check.Value(ns / operations, m, "the time per operation", nonNegative: true));
            }
        }
        if (samples.Count == 0 && stats.Get("OriginalValues") is { } original)
            foreach (var v in original.Items())
                samples.Add(v.AsNumber(nonNegative: true));
        return samples.Count > 0 ? samples : null;
    }

    /// <summary>
    /// Memory measures appear only when the memory diagnoser ran. Full exports say so through Metrics descriptors;
    /// brief exports have no Metrics, so there a Memory block with a real allocation figure is the evidence.
    /// </summary>
    private static void AddMemory(JsonAtPath b, BenchmarkResult identity, ResultSink sink)
    {
        var memory = b.Get("Memory");
        var metrics = new Dictionary<string, JsonAtPath>(StringComparer.Ordinal);
        var hasMetrics = b.Get("Metrics") is { IsArray: true };
        if (hasMetrics)
            foreach (var m in b.Get("Metrics")!.Value.Items())
                if (m.Get("Descriptor")?.OptionalString("Id") is { } id && m.Get("Value") is { } value)
                    metrics[id] = value;

        var totalOps = memory?.Get("TotalOperations") is { } t ? t.AsLong() : 0;
        var bytes = memory?.Get("BytesAllocatedPerOperation");
        if (hasMetrics ? metrics.ContainsKey("Allocated Memory") : bytes is not null && totalOps > 0)
        {
            var value = (bytes ?? metrics["Allocated Memory"]).AsNumber(nonNegative: true);
            sink.Results.Add(identity with { Measure = Measures.Allocated, Unit = "B", Value = value });
        }
        AddGc(memory, totalOps, hasMetrics, metrics, "Gen0", Measures.Gen0, identity, sink);
        AddGc(memory, totalOps, hasMetrics, metrics, "Gen1", Measures.Gen1, identity, sink);
        AddGc(memory, totalOps, hasMetrics, metrics, "Gen2", Measures.Gen2, identity, sink);
    }

    private static void AddGc(
        JsonAtPath? memory,
        long totalOps,
        bool hasMetrics,
        Dictionary<string, JsonAtPath> metrics,
        string gen,
        string measure,
        BenchmarkResult identity,
        ResultSink sink
    )
    {
        var metricId = gen + "Collects";
        if (hasMetrics ? !metrics.ContainsKey(metricId) : memory is null || totalOps <= 0)
            return;
        double value;
        if (memory is { } m && totalOps > 0 && m.Get(gen + "Collections") is { } collections)
            value = Check.Value(
                collections.AsNumber(nonNegative: true) * 1000 / totalOps,
                m.File,
                collections.Path,
                $"{gen} collections per 1000 operations",
                nonNegative: true
            );
        else if (metrics.TryGetValue(metricId, out var metric))
            value = metric.AsNumber(nonNegative: true);
        else
            return;
        sink.Results.Add(identity with { Measure = measure, Unit = "per 1000 ops", Value = value });
    }

    /// <summary>An optional statistic; BDN's JSON exporter writes one it could not compute (NaN: the confidence
    /// interval of a single iteration, as in a <c>--job dry</c> run) as an empty string, which means absent.</summary>
    private static double? Statistic(JsonAtPath node, string name, bool nonNegative) =>
        node.Get(name) is { IsString: true } v && v.AsString().Length == 0
            ? null
            : node.OptionalNumber(name, nonNegative);

    private static int ToCount(JsonAtPath node)
    {
        var n = node.AsLong();
        return n is >= 0 and <= int.MaxValue ? (int)n : throw node.Error($"N is {n}; expected a sample count");
    }

    private static void ReadEnvironment(JsonAtPath host, ResultSink sink)
    {
        var file = host.File;
        // 0.9.x wrote ProcessorName as a Lazy<string> object {IsValueCreated, Value}.
        var cpu = host.Get("ProcessorName") is { } p
            ? (
                p.IsObject ? p.OptionalString("Value")
                : p.IsString ? p.AsString()
                : null
            )
            : null;
        sink.Environment("cpu", cpu, file);
        sink.Environment("os", Text(host, "OsVersion"), file);
        sink.Environment("arch", Text(host, "Architecture"), file);
        sink.Environment("runtime", Text(host, "RuntimeVersion") ?? Text(host, "ClrVersion"), file);
        sink.Environment("sdk", Text(host, "DotNetCliVersion"), file);
        sink.Environment("logical_cores", Text(host, "LogicalCoreCount") ?? Text(host, "ProcessorCount"), file);
        sink.Environment("bdn_version", Text(host, "BenchmarkDotNetVersion"), file);
    }

    private static string? Text(JsonAtPath node, string name) =>
        node.Get(name) is { } v && (v.IsString || v.IsNumber) ? v.Element.ToString() : null;
}
