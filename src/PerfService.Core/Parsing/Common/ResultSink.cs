using PerfService.Core.Results;

namespace PerfService.Core.Parsing.Common;

/// <summary>Collects what a parser finds across files: results, environment facts and warnings.</summary>
internal sealed class ResultSink(string format)
{
    private readonly Dictionary<string, string> _environment = new(StringComparer.Ordinal);

    public string Format { get; } = format;
    public List<BenchmarkResult> Results { get; } = [];
    public List<string> Warnings { get; } = [];

    /// <summary>Records an environment fact. The first file wins; a different value from another file is only warned
    /// about, because runs uploaded together are expected to come from one machine.</summary>
    public void Environment(string key, string? value, string file)
    {
        if (string.IsNullOrWhiteSpace(value))
            return;
        value = value.Trim();
        if (_environment.TryGetValue(key, out var existing))
        {
            if (existing != value)
                Warnings.Add(
                    $"{file}: environment '{key}' is '{value}' here but '{existing}' elsewhere; kept '{existing}'"
                );
            return;
        }
        _environment[key] = value;
    }

    public ParseResult ToResult() => new(Format, Results, _environment, Warnings);

    public static ParseResult Merge(string format, IEnumerable<ParseResult> parts)
    {
        var sink = new ResultSink(format);
        foreach (var part in parts)
        {
            sink.Results.AddRange(part.Results);
            sink.Warnings.AddRange(part.Warnings);
            foreach (var (key, value) in part.Environment)
                sink.Environment(key, value, part.Format);
        }
        return sink.ToResult();
    }
}
