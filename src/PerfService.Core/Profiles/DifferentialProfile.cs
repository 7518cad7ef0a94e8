using System.Globalization;

namespace PerfService.Core.Profiles;

/// <summary>One call path of the merged tree: samples of each side that passed through it (total) and ended in it
/// (self). Shares are of the side's own total, so sides of different lengths compare.</summary>
public sealed record DiffNode(
    string Name,
    long Base,
    long Head,
    long BaseSelf,
    long HeadSelf,
    IReadOnlyList<DiffNode> Children
);

/// <summary>How much of one side's samples a frame held as self time on each side, summed over every path it
/// appears on; <see cref="Growth"/> is in shares (0.18 = 18 percentage points of samples).</summary>
public sealed record FrameChange(string Frame, double BaseSelfShare, double HeadSelfShare)
{
    public double Growth => HeadSelfShare - BaseSelfShare;
}

/// <summary>
/// Head against base: both sides' stacks (normalised by <see cref="FrameNormaliser"/>) merged into one tree by frame
/// path, and the frames whose self time grew most. A profile counts samples, not time, so the sides are compared by
/// share of their own samples: a base with twice the samples is not twice as slow.
/// </summary>
public sealed class DifferentialProfile
{
    /// <summary>
    /// Below this many samples a side is too few to read. A frame's share p from n samples is uncertain by about
    /// ±1.96·√(p(1−p)/n), at most ±1/√n: 1,000 samples read shares to about ±3 points, so a frame that grew by 5
    /// points stands out of the noise; 100 samples (±10 points) would show noise as growth.
    /// </summary>
    public const long MinSamples = 1_000;

    public long BaseSamples { get; }
    public long HeadSamples { get; }
    public DiffNode Root { get; }
    public IReadOnlyList<FrameChange> Grown { get; }
    public IReadOnlyList<FrameChange> Shrunk { get; }

    public bool TooFewSamples => BaseSamples < MinSamples || HeadSamples < MinSamples;

    private DifferentialProfile(
        long baseSamples,
        long headSamples,
        DiffNode root,
        IReadOnlyList<FrameChange> changes,
        int top
    )
    {
        BaseSamples = baseSamples;
        HeadSamples = headSamples;
        Root = root;
        Grown = changes
            .Where(c => c.Growth > 0)
            .OrderByDescending(c => c.Growth)
            .ThenBy(c => c.Frame, StringComparer.Ordinal)
            .Take(top)
            .ToList();
        Shrunk = changes
            .Where(c => c.Growth < 0)
            .OrderBy(c => c.Growth)
            .ThenBy(c => c.Frame, StringComparer.Ordinal)
            .Take(top)
            .ToList();
    }

    /// <param name="minShare">Paths holding less than this share of samples on both sides are left out of the tree
    /// (their
    /// samples still count in their parents): a drawing cannot show them, and a hostile profile's long tail stays
    /// small.</param>
    public static DifferentialProfile Build(
        FoldedStacks baseStacks,
        FoldedStacks headStacks,
        double minShare = 0.0005,
        int top = 10
    )
    {
        var left = FrameNormaliser.Normalise(baseStacks);
        var right = FrameNormaliser.Normalise(headStacks);
        var root = new MutableNode("all");
        Add(root, left, isHead: false);
        Add(root, right, isHead: true);

        var self = new Dictionary<string, (long Base, long Head)>(StringComparer.Ordinal);
        CollectSelf(root, self);
        var changes = self.Select(s => new FrameChange(
                s.Key,
                Share(s.Value.Base, left.TotalSamples),
                Share(s.Value.Head, right.TotalSamples)
            ))
            .ToList();
        return new DifferentialProfile(
            left.TotalSamples,
            right.TotalSamples,
            root.Freeze(left.TotalSamples, right.TotalSamples, minShare),
            changes,
            top
        );
    }

    /// <summary>"`Rivulet.RetryPolicy.Execute` +18% of samples", one line per frame that grew most.</summary>
    public IEnumerable<string> Summary(int count = 3) =>
        Grown
            .Take(count)
            .Select(c =>
                string.Create(
                    CultureInfo.InvariantCulture,
                    $"`{c.Frame}` +{c.Growth * 100:0.#}% of samples ({c.BaseSelfShare * 100:0.#}% → {c.HeadSelfShare * 100:0.#}%)"
                )
            );

    private static double Share(long samples, long total) => total == 0 ? 0 : (double)samples / total;

    private static void Add(MutableNode root, FoldedStacks stacks, bool isHead)
    {
        foreach (var (stack, count) in stacks.Stacks)
        {
            var node = root;
            node.Add(count, isHead);
            foreach (var frame in FoldedStacks.Frames(stack))
            {
                node = node.Child(frame);
                node.Add(count, isHead);
            }
            node.AddSelf(count, isHead);
        }
    }

    private static void CollectSelf(MutableNode node, Dictionary<string, (long Base, long Head)> self)
    {
        foreach (var child in node.Children.Values)
        {
            if (child.BaseSelf + child.HeadSelf > 0)
            {
                var sum = self.GetValueOrDefault(child.Name);
                self[child.Name] = (sum.Base + child.BaseSelf, sum.Head + child.HeadSelf);
            }
            CollectSelf(child, self);
        }
    }

    private sealed class MutableNode(string name)
    {
        public string Name { get; } = name;
        public long Base,
            Head,
            BaseSelf,
            HeadSelf;
        public Dictionary<string, MutableNode> Children { get; } = new(StringComparer.Ordinal);

        public MutableNode Child(string frame)
        {
            if (!Children.TryGetValue(frame, out var child))
                Children[frame] = child = new MutableNode(frame);
            return child;
        }

        public void Add(long count, bool isHead)
        {
            if (isHead)
                Head += count;
            else
                Base += count;
        }

        public void AddSelf(long count, bool isHead)
        {
            if (isHead)
                HeadSelf += count;
            else
                BaseSelf += count;
        }

        public DiffNode Freeze(long baseTotal, long headTotal, double minShare) =>
            new(
                Name,
                Base,
                Head,
                BaseSelf,
                HeadSelf,
                Children
                    .Values.Where(c => Share(c.Base, baseTotal) >= minShare || Share(c.Head, headTotal) >= minShare)
                    .OrderBy(c => c.Name, StringComparer.Ordinal)
                    .Select(c => c.Freeze(baseTotal, headTotal, minShare))
                    .ToList()
            );
    }
}
