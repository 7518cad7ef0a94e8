namespace PerfService.Core.Parsing.Common;

/// <summary>Splits text output into numbered lines (LF or CRLF, final newline optional), the unit every text format
/// works in.</summary>
internal static class TextLines
{
    public readonly record struct Line(int Number, string Text);

    public static IEnumerable<Line> Read(string text)
    {
        var number = 0;
        var start = 0;
        while (start <= text.Length)
        {
            var end = text.IndexOf('\n', start);
            if (end < 0)
                end = text.Length;
            number++;
            var line = text[start..end];
            if (line.EndsWith('\r'))
                line = line[..^1];
            if (end < text.Length || line.Length > 0)
                yield return new Line(number, line);
            start = end + 1;
        }
    }

    public static string Location(int line) => $"line {line}";
}
