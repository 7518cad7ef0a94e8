using System.Text.Json;
using System.Text.Json.Nodes;

namespace PerfService.Bisection;

/// <summary>
/// What a change-point alert remembers of its bisection, under "bisect" in its Details: the range it started from
/// (jobs are counted against that range's cap, even after the alert narrowed) and whether it is over.
/// </summary>
public sealed record BisectState(string From, string To, DateTimeOffset FromAt, DateTimeOffset ToAt, int RangeCommits, int Cap, bool Done = false)
{
    private const string Key = "bisect";

    public static BisectState? Read(string details) =>
        JsonNode.Parse(details) is JsonObject o && o[Key] is JsonObject b ? b.Deserialize<BisectState>() : null;

    public string WriteInto(string details)
    {
        var o = JsonNode.Parse(details) as JsonObject ?? [];
        o[Key] = JsonSerializer.SerializeToNode(this);
        return o.ToJsonString();
    }

    /// <summary>Carries the bisection over when an alert's details are rewritten (its range narrowed).</summary>
    public static string Carry(string fromDetails, string toDetails) =>
        Read(fromDetails) is { } state ? state.WriteInto(toDetails) : toDetails;
}
