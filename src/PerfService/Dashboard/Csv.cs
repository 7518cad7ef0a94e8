using System.Globalization;
using System.Text;

namespace PerfService.Dashboard;

/// <summary>RFC 4180 text. Text cells that a spreadsheet would run as a formula are prefixed with a quote (OWASP CSV injection).</summary>
internal sealed class Csv
{
    private readonly StringBuilder _text = new();

    public Csv(params string[] header) => Row(header);

    public Csv Row(params object?[] cells)
    {
        for (var i = 0; i < cells.Length; i++)
        {
            if (i > 0) _text.Append(',');
            _text.Append(Cell(cells[i]));
        }
        _text.Append("\r\n");
        return this;
    }

    public override string ToString() => _text.ToString();

    /// <summary>CSV when asked by <c>format=csv</c> or by an Accept header that names text/csv.</summary>
    public static bool Wanted(HttpRequest request, string? format) =>
        string.Equals(format, "csv", StringComparison.OrdinalIgnoreCase)
        || (format is null && request.Headers.Accept.Any(a => a?.Contains("text/csv", StringComparison.OrdinalIgnoreCase) == true));

    private static string Cell(object? value) => value switch
    {
        null => "",
        double d => d.ToString("R", CultureInfo.InvariantCulture),
        DateTimeOffset t => t.UtcDateTime.ToString("yyyy-MM-ddTHH:mm:ss.FFFFFFFZ", CultureInfo.InvariantCulture),
        IFormattable f => f.ToString(null, CultureInfo.InvariantCulture),
        _ => Text(value.ToString() ?? ""),
    };

    private static string Text(string s)
    {
        if (s.Length > 0 && "=+-@\t\r".Contains(s[0])) s = "'" + s;
        return s.AsSpan().IndexOfAny(",\"\r\n") >= 0 ? "\"" + s.Replace("\"", "\"\"") + "\"" : s;
    }
}
