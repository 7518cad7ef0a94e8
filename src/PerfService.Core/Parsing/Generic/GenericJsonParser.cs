using PerfService.Core.Parsing.Common;
using PerfService.Core.Results;

namespace PerfService.Core.Parsing.Generic;

/// <summary>
/// PerfService's own JSON for custom harnesses (messaging counters, load generators): the fields map one to one
/// onto <see cref="BenchmarkResult"/>. The format is specified in GENERIC_JSON.md next to this file.
/// </summary>
public sealed class GenericJsonParser : JsonFileParser
{
    public override string Format => "json";

    private protected override void ParseRoot(JsonAtPath root, Artifact file, ResultSink sink)
    {
        if (!root.IsObject || root.Get("results") is not { IsArray: true } results)
            throw root.Error(
                "expected PerfService generic JSON: an object with a \"results\" array (see GENERIC_JSON.md)"
            );
        if (root.Get("environment") is { } environment)
            foreach (var (key, value) in environment.Properties())
                sink.Environment(key, Scalar(value), file.Path);
        var count = 0;
        foreach (var result in results.Items())
        {
            sink.Results.Add(ParseResult(result));
            count++;
        }
        if (count == 0)
            throw results.Error("the results array is empty");
    }

    private static BenchmarkResult ParseResult(JsonAtPath r)
    {
        if (!r.IsObject)
            throw r.Error($"expected a result object, found {JsonAtPath.Describe(r.Kind)}");
        var name = Check.Name(r.Required("benchmark", "a string"));
        var unit = r.RequiredString("unit");
        if (string.IsNullOrWhiteSpace(unit))
            throw r.Required("unit", "a unit").Error("expected a non-empty unit");
        var timeFactor = Numbers.NanosecondsPer(unit);
        var measure = r.OptionalString("measure") ?? (timeFactor is null ? unit : Measures.Time);
        if (string.IsNullOrWhiteSpace(measure))
            throw r.Required("measure", "a measure").Error("expected a non-empty measure");
        // "time" is stored in ns across every format, so a time given in ms or s is converted here.
        var isTime = measure == Measures.Time;
        if (isTime && timeFactor is null)
            throw r.Required("unit", "a unit")
                .Error($"measure \"time\" needs a time unit (ns, us, µs, ms, s), found \"{unit}\"");
        var scale = isTime ? timeFactor!.Value : 1;
        var parameters = r.Get("parameters") is { } p
            ? p.Properties().Select(kv => new KeyValuePair<string, string>(kv.Name, Scalar(kv.Value))).ToList()
            : [];
        var job = r.OptionalString("job");
        var direction = ParseDirection(r, unit);
        // The result is built once, from the fields read in this order (the first bad one is the one reported).
        BenchmarkResult Result(double? value = null, double[]? samples = null, string? error = null) =>
            new()
            {
                Name = name,
                Parameters = parameters,
                Job = job,
                Measure = measure,
                Unit = isTime ? "ns" : unit,
                Direction = direction,
                Value = value,
                Samples = samples,
                Summary = samples is null ? null : SampleStats.Summarize(samples),
                Error = error,
            };

        if (r.OptionalString("error") is { } error)
        {
            if (r.Get("value") is { } v)
                throw v.Error("a result with an error has no value; remove one of them");
            return Result(error: string.IsNullOrWhiteSpace(error) ? "the harness reported a failure" : error);
        }
        double[]? samples = null;
        if (r.Get("samples") is { } s)
        {
            // An array of the samples' own length: the run writer stores it as it is.
            samples = new double[s.IsArray ? s.Element.GetArrayLength() : 0];
            var i = 0;
            foreach (var x in s.Items())
                samples[i++] = Check.Value(x.AsNumber(isTime) * scale, x, "the sample", isTime);
            if (samples.Length == 0)
                throw s.Error("samples is empty; give at least one sample or leave it out");
        }
        var value = r.Get("value") is { } node
            ? Check.Value(node.AsNumber(isTime) * scale, node, "the value", isTime)
            : (double?)null;
        if (value is null && samples is null)
            throw r.Error("expected \"value\" or \"samples\" (or \"error\" for a failed benchmark)");
        return Result(value ?? SampleStats.Mean(samples!), samples);
    }

    private static Direction ParseDirection(JsonAtPath r, string unit)
    {
        var text = r.OptionalString("direction");
        if (text is null)
            return Numbers.IsPerSecond(unit) ? Direction.HigherIsBetter : Direction.LowerIsBetter;
        return text.Trim().ToLowerInvariant() switch
        {
            "higher_is_better" or "higher" => Direction.HigherIsBetter,
            "lower_is_better" or "lower" => Direction.LowerIsBetter,
            _ => throw r.Required("direction", "a direction")
                .Error($"expected \"higher_is_better\" or \"lower_is_better\", found \"{text}\""),
        };
    }

    /// <summary>Parameter and environment values may be strings, numbers or booleans; numbers keep their exact
    /// text.</summary>
    private static string Scalar(JsonAtPath node) =>
        node.Kind switch
        {
            System.Text.Json.JsonValueKind.String => node.AsString(),
            System.Text.Json.JsonValueKind.Number => node.Element.GetRawText(),
            System.Text.Json.JsonValueKind.True => "true",
            System.Text.Json.JsonValueKind.False => "false",
            _ => throw node.Error($"expected a string, number or boolean, found {JsonAtPath.Describe(node.Kind)}"),
        };
}
