using System.Text.Json.Nodes;

namespace PerfService.Demo;

public sealed partial class DemoChecks
{
    /// <summary>An alert placed as near the planted commit as the runs its series kept allow, and why.</summary>
    internal sealed record NearAlert(JsonNode Alert, string Profile, string Text);

    /// <summary>Whether each run read so far was left out as disturbed (decided when it was stored, never after).</summary>
    private readonly Dictionary<long, bool> _leftOut = [];

    /// <summary>
    /// Alerts of the planted family that name a later commit than the planted one, on a profile where every run of
    /// the commits between the alert's two commits was left out as disturbed. The series holds no point between them,
    /// so the change lies exactly where the alert says: at the first run the series kept after the planted commit. A
    /// busy machine disturbs whole stretches of the history; the agents repeat a disturbed round and then give up.
    /// </summary>
    internal async Task<List<NearAlert>> AsNearAsKeptAsync(IEnumerable<JsonNode?> alerts, CancellationToken ct)
    {
        var index = history.Main.Select((c, i) => (c.Sha, i)).ToDictionary(x => x.Sha, x => x.i);
        var near = new List<NearAlert>();
        JsonArray? runs = null;
        foreach (var alert in alerts.OfType<JsonNode>())
        {
            if (
                !index.TryGetValue((string?)alert["fromCommit"] ?? "", out var from)
                || !index.TryGetValue((string?)alert["toCommit"] ?? "", out var to)
                || from >= scenario.PlantedAt
                || to < scenario.PlantedAt
            )
                continue;
            var profile = (string?)alert["profile"] ?? "";
            runs ??= await api.GetArrayAsync($"api/v1/projects/{DemoScenario.Project}/runs?limit=1000", ct);
            var (kept, disturbed, measured) = (0, 0, new HashSet<int>());
            foreach (
                var run in runs.OfType<JsonNode>()
                    .Where(r =>
                        (string?)r["profile"] == profile
                        && (string?)r["branch"] == "main"
                        && scenario.HistorySuites.Contains((string?)r["suite"] ?? "")
                    )
            )
            {
                if (!index.TryGetValue((string?)run["commit"] ?? "", out var i) || i <= from || i >= to)
                    continue;
                var id = (long)run["id"]!;
                if (!_leftOut.TryGetValue(id, out var leftOut))
                    _leftOut[id] = leftOut =
                        (bool?)(await api.GetAsync($"api/v1/runs/{id}", ct))?["run"]?["leftOutAsDisturbed"] == true;
                if (leftOut)
                    disturbed++;
                else
                    kept++;
                measured.Add(i);
            }
            // Every commit inside was run and none of its runs was kept: the series has no point nearer the change.
            if (kept == 0 && measured.Count == to - from - 1)
                near.Add(
                    new NearAlert(
                        alert,
                        profile,
                        $"on {profile} at commit {to + 1}, the first run its series kept after the planted commit "
                            + $"(all {disturbed} runs of commits {from + 2}–{to} were left out as disturbed)"
                    )
                );
        }
        return near;
    }
}
