using System.Text.RegularExpressions;

namespace PerfService.Tests.Docs;

/// <summary>What the real `./perf help` prints, as verbs and the text of each verb's entry.</summary>
internal static partial class PerfHelp
{
    private static readonly Lazy<IReadOnlyDictionary<string, string>> _entries = new(Load);

    public static IReadOnlyDictionary<string, string> Entries => _entries.Value;

    /// <summary>Entries of a usage text: a line indented by exactly two spaces starts a verb's entry; deeper lines continue it.</summary>
    public static IReadOnlyDictionary<string, string> Parse(string usage)
    {
        var entries = new Dictionary<string, string>(StringComparer.Ordinal);
        string? verb = null;
        foreach (var line in usage.Split('\n'))
        {
            if (EntryStart().Match(line) is { Success: true } m) entries[verb = m.Groups[1].Value] = line;
            else if (verb is not null && line.StartsWith("   ", StringComparison.Ordinal)) entries[verb] += "\n" + line;
            else verb = null;
        }
        return entries;
    }

    /// <summary>The problems of one `./perf VERB ARGS` mention: an unknown verb, or a --flag its entry does not name.</summary>
    public static IEnumerable<string> Check(string verb, IEnumerable<string> flags, IReadOnlyDictionary<string, string> entries)
    {
        if (!entries.TryGetValue(verb, out var entry))
        {
            yield return $"'./perf {verb}': no such verb in ./perf help (verbs: {string.Join(", ", entries.Keys)})";
            yield break;
        }
        foreach (var flag in flags.Where(f => !Regex.IsMatch(entry, "(?<![\\w-])" + Regex.Escape(f) + "(?![\\w-])")))
            yield return $"'./perf {verb} {flag}': ./perf help does not name {flag} for {verb}";
    }

    /// <summary>Every `./perf VERB ...` in a text: the verb and the --flags of the same command (a line, joined over
    /// trailing backslashes, up to the end of its code span, a comment or the next command).</summary>
    public static IEnumerable<(string Verb, IReadOnlyList<string> Flags, string Mention)> Mentions(string text)
    {
        foreach (Match m in Mention().Matches(text.Replace("\\\n", " ")))
        {
            var command = Regex.Split(m.Groups[2].Value, @"\s(?:#|&&|\|\||;|\|)\s")[0];
            var flags = FlagPattern().Matches(command).Select(f => f.Groups[1].Value).ToList();
            yield return (m.Groups[1].Value, flags, ("./perf " + m.Groups[1].Value + command).Trim());
        }
    }

    private static IReadOnlyDictionary<string, string> Load()
    {
        var process = ChildProcess.Start(Path.Combine(Documents.Root, "perf"), ["help"], Documents.Root);
        try
        {
            Assert.True(process.WaitForExitAsync(TimeSpan.FromMinutes(1)).GetAwaiter().GetResult(), "./perf help did not finish");
            Assert.True(process.ExitCode == 0, $"./perf help exited {process.ExitCode}: {process.Output}");
            var entries = Parse(process.Output);
            Assert.True(entries.Count > 5, "./perf help printed no verbs:\n" + process.Output);
            return entries;
        }
        finally
        {
            process.DisposeAsync().AsTask().GetAwaiter().GetResult();
        }
    }

    [GeneratedRegex(@"^  ([a-z][a-z-]*)(?=\s|$)")]
    private static partial Regex EntryStart();

    [GeneratedRegex(@"(?<![\w/.-])\./perf[ \t]+([a-z][a-z-]*)([^\n`]*)")]
    private static partial Regex Mention();

    [GeneratedRegex(@"(?<![\w-])(--[a-z][a-z-]*)")]
    private static partial Regex FlagPattern();
}
