using System.Text.Json;
using PerfService.Core.Results;

namespace PerfService.Agents.Cli;

/// <summary>The `parse` verb's output: one object per benchmark × measure, in the parser's order.</summary>
public static class ResultJson
{
    public static string Write(IReadOnlyList<BenchmarkResult> results) =>
        CliJson.Write(json =>
        {
            json.WriteStartArray();
            foreach (var r in results)
                WriteOne(json, r);
            json.WriteEndArray();
        });

    private static void WriteOne(Utf8JsonWriter json, BenchmarkResult r)
    {
        json.WriteStartObject();
        json.WriteString("benchmark", r.Key);
        json.WriteString("name", r.Name);
        json.WriteStartObject("parameters");
        foreach (var (key, value) in r.Parameters)
            json.WriteString(key, value);
        json.WriteEndObject();
        json.WriteString("job", r.Job);
        json.WriteString("measure", r.Measure);
        json.WriteString("unit", r.Unit);
        json.WriteString("direction", r.Direction == Direction.HigherIsBetter ? "higher_is_better" : "lower_is_better");
        CliJson.Number(json, "value", r.Value);
        if (r.Samples is { } samples)
        {
            json.WriteStartArray("samples");
            foreach (var s in samples)
                CliJson.Number(json, null, s);
            json.WriteEndArray();
        }
        if (r.Error is not null)
            json.WriteString("error", r.Error);
        json.WriteEndObject();
    }
}
