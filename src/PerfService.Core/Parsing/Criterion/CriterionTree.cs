using PerfService.Core.Parsing.Common;
using PerfService.Core.Results;

namespace PerfService.Core.Parsing.Criterion;

/// <summary>
/// The <c>target/criterion</c> tree. Each benchmark directory holds <c>new/</c> (the latest run), <c>base/</c> (the
/// previous one), <c>change/</c> and any <c>--save-baseline</c> directories; only <c>new/</c> is read. Identity comes
/// from <c>new/benchmark.json</c>, never from directory names, which criterion lowercases and sanitises.
/// </summary>
internal static class CriterionTree
{
    public static void Parse(IReadOnlyList<Artifact> files, ResultSink sink)
    {
        var directories = files
            .Where(f => f.Path.EndsWith(".json", StringComparison.Ordinal))
            .GroupBy(f => Directory(Normalise(f.Path)), StringComparer.Ordinal)
            .Where(g => g.Key == "new" || g.Key.EndsWith("/new", StringComparison.Ordinal))
            .OrderBy(g => g.Key, StringComparer.Ordinal)
            .ToList();
        if (directories.Count == 0)
            throw new ParseException(
                files[0].Path,
                null,
                "this criterion tree has no new/ directory with estimates.json: only new/ holds the latest run (base/, change/ and saved baselines are older runs)"
            );
        foreach (var directory in directories)
        {
            var byName = new Dictionary<string, Artifact>(StringComparer.Ordinal);
            foreach (var file in directory)
                if (!byName.TryAdd(FileName(Normalise(file.Path)), file))
                    throw new ParseException(
                        file.Path,
                        null,
                        "uploaded twice; each criterion tree file may appear once"
                    );
            if (!byName.TryGetValue("estimates.json", out var estimates))
                throw new ParseException(
                    directory.Key + "/estimates.json",
                    null,
                    "missing: every criterion new/ directory needs estimates.json"
                );
            if (!byName.TryGetValue("benchmark.json", out var benchmark))
                throw new ParseException(
                    directory.Key + "/benchmark.json",
                    null,
                    "missing: the benchmark id is read from benchmark.json (directory names are lowercased by criterion, so they cannot be used)"
                );
            ParseBenchmark(benchmark, estimates, byName.GetValueOrDefault("sample.json"), sink);
        }
    }

    private static void ParseBenchmark(
        Artifact benchmarkFile,
        Artifact estimatesFile,
        Artifact? sampleFile,
        ResultSink sink
    )
    {
        using var benchmarkDoc = JsonInput.Parse(benchmarkFile);
        var benchmark = JsonAtPath.Root(benchmarkDoc, benchmarkFile.Path);
        if (!benchmark.IsObject)
            throw benchmark.Error("expected criterion's benchmark.json object");
        var group = benchmark.OptionalString("group_id");
        var function = benchmark.OptionalString("function_id");
        var value = benchmark.OptionalString("value_str");
        // Name = group[/function]; the input value is a parameter, so one function's sizes group together.
        var name =
            group is null
                ? benchmark.OptionalString("full_id")
                    ?? benchmark.OptionalString("title")
                    ?? throw benchmark.Error("expected group_id or full_id")
            : function is null ? group
            : $"{group}/{function}";
        var identity = new BenchmarkResult
        {
            Name = Check.Name(name, benchmarkFile.Path, "$.group_id"),
            Parameters = group is not null && value is not null ? [new("input", value)] : [],
            Measure = Measures.Time,
            Unit = "ns",
            Direction = Direction.LowerIsBetter,
        };

        using var estimatesDoc = JsonInput.Parse(estimatesFile);
        var estimates = JsonAtPath.Root(estimatesDoc, estimatesFile.Path);
        var mean =
            estimates.Get("mean", "Mean")
            ?? throw estimates.Error("expected criterion's estimates.json with a \"mean\" estimate");
        var meanValue = mean.RequiredNumber("point_estimate", nonNegative: true);
        var interval = mean.Get("confidence_interval");
        var samples = sampleFile is null ? null : ReadSamples(sampleFile);
        var time = identity with
        {
            Value = meanValue,
            Samples = samples,
            Summary = new Summary
            {
                Mean = meanValue,
                Median = estimates.Get("median", "Median")?.OptionalNumber("point_estimate", nonNegative: true),
                StdDev = estimates.Get("std_dev", "StdDev")?.OptionalNumber("point_estimate", nonNegative: true),
                Min = samples?.Min(),
                Max = samples?.Max(),
                CiLower = interval?.OptionalNumber("lower_bound", nonNegative: false),
                CiUpper = interval?.OptionalNumber("upper_bound", nonNegative: false),
                CiLevel = interval?.OptionalNumber("confidence_level", nonNegative: true),
                N = samples?.Count,
            },
        };
        sink.Results.Add(time);
        if (benchmark.Get("throughput") is { } throughput)
            AddThroughput(throughput, time, sink);
    }

    /// <summary>criterion ≥0.3: {"sampling_mode", "iters":[…], "times":[…]}; 0.2: [[iters…],[times…]]. Per-iteration
    /// ns.</summary>
    private static List<double> ReadSamples(Artifact file)
    {
        using var document = JsonInput.Parse(file);
        var root = JsonAtPath.Root(document, file.Path);
        JsonAtPath iters,
            times;
        if (root.IsArray)
        {
            var parts = root.Items().ToList();
            if (parts.Count != 2)
                throw root.Error("expected [[iterations…], [times…]] (criterion 0.2 sample.json)");
            (iters, times) = (parts[0], parts[1]);
        }
        else
        {
            iters = root.Required("iters", "the iteration counts");
            times = root.Required("times", "the measured times");
        }
        var iterList = iters.Items().ToList();
        var timeList = times.Items().ToList();
        if (iterList.Count != timeList.Count)
            throw times.Error(
                $"has {timeList.Count} entries but iters has {iterList.Count}; expected one time per iteration count"
            );
        var samples = new List<double>(iterList.Count);
        for (var i = 0; i < iterList.Count; i++)
        {
            var n = iterList[i].AsNumber(nonNegative: true);
            if (n <= 0)
                throw iterList[i].Error("expected a positive iteration count");
            samples.Add(
                Check.Value(
                    timeList[i].AsNumber(nonNegative: true) / n,
                    timeList[i],
                    "the time per iteration",
                    nonNegative: true
                )
            );
        }
        return samples;
    }

    /// <summary>benchmark.json throughput: null, {"Bytes": n}, {"Elements": n} or {"BytesDecimal": n} (also accepted as
    /// a list).</summary>
    private static void AddThroughput(JsonAtPath throughput, BenchmarkResult time, ResultSink sink)
    {
        var entries = throughput.IsArray ? throughput.Items().ToList() : [throughput];
        foreach (var entry in entries)
        foreach (var (kind, count) in entry.Properties())
        {
            var unit =
                CriterionThroughput.UnitFor(kind)
                ?? throw count.Error($"unknown throughput kind '{kind}'; expected Bytes, BytesDecimal or Elements");
            CriterionThroughput.Add(time, unit, count.AsNumber(nonNegative: true), sink, count.File, count.Path);
        }
    }

    private static string Normalise(string path) => path.Replace('\\', '/');

    private static string Directory(string path) => path.LastIndexOf('/') is var i and >= 0 ? path[..i] : "";

    private static string FileName(string path) => path[(path.LastIndexOf('/') + 1)..];
}
