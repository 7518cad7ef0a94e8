using System.Globalization;
using PerfService.Core.Parsing.Common;
using PerfService.Core.Results;

namespace PerfService.Core.Parsing.Counters;

/// <summary>
/// Tables of counters that programs print themselves (Perper's messaging benchmark prints one row of per-second
/// counters every second): Markdown, CSV or plain text. Wide layout: one column per counter, its unit in the header
/// (<c>Sent (msgs/s)</c>), one row per measurement; each column is one series and its rows are the samples. Long
/// layout: a <c>unit</c> column, a name column and a <c>value</c> column, one row per measurement. Specified in
/// COUNTER_TABLES.md next to this folder.
/// </summary>
public sealed class CounterTableParser : FileByFileParser
{
    public override string Format => "counters";

    private static readonly HashSet<string> _labelNames = new(StringComparer.OrdinalIgnoreCase)
    {
        "time",
        "elapsed",
        "second",
        "seconds",
        "t",
        "tick",
        "timestamp",
        "row",
        "#",
        "n",
        "iteration",
    };

    private sealed class Series(BenchmarkResult identity)
    {
        public BenchmarkResult Identity { get; } = identity;
        public List<double> Samples { get; } = [];
    }

    private protected override void ParseFile(Artifact file, ResultSink sink)
    {
        var bytes = Utf8.WithoutBom(file.Content);
        if (Utf8.IsBlank(bytes.Span))
            throw new ParseException(file.Path, null, "the file is empty");
        if (!CounterTableText.TryRead(Utf8.Decode(bytes), out var table, out var why))
            throw new ParseException(file.Path, null, why);

        string? prefix = null,
            job = null;
        var parameters = new List<KeyValuePair<string, string>>();
        foreach (var (line, key, value) in table!.Directives)
        {
            switch (key.ToLowerInvariant())
            {
                case "benchmark":
                    prefix = Check.Name(value, file.Path, $"line {line}");
                    break;
                case "job":
                    job = value.Length == 0 ? null : value;
                    break;
                case "parameters":
                    parameters.AddRange(Parameters(value, file.Path, line));
                    break;
                default:
                    sink.Environment(key, value, file.Path);
                    break;
            }
        }

        var series = new List<Series>();
        if (table.Header.Cells.Any(c => CounterTableText.IsUnitColumn(c.Text)))
            ReadLong(file.Path, table, prefix, job, parameters, series);
        else
            ReadWide(file.Path, table, prefix, job, parameters, series);

        var emitted = 0;
        foreach (var s in series.Where(s => s.Samples.Count > 0))
        {
            sink.Results.Add(
                s.Identity with
                {
                    Value = SampleStats.Mean(s.Samples),
                    Samples = s.Samples,
                    Summary = SampleStats.Summarize(s.Samples),
                }
            );
            emitted++;
        }
        if (emitted == 0)
            throw new ParseException(
                file.Path,
                $"line {table.Header.Line}",
                "the table has no values: every counter cell is empty"
            );
    }

    /// <summary>One column per counter; a first column without a unit (or named Time, Second…) labels the
    /// rows.</summary>
    private static void ReadWide(
        string file,
        CounterTableText.Table table,
        string? prefix,
        string? job,
        List<KeyValuePair<string, string>> parameters,
        List<Series> series
    )
    {
        var header = table.Header;
        var columns = new Series?[header.Cells.Count];
        for (var c = 0; c < header.Cells.Count; c++)
        {
            var cell = header.Cells[c];
            var (name, unit) = CounterTableText.SplitUnit(cell.Text);
            if (c == 0 && (unit is null || _labelNames.Contains(name)))
                continue;
            if (unit is null)
                throw new ParseException(
                    file,
                    Where(header.Line, cell.Column),
                    $"column '{cell.Text}' has no unit; write it as '{cell.Text} (msgs/s)' (any unit in parentheses or brackets) or use a 'unit' column"
                );
            var identity = Identity(
                prefix is null ? name : $"{prefix}.{name}",
                unit,
                job,
                parameters,
                file,
                header.Line,
                cell.Column
            );
            if (series.Any(s => s.Identity.Key == identity.Key && s.Identity.Measure == identity.Measure))
                throw new ParseException(
                    file,
                    Where(header.Line, cell.Column),
                    $"column '{cell.Text}' appears twice; give each counter its own name"
                );
            columns[c] = new Series(identity);
            series.Add(columns[c]!);
        }

        foreach (var row in table.Rows)
        {
            CheckWidth(file, table, row);
            for (var c = 0; c < columns.Length; c++)
                if (
                    columns[c] is { } s
                    && Number(
                        file,
                        row,
                        c,
                        header.Cells[c].Text,
                        s.Identity,
                        CounterTableText.SplitUnit(header.Cells[c].Text).Unit
                    )
                        is { } v
                )
                    s.Samples.Add(v);
        }
    }

