using System.Globalization;
using System.Text;

namespace PerfService.Hosting.Http;

/// <summary>
/// RFC 4180 text, written straight to the response as rows are formatted (never built as one string first). Text
/// cells that a spreadsheet would run as a formula are prefixed with a quote (OWASP CSV injection).
/// </summary>
internal sealed class Csv(string[] header, IEnumerable<object?[]> rows) : IResult
{
    public async Task ExecuteAsync(HttpContext http)
    {
        http.Response.ContentType = "text/csv; charset=utf-8";
        // The writer's buffer goes out whenever it fills: memory stays at one buffer whatever the row count.
        await using var writer = new StreamWriter(http.Response.Body, new UTF8Encoding(false), 16 * 1024);
        await writer.WriteAsync(Line(header));
        foreach (var row in rows)
            await writer.WriteAsync(Line(row));
        await writer.FlushAsync(http.RequestAborted);
    }

    public static string Line(params object?[] cells)
    {
        var text = new StringBuilder();
        for (var i = 0; i < cells.Length; i++)
        {
            if (i > 0)
                text.Append(',');
            text.Append(Cell(cells[i]));
        }
        return text.Append("\r\n").ToString();
    }

    /// <summary>CSV when asked by <c>format=csv</c> or by an Accept header that names text/csv.</summary>
    public static bool Wanted(HttpRequest request, string? format) =>
        string.Equals(format, "csv", StringComparison.OrdinalIgnoreCase)
        || (
            format is null
            && request.Headers.Accept.Any(a => a?.Contains("text/csv", StringComparison.OrdinalIgnoreCase) == true)
        );

    private static string Cell(object? value) =>
        value switch
        {
            null => "",
            double d => d.ToString("R", CultureInfo.InvariantCulture),
            DateTimeOffset t => t.UtcDateTime.ToString("yyyy-MM-ddTHH:mm:ss.FFFFFFFZ", CultureInfo.InvariantCulture),
            IFormattable f => f.ToString(null, CultureInfo.InvariantCulture),
            _ => Text(value.ToString() ?? ""),
        };

    private static string Text(string s)
    {
        if (s.Length > 0 && "=+-@\t\r".Contains(s[0]))
            s = "'" + s;
        return s.AsSpan().IndexOfAny(",\"\r\n") >= 0 ? "\"" + s.Replace("\"", "\"\"") + "\"" : s;
    }
}
