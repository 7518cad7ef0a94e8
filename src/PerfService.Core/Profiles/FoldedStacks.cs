using System.Globalization;

namespace PerfService.Core.Profiles;

/// <summary>
/// Sample counts per call stack: the one form every harness's profile is stored, differenced and drawn in (Brendan
/// Gregg's "folded stacks": frames root first, joined by ';', then a space and the count). Frames never contain ';'
/// (readers replace it) so a stack splits back into its frames.
/// </summary>
public sealed class FoldedStacks
{
    private readonly Dictionary<string, long> _stacks;

    public FoldedStacks(IReadOnlyDictionary<string, long> stacks)
    {
        _stacks = new Dictionary<string, long>(stacks, StringComparer.Ordinal);
        TotalSamples = _stacks.Values.Sum();
    }

    public IReadOnlyDictionary<string, long> Stacks => _stacks;
    public long TotalSamples { get; }

    public static IReadOnlyList<string> Frames(string stack) => stack.Split(';');

    /// <summary>Reads "a;b;c 12" lines. Blank lines are skipped; anything else that is not a stack and a count is an
    /// error naming the line.</summary>
    public static FoldedStacks Parse(TextReader reader, ProfileLimits limits)
    {
        var builder = new Builder(limits);
        var lineNumber = 0;
        while (reader.ReadLine() is { } line)
        {
            lineNumber++;
            if (line.Length == 0)
                continue;
            var space = line.LastIndexOf(' ');
            if (
                space <= 0
                || !long.TryParse(
                    line.AsSpan(space + 1),
                    NumberStyles.None,
                    CultureInfo.InvariantCulture,
                    out var count
                )
            )
                throw new ProfileFormatException($"line {lineNumber}: expected 'frame;frame;... count'");
            builder.Add(Frames(line[..space]), count, $"line {lineNumber}");
        }
        return builder.Build();
    }

    public void Write(TextWriter writer)
    {
        foreach (var (stack, count) in _stacks.OrderBy(s => s.Key, StringComparer.Ordinal))
            writer.Write(string.Create(CultureInfo.InvariantCulture, $"{stack} {count}\n"));
    }

    /// <summary>Accumulates stacks from any reader, enforcing <see cref="ProfileLimits"/> as it goes.</summary>
    public sealed class Builder(ProfileLimits limits)
    {
        private readonly Dictionary<string, long> _stacks = new(StringComparer.Ordinal);

        public void Add(IReadOnlyList<string> framesRootFirst, long count, string where)
        {
            if (count < 0)
                throw new ProfileFormatException($"{where}: negative sample count {count}");
            if (count == 0 || framesRootFirst.Count == 0)
                return;
            if (framesRootFirst.Count > limits.MaxDepth)
                throw new ProfileFormatException(
                    $"{where}: stack is {framesRootFirst.Count} frames deep (at most {limits.MaxDepth})"
                );
            foreach (var frame in framesRootFirst)
            {
                if (frame.Length > limits.MaxFrameLength)
                    throw new ProfileFormatException(
                        $"{where}: a frame name is {frame.Length} characters (at most {limits.MaxFrameLength})"
                    );
            }
            var stack = string.Join(';', framesRootFirst.Select(f => f.Replace(';', ':')));
            if (!_stacks.ContainsKey(stack) && _stacks.Count >= limits.MaxStacks)
                throw new ProfileFormatException($"{where}: more than {limits.MaxStacks} distinct stacks");
            _stacks[stack] = checked(_stacks.GetValueOrDefault(stack) + count);
        }

        public FoldedStacks Build() => new(_stacks);
    }
}
