using System.Globalization;
using System.Text;
using PerfService.Core.ChangePoints;

namespace PerfService.ChangePointEval;

/// <summary>One series read from the input CSV: the idx labels (commit order) and the values.</summary>
public sealed record CsvSeries(string Id, long[] Indexes, double[] Values);

/// <summary>Bad input for <see cref="DetectCsv"/>; <see cref="Line"/> is 1-based.</summary>
public sealed class DetectCsvException(int line, string message) : FormatException($"line {line}: {message}")
{
    public int Line { get; } = line;
}

/// <summary>
/// The offline tool behind <c>perf detect --input series.csv --output detections.csv [--online]</c>.
/// Input: header <c>series_id,idx,value</c> (any column order, extra columns ignored), one row per point, each
/// series in commit order (rows of different series may interleave). Output: <c>series_id,idx,direction</c> with
/// direction <c>regression</c> or <c>improvement</c> (lower is better); with online, every alert ever raised, plus
/// <c>detected_at</c> (idx of the point after which it was raised) and <c>withdrawn_at</c> (empty if standing).
/// idx values are the input's labels, not positions.
/// </summary>
public static class DetectCsv
{
    public static string Run(string inputCsv, bool online, ChangePointOptions? options = null)
    {
        using var reader = new StringReader(inputCsv);
        using var writer = new StringWriter(CultureInfo.InvariantCulture) { NewLine = "\n" };
        Run(reader, writer, online, options);
        return writer.ToString();
    }

    public static void Run(TextReader input, TextWriter output, bool online, ChangePointOptions? options = null)
    {
        var series = Read(input);
        output.Write(online ? "series_id,idx,direction,detected_at,withdrawn_at\n" : "series_id,idx,direction\n");
        foreach (var s in series)
        {
            var id = Quote(s.Id);
            if (!online)
            {
                foreach (var cp in ChangePointDetector.Detect(s.Values, options))
                    output.Write($"{id},{Label(s, cp.Index)},{Name(cp.Direction)}\n");
                continue;
            }
            foreach (var a in OnlineDetector.Replay(s.Values, options))
            {
                var withdrawn = a.WithdrawnAt is { } w ? Label(s, w) : "";
                output.Write($"{id},{Label(s, a.Index)},{Name(a.Direction)},{Label(s, a.DetectedAt)},{withdrawn}\n");
            }
        }
    }

    public static IReadOnlyList<CsvSeries> Read(TextReader input)
    {
        var order = new List<string>();
        var points = new Dictionary<string, (List<long> Idx, List<double> Values, int LastLine)>(StringComparer.Ordinal);
        int lineNo = 0, idCol = -1, idxCol = -1, valueCol = -1, width = 0;
        string? line;
        while ((line = input.ReadLine()) is not null)
        {
            lineNo++;
            if (string.IsNullOrWhiteSpace(line)) continue;
            var fields = Split(line, lineNo);
            if (width == 0)
            {
                for (var i = 0; i < fields.Count; i++)
                {
                    var name = fields[i].Trim().ToLowerInvariant();
                    if (name == "series_id") idCol = i;
                    else if (name == "idx") idxCol = i;
                    else if (name == "value") valueCol = i;
                }
                if (idCol < 0 || idxCol < 0 || valueCol < 0)
                    throw new DetectCsvException(lineNo, $"the header must name the columns series_id, idx and value (found: {line.Trim()})");
                width = fields.Count;
                continue;
            }
            if (fields.Count != width) throw new DetectCsvException(lineNo, $"expected {width} fields as in the header, found {fields.Count}");
            var id = fields[idCol].Trim();
            if (id.Length == 0) throw new DetectCsvException(lineNo, "series_id is empty");
            var idxText = fields[idxCol].Trim();
            if (!long.TryParse(idxText, NumberStyles.Integer, CultureInfo.InvariantCulture, out var idx))
                throw new DetectCsvException(lineNo, $"idx '{idxText}' is not an integer");
            var valueText = fields[valueCol].Trim();
            if (!double.TryParse(valueText, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) || !double.IsFinite(value))
                throw new DetectCsvException(lineNo, $"value '{valueText}' is not a finite number");
            if (!points.TryGetValue(id, out var s))
            {
                s = ([], [], 0);
                order.Add(id);
            }
            else if (idx <= s.Idx[^1])
                throw new DetectCsvException(lineNo, $"idx {idx} of series '{id}' does not come after idx {s.Idx[^1]} (line {s.LastLine}); rows must be in commit order");
            s.Idx.Add(idx);
            s.Values.Add(value);
            points[id] = (s.Idx, s.Values, lineNo);
        }
        if (width == 0) throw new DetectCsvException(Math.Max(1, lineNo), "the input is empty; expected a header series_id,idx,value");
        var result = new List<CsvSeries>(order.Count);
        foreach (var id in order) result.Add(new CsvSeries(id, points[id].Idx.ToArray(), points[id].Values.ToArray()));
        return result;
    }

    private static string Label(CsvSeries s, int position) => s.Indexes[position].ToString(CultureInfo.InvariantCulture);

    private static string Name(ChangeDirection d) => d == ChangeDirection.Regression ? "regression" : "improvement";

    private static string Quote(string field) =>
        field.IndexOfAny([',', '"', '\n', '\r']) < 0 ? field : "\"" + field.Replace("\"", "\"\"") + "\"";

    // RFC 4180 fields on one line: commas separate, double quotes enclose, "" is a literal quote.
    private static List<string> Split(string line, int lineNo)
    {
        var fields = new List<string>();
        var sb = new StringBuilder();
        var i = 0;
        while (true)
        {
            sb.Clear();
            if (i < line.Length && line[i] == '"')
            {
                i++;
                while (true)
                {
                    if (i >= line.Length) throw new DetectCsvException(lineNo, "unterminated quoted field");
                    if (line[i] == '"')
                    {
                        if (i + 1 < line.Length && line[i + 1] == '"') { sb.Append('"'); i += 2; continue; }
                        i++;
                        break;
                    }
                    sb.Append(line[i++]);
                }
                if (i < line.Length && line[i] != ',') throw new DetectCsvException(lineNo, "unexpected character after a quoted field");
            }
            else
            {
                while (i < line.Length && line[i] != ',') sb.Append(line[i++]);
            }
            fields.Add(sb.ToString());
            if (i >= line.Length) return fields;
            i++; // the comma
        }
    }
}
