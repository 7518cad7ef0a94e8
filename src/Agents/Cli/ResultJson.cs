using System.Text.Encodings.Web;
using System.Text.Json;
using PerfService.Core.Results;

namespace PerfService.Agents.Cli;

/// <summary>The `parse` verb's output: one object per benchmark × measure, in the parser's order.</summary>
public static class ResultJson
{
    public static string Write(IReadOnlyList<BenchmarkResult> results)
    {
        using var buffer = new MemoryStream();
        // Relaxed escaping: benchmark names with quotes, '<' or non-ASCII stay readable in a terminal.
        using (var json = new Utf8JsonWriter(buffer, new JsonWriterOptions { Indented = true, Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping }))
        {
            json.WriteStartArray();
            foreach (var r in results) WriteOne(json, r);
            json.WriteEndArray();
        }
        return System.Text.Encoding.UTF8.GetString(buffer.ToArray());
    }

    private static void WriteOne(Utf8JsonWriter json, BenchmarkResult r)
    {
        json.WriteStartObject();
        json.WriteString("benchmark", r.Key);
        json.WriteString("name", r.Name);
        json.WriteStartObject("parameters");
        foreach (var (key, value) in r.Parameters) json.WriteString(key, value);
        json.WriteEndObject();
        json.WriteString("job", r.Job);
        json.WriteString("measure", r.Measure);
        json.WriteString("unit", r.Unit);
        json.WriteString("direction", r.Direction == Direction.HigherIsBetter ? "higher_is_better" : "lower_is_better");
        Number(json, "value", r.Value);
        if (r.Samples is { } samples)
        {
            json.WriteStartArray("samples");
            foreach (var s in samples) Number(json, null, s);
            json.WriteEndArray();
        }
        if (r.Error is not null) json.WriteString("error", r.Error);
        json.WriteEndObject();
    }

    // JSON has no NaN or infinity; null says "no number" without breaking the document.
    private static void Number(Utf8JsonWriter json, string? name, double? value)
    {
        if (name is not null) json.WritePropertyName(name);
        if (value is { } v && double.IsFinite(v)) json.WriteNumberValue(v);
        else json.WriteNullValue();
    }
}
