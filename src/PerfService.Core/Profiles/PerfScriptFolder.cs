using System.Text.RegularExpressions;

namespace PerfService.Core.Profiles;

/// <summary>
/// Folds <c>perf script</c> text (after <c>perf record -g</c>) into stacks, as Brendan Gregg's stackcollapse-perf.pl
/// does: each sample is a header line ("comm pid/tid time: period event:") followed by one indented line a frame,
/// leaf first ("addr symbol+0xoff (dso)"), and a blank line. The command name becomes the root frame, offsets are
/// dropped, and a frame perf could not name is named after its binary ("[libc.so.6]"). Runs on the agent, where the
/// binaries and their symbols are; the service stores the result as folded stacks.
/// </summary>
public static partial class PerfScriptFolder
{
    [GeneratedRegex(@"^(\S.*?)\s+\d+(/\d+)?\s")]
    private static partial Regex Header();

    [GeneratedRegex(@"^[0-9a-fA-F]+\s+(.*?)(\+0x[0-9a-fA-F]+)?\s+\((.*)\)$")]
    private static partial Regex Frame();

    public static FoldedStacks Fold(TextReader reader, ProfileLimits limits)
    {
        var builder = new FoldedStacks.Builder(limits);
        string? comm = null;
        var frames = new List<string>();
        var lineNumber = 0;
        var sampleLine = 0;
        void Flush()
        {
            if (comm is null)
                return;
            frames.Add(comm);
            frames.Reverse();
            builder.Add(frames, 1, $"sample at line {sampleLine}");
            frames.Clear();
            comm = null;
        }
        while (reader.ReadLine() is { } line)
        {
            lineNumber++;
            if (line.Length == 0 || line.StartsWith('#'))
            {
                Flush();
                continue;
            }
            if (!char.IsWhiteSpace(line[0]))
            {
                Flush();
                var header = Header().Match(line);
                comm = ProfileInput.FrameName(header.Success ? header.Groups[1].Value.Trim() : line.Split(' ', 2)[0]);
                sampleLine = lineNumber;
                continue;
            }
            if (comm is null)
                throw new ProfileFormatException($"line {lineNumber}: a stack frame outside a sample");
            if (frames.Count >= limits.MaxDepth)
                throw new ProfileFormatException($"line {lineNumber}: stack is deeper than {limits.MaxDepth} frames");
            frames.Add(ProfileInput.FrameName(Name(line.Trim())));
        }
        Flush();
        return builder.Build();
    }

    private static string Name(string frame)
    {
        var match = Frame().Match(frame);
        if (!match.Success)
            return frame;
        var symbol = match.Groups[1].Value;
        if (symbol != "[unknown]" && symbol.Length > 0)
            return symbol;
        var dso = match.Groups[3].Value;
        return dso is "" or "[unknown]" ? "[unknown]" : $"[{Path.GetFileName(dso)}]";
    }
}
