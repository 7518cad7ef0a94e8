using System.Text;
using System.Text.RegularExpressions;
using PerfService.Core.Parsing.Common;

namespace PerfService.Core.Parsing.Counters;

/// <summary>
/// Finds and splits the one table of a counter-table file: Markdown (<c>| a | b |</c>), CSV (<c>a,b</c>) or plain
/// text (header cells separated by two or more spaces or a tab, data cells by any whitespace). Every cell keeps its
/// 1-based character column, so errors can point at line and column. Reading only: meaning is the parser's job.
/// </summary>
internal static partial class CounterTableText
{
    public enum Style
    {
        Markdown,
        Csv,
        Plain,
    }

    public readonly record struct Cell(string Text, int Column);

    public sealed record Row(int Line, IReadOnlyList<Cell> Cells);

    /// <summary>The table's header, its rows, and the <c># key: value</c> lines that came before it.</summary>
    public sealed record Table(
        Style Style,
        Row Header,
        IReadOnlyList<Row> Rows,
        IReadOnlyList<(int Line, string Key, string Value)> Directives
    );

    [GeneratedRegex(@"^(?<name>.*?\S)\s*(?:\((?<unit>[^()]{1,32})\)|\[(?<unit>[^\[\]]{1,32})\])$")]
    private static partial Regex UnitCell();

    [GeneratedRegex(@"^\s*#\s*(?<key>[A-Za-z][A-Za-z0-9_.\-]*)\s*:\s*(?<value>.*?)\s*$")]
    private static partial Regex Directive();

    /// <summary>"Sent (msgs/s)" or "Sent [msgs/s]" → ("Sent", "msgs/s"); a cell without a unit → (text,
    /// null).</summary>
    public static (string Name, string? Unit) SplitUnit(string header)
    {
        var m = UnitCell().Match(header.Trim());
        return m.Success && m.Groups["unit"].Value.Trim().Length > 0
            ? (m.Groups["name"].Value.Trim(), m.Groups["unit"].Value.Trim())
            : (header.Trim(), null);
    }

    /// <summary>True when a header cell names the unit column of the long layout.</summary>
    public static bool IsUnitColumn(string header) => header.Trim().Equals("unit", StringComparison.OrdinalIgnoreCase);

    /// <summary>Header cells that name the benchmark in the long layout, in order of preference.</summary>
    public static readonly string[] NameColumns = ["benchmark", "name", "counter", "metric", "method", "test"];

    /// <summary>Quick check for format detection: the file has a table this format reads (see <see
    /// cref="TryRead"/>).</summary>
    public static bool Looks(string text) => TryRead(text, out _, out _, strict: true);

    /// <summary>"", "-" or "n/a": no reading in that row (e.g. a counter that only runs at the end).</summary>
    public static bool IsEmptyCell(string text) =>
        text.Length == 0 || text == "-" || text.Equals("n/a", StringComparison.OrdinalIgnoreCase);

    /// <summary>
    /// A header and first row this format reads: numbers where the header says they are. Lines that merely end in
    /// parentheses (BenchmarkDotNet's "[Host] : .NET 10.0.0 (10.0.25), X64" lines) are no table; nor is one with a
    /// 'unit' column but without the long layout's name and value columns (criterion's raw.csv: group, function,
    /// value, …, unit).
    /// </summary>
    private static bool IsCounterTable(IReadOnlyList<Cell> headerCells, IReadOnlyList<Cell> first)
    {
        var header = headerCells.Select(c => c.Text.Trim()).ToList();
        bool IsNumber(int column) =>
            column < first.Count
            && first[column].Text.Trim() is var t
            && (Numbers.TryParse(t, out _) || Numbers.TryParseGrouped(t, out _));
        bool IsNumberOrEmpty(int column) =>
            column < first.Count && (IsEmptyCell(first[column].Text.Trim()) || IsNumber(column));

        var unitColumns = Enumerable.Range(0, header.Count).Where(c => SplitUnit(header[c]).Unit is not null).ToList();
        if (!header.Any(IsUnitColumn))
            return unitColumns.Count > 0 && unitColumns.All(IsNumberOrEmpty) && unitColumns.Any(IsNumber);
        var value = header.FindIndex(h => h.Equals("value", StringComparison.OrdinalIgnoreCase));
        return header.Any(h => NameColumns.Contains(h, StringComparer.OrdinalIgnoreCase))
            && value >= 0
            && IsNumber(value);
    }

    /// <summary>Reads the first table with numbers where its header says, else the first with a unit anywhere (so that
    /// the parser can say what is wrong with it). Returns false when there is none; <paramref name="why"/> then says
    /// what
    /// was looked for. Rows end at a blank line, a '#' comment, the end of the file, or (Markdown) a line without
    /// '|'.</summary>
    public static bool TryRead(string text, out Table? table, out string why) =>
        TryRead(text, out table, out why, strict: true) || TryRead(text, out table, out why, strict: false);

