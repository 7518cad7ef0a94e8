namespace PerfService.Core.Profiles;

/// <summary>Weights per call path, kept as a tree of frame indices so that a reader adds to a path without building
/// its text each time; <see cref="Emit"/> rounds each path's weight to a whole count once, at the end.</summary>
internal sealed class StackTree(ProfileLimits limits)
{
    public const int Root = -1;
    private readonly List<(int Parent, int Frame)> _nodes = [];
    private readonly Dictionary<(int Parent, int Frame), int> _children = [];
    private readonly List<double> _weights = [];

    /// <summary>A hostile file can open ever new paths that never get a weight; those count too.</summary>
    private int MaxNodes => limits.MaxStacks * 4;

    public int Child(int parent, int frame, string where)
    {
        if (_children.TryGetValue((parent, frame), out var node))
            return node;
        if (_nodes.Count >= MaxNodes)
            throw new ProfileFormatException($"{where}: more than {MaxNodes} distinct call paths");
        _nodes.Add((parent, frame));
        _weights.Add(0);
        return _children[(parent, frame)] = _nodes.Count - 1;
    }

    public void Add(int node, double weight) => _weights[node] += weight;

    public void Emit(FoldedStacks.Builder builder, IReadOnlyList<string> frameNames, string where)
    {
        var path = new List<string>();
        for (var node = 0; node < _nodes.Count; node++)
        {
            var count = (long)Math.Round(_weights[node], MidpointRounding.AwayFromZero);
            if (count <= 0)
                continue;
            path.Clear();
            for (var n = node; n != Root; n = _nodes[n].Parent)
                path.Add(frameNames[_nodes[n].Frame]);
            path.Reverse();
            builder.Add(path, count, where);
        }
    }
}
