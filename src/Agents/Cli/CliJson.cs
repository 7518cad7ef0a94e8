using System.Text.Encodings.Web;
using System.Text.Json;

namespace PerfService.Agents.Cli;

/// <summary>How the CLI's JSON outputs are written: indented, and with relaxed escaping so benchmark names with quotes,
/// '&lt;' or non-ASCII stay readable in a terminal.</summary>
internal static class CliJson
{
    public static string Write(Action<Utf8JsonWriter> body)
    {
        using var buffer = new MemoryStream();
        using (
            var json = new Utf8JsonWriter(
                buffer,
                new JsonWriterOptions { Indented = true, Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping }
            )
        )
            body(json);
        return System.Text.Encoding.UTF8.GetString(buffer.ToArray());
    }

    /// <summary>JSON has no NaN or infinity; null says "no number" without breaking the document.</summary>
    public static void Number(Utf8JsonWriter json, string? name, double? value)
    {
        if (name is not null)
            json.WritePropertyName(name);
        if (value is { } v && double.IsFinite(v))
            json.WriteNumberValue(v);
        else
            json.WriteNullValue();
    }
}