    private static bool TryRead(string text, out Table? table, out string why, bool strict)
    {
        table = null;
        why =
            "no table found: expected a header row with units, e.g. '| Time (s) | Sent (msgs/s) |', 'Time (s),Sent (msgs/s)' or "
            + "'Time (s)  Sent (msgs/s)', or a 'unit' column, followed by one row per measurement (see COUNTER_TABLES.md)";
        var lines = TextLines.Read(text).ToList();
        var directives = new List<(int, string, string)>();
        for (var i = 0; i < lines.Count; i++)
        {
            var line = lines[i];
            if (line.Text.Length > 100_000)
            {
                why = $"line {line.Number} is longer than 100,000 characters";
                return false;
            }
            var directive = Directive().Match(line.Text);
            if (directive.Success)
            {
                directives.Add((line.Number, directive.Groups["key"].Value, directive.Groups["value"].Value));
                continue;
            }
            var style = StyleOf(line.Text);
            var header = Split(line.Text, style, header: true);
            if (header.Count < 2 || !header.Any(c => SplitUnit(c.Text).Unit is not null || IsUnitColumn(c.Text)))
                continue;
            var next = i + 1;
            if (style == Style.Markdown && next < lines.Count && IsMarkdownRule(lines[next].Text))
                next++;
            if (next >= lines.Count || string.IsNullOrWhiteSpace(lines[next].Text))
                continue;
            if (
                StyleOf(lines[next].Text) != style
                && !(style == Style.Plain && StyleOf(lines[next].Text) == Style.Plain)
            )
                continue;
            var first = Split(lines[next].Text, style, header: false);
            if (first.Count != header.Count || (strict && !IsCounterTable(header, first)))
                continue;

            var rows = new List<Row>();
            for (var j = next; j < lines.Count; j++)
            {
                var t = lines[j].Text;
                if (string.IsNullOrWhiteSpace(t) || t.TrimStart().StartsWith('#'))
                    break;
                if (style == Style.Markdown && !t.TrimStart().StartsWith('|'))
                    break;
                rows.Add(new Row(lines[j].Number, Split(t, style, header: false)));
            }
            table = new Table(style, new Row(line.Number, header), rows, directives);
            return true;
        }
        return false;
    }

    private static Style StyleOf(string line) =>
        line.TrimStart().StartsWith('|') ? Style.Markdown
        : line.Contains(',') ? Style.Csv
        : Style.Plain;

    private static bool IsMarkdownRule(string line)
    {
        var cells = Split(line, Style.Markdown, header: true);
        return cells.Count > 0
            && cells.All(c =>
                c.Text.Length > 0 && c.Text.Trim(':').Length > 0 && c.Text.Trim(':').All(ch => ch == '-')
            );
    }

    public static IReadOnlyList<Cell> Split(string line, Style style, bool header) =>
        style switch
        {
            Style.Markdown => SplitMarkdown(line),
            Style.Csv => SplitCsv(line),
            _ => SplitPlain(line, header),
        };

    private static List<Cell> SplitMarkdown(string line)
    {
        var cells = new List<Cell>();
        var start = line.IndexOf('|') + 1;
        while (start <= line.Length)
        {
            var end = line.IndexOf('|', start);
            if (end < 0)
            {
                // Text after the last '|' is a cell only when it is not blank (a row may omit the closing pipe).
                if (line[start..].Trim().Length > 0)
                    cells.Add(Trimmed(line, start, line.Length));
                break;
            }
            cells.Add(Trimmed(line, start, end));
            start = end + 1;
        }
        return cells;
    }

    private static List<Cell> SplitCsv(string line)
    {
        var cells = new List<Cell>();
        var i = 0;
        while (true)
        {
            var start = i;
            while (i < line.Length && line[i] == ' ')
                i++;
            if (i < line.Length && line[i] == '"')
            {
                // A quoted cell: "" is a quote inside it.
                var column = i + 1;
                var text = new StringBuilder();
                i++;
                while (i < line.Length && !(line[i] == '"' && (i + 1 >= line.Length || line[i + 1] != '"')))
                {
                    if (line[i] == '"')
                        i++;
                    text.Append(line[i++]);
                }
                i = Math.Min(line.Length, i + 1);
                cells.Add(new Cell(text.ToString(), column));
                while (i < line.Length && line[i] != ',')
                    i++;
            }
            else
            {
                var end = line.IndexOf(',', i);
                if (end < 0)
                    end = line.Length;
                cells.Add(Trimmed(line, start, end));
                i = end;
            }
            if (i >= line.Length)
                break;
            i++; // the comma
        }
        return cells;
    }

    private static List<Cell> SplitPlain(string line, bool header)
    {
        // Header cells may hold single spaces ("Sent (msgs/s)"); numbers never do.
        var cells = new List<Cell>();
        var i = 0;
        while (i < line.Length)
        {
            while (i < line.Length && char.IsWhiteSpace(line[i]))
                i++;
            if (i >= line.Length)
                break;
            var start = i;
            while (i < line.Length && !IsGap(line, i, header))
                i++;
            cells.Add(new Cell(line[start..i].TrimEnd(), start + 1));
        }
        return cells;
    }

    private static bool IsGap(string line, int i, bool header) =>
        line[i] == '\t'
        || (char.IsWhiteSpace(line[i]) && (!header || (i + 1 < line.Length && char.IsWhiteSpace(line[i + 1]))));

    private static Cell Trimmed(string line, int start, int end)
    {
        while (start < end && char.IsWhiteSpace(line[start]))
            start++;
        while (end > start && char.IsWhiteSpace(line[end - 1]))
            end--;
        return new Cell(line[start..end], start + 1);
    }
}