    /// <summary>A 'unit' column: every row is one measurement of the benchmark its name column names.</summary>
    private static void ReadLong(
        string file,
        CounterTableText.Table table,
        string? prefix,
        string? job,
        List<KeyValuePair<string, string>> parameters,
        List<Series> series
    )
    {
        var header = table.Header;
        int Find(params string[] names)
        {
            foreach (var n in names)
                for (var c = 0; c < header.Cells.Count; c++)
                    if (header.Cells[c].Text.Trim().Equals(n, StringComparison.OrdinalIgnoreCase))
                        return c;
            return -1;
        }
        var unitColumn = Find("unit");
        var nameColumn = Find(CounterTableText.NameColumns);
        var valueColumn = Find("value");
        if (nameColumn < 0)
            throw new ParseException(
                file,
                $"line {header.Line}",
                $"a table with a 'unit' column needs a name column ({string.Join(", ", CounterTableText.NameColumns)})"
            );
        if (valueColumn < 0)
            throw new ParseException(
                file,
                $"line {header.Line}",
                "a table with a 'unit' column needs a 'value' column"
            );
        var extra = Enumerable
            .Range(0, header.Cells.Count)
            .Where(c => c != unitColumn && c != nameColumn && c != valueColumn)
            .ToList();

        var byKey = new Dictionary<(string, string), Series>();
        foreach (var row in table.Rows)
        {
            CheckWidth(file, table, row);
            var nameCell = row.Cells[nameColumn];
            var name = Check.Name(nameCell.Text, file, Where(row.Line, nameCell.Column));
            var unitCell = row.Cells[unitColumn];
            if (unitCell.Text.Length == 0)
                throw new ParseException(
                    file,
                    Where(row.Line, unitCell.Column),
                    "the unit is empty; expected a unit such as ns, ms, msgs/s, B"
                );
            var rowParameters = parameters
                .Concat(
                    extra.Select(c => new KeyValuePair<string, string>(header.Cells[c].Text.Trim(), row.Cells[c].Text))
                )
                .ToList();
            var identity = Identity(
                prefix is null ? name : $"{prefix}.{name}",
                unitCell.Text,
                job,
                rowParameters,
                file,
                row.Line,
                unitCell.Column
            );
            if (!byKey.TryGetValue((identity.Key, identity.Measure), out var s))
            {
                byKey[(identity.Key, identity.Measure)] = s = new Series(identity);
                series.Add(s);
            }
            if (Number(file, row, valueColumn, "value", identity, unitCell.Text) is { } v)
                s.Samples.Add(v);
        }
    }

    private static BenchmarkResult Identity(
        string name,
        string unit,
        string? job,
        List<KeyValuePair<string, string>> parameters,
        string file,
        int line,
        int column
    )
    {
        Check.Name(name, file, Where(line, column));
        var isTime = Numbers.NanosecondsPer(unit) is not null;
        return new BenchmarkResult
        {
            Name = name,
            Parameters = parameters,
            Job = job,
            // Times are stored in ns like every other format's; other units stay as printed.
            Measure = isTime ? Measures.Time : unit,
            Unit = isTime ? "ns" : unit,
            Direction = Numbers.IsPerSecond(unit) ? Direction.HigherIsBetter : Direction.LowerIsBetter,
        };
    }

    /// <summary>The cell's number in the series' unit (times in ns), or null for an empty cell ("", "-", "n/a": no
    /// reading in that row, e.g. a counter that only runs at the end).</summary>
    private static double? Number(
        string file,
        CounterTableText.Row row,
        int column,
        string header,
        BenchmarkResult series,
        string? unit
    )
    {
        var cell = row.Cells[column];
        var text = cell.Text.Trim();
        if (CounterTableText.IsEmptyCell(text))
            return null;
        var where = Where(row.Line, cell.Column);
        // Thousands separators ("15,000") are fine outside CSV, where a comma already ends the cell.
        if (!Numbers.TryParse(text, out var value) && !Numbers.TryParseGrouped(text, out value))
            throw new ParseException(file, where, $"column '{header}': expected a number, found '{Clip(text)}'");
        var isTime = series.Measure == Measures.Time;
        var scale = isTime && unit is not null ? Numbers.NanosecondsPer(unit) ?? 1 : 1;
        return Check.Value(value * scale, file, where, $"column '{header}' value", isTime);
    }

    private static void CheckWidth(string file, CounterTableText.Table table, CounterTableText.Row row)
    {
        if (row.Cells.Count == table.Header.Cells.Count)
            return;
        var column =
            row.Cells.Count > table.Header.Cells.Count
                ? row.Cells[table.Header.Cells.Count].Column
                : (row.Cells.Count > 0 ? row.Cells[^1].Column : 1);
        throw new ParseException(
            file,
            Where(row.Line, column),
            $"expected {table.Header.Cells.Count} cells like the header on line {table.Header.Line}, found {row.Cells.Count} (end the table with a blank line before other text)"
        );
    }

    private static IEnumerable<KeyValuePair<string, string>> Parameters(string value, string file, int line)
    {
        foreach (var part in value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            var eq = part.IndexOf('=');
            if (eq <= 0)
                throw new ParseException(
                    file,
                    $"line {line}",
                    $"parameters: expected name=value pairs separated by commas, found '{Clip(part)}'"
                );
            yield return new(part[..eq].Trim(), part[(eq + 1)..].Trim());
        }
    }

    private static string Where(int line, int column) =>
        string.Create(CultureInfo.InvariantCulture, $"line {line}, column {column}");

    private static string Clip(string text) => text.Length <= 40 ? text : text[..40] + "…";
}
