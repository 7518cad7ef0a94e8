using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using PerfService.Core.Contracts;

namespace PerfService.LoadTest;

/// <summary>When to stop starting requests (soft) and when to abandon the ones in flight (hard).</summary>
public sealed record Stopping(CancellationToken Soft, CancellationToken Hard);

/// <summary>
/// One simulated agent: posts runs of its profile, each for a new commit with its own Idempotency-Key, pausing
/// --think-ms (±50 %) between posts; now and then posts a run again with the same key, one after the other or two at once.
/// </summary>
public sealed class SimulatedAgent(int index, LoadOptions options, Http http, Ledger ledger, IReadOnlyList<Payload> generic,
    IReadOnlyList<Payload> fixtures, string runTag, MainLine? main = null)
{
    private static readonly string[] Profiles = ["ryzen-9950x", "i7-4790k", "m1-pro"];
    private readonly Random _random = new(options.Seed * 7919 + index);
    private DateTimeOffset _committedAt = DateTimeOffset.UtcNow.AddDays(-30);

    public async Task RunAsync(Stopping stop)
    {
        // Agents do not all start in the same millisecond.
        await Delay(_random.Next(0, Math.Max(1, Math.Min(options.ThinkMilliseconds, 1000))), stop.Soft);
        for (var seq = 0; !stop.Soft.IsCancellationRequested && ledger.TryTake(); seq++)
        {
            var payload = fixtures.Count > 0 && _random.NextDouble() < options.FixtureRate
                ? fixtures[_random.Next(fixtures.Count)]
                : generic[_random.Next(generic.Count)];
            var key = $"load-{runTag}-a{index}-{seq}";
            var run = ledger.Plan(key, payload);
            var profile = Profiles[index % Profiles.Length];
            var (sha, committedAt) = Commit(profile, key);
            var metadata = new RunMetadata
            {
                Project = options.Project,
                Commit = sha,
                CommittedAt = committedAt,
                CommitMessage = $"load test commit {seq} of agent {index}",
                Branch = "main",
                Profile = profile,
                Agent = $"load-agent-{index}",
                Suite = payload.Suite,
                Format = payload.Format,
                Environment = new Dictionary<string, string> { ["loadtest.agent"] = index.ToString(CultureInfo.InvariantCulture) },
                StartedAt = DateTimeOffset.UtcNow.AddSeconds(-5),
                FinishedAt = DateTimeOffset.UtcNow,
            };

            if (_random.NextDouble() < options.RaceRate && ledger.TryTake())
            {
                // The idempotency race: the same key twice at the same moment must still make one run.
                await Task.WhenAll(PostAsync("ingest (race)", run, metadata, stop, first: false),
                    PostAsync("ingest (race)", run, metadata, stop, first: false));
                if (run.Acknowledged && run.Created == 0) Problems.Add("ingest (race)", $"{run.Key}: mismatch: a new key answered only as a duplicate");
            }
            else
            {
                await PostAsync("ingest", run, metadata, stop, first: true);
                if (run.Acknowledged && _random.NextDouble() < options.RepeatRate && ledger.TryTake())
                    await PostAsync("ingest (repeat)", run, metadata, stop, first: false);
            }
            if (options.ThinkMilliseconds > 0)
                await Delay((int)(options.ThinkMilliseconds * (0.5 + _random.NextDouble())), stop.Soft);
        }
    }

    /// <summary>The commit this post runs: main's next for the profile, or (<see cref="CommitModel.PerAgent"/>) one of this
    /// agent's own timeline.</summary>
    private (string Sha, DateTimeOffset At) Commit(string profile, string key)
    {
        if (main is not null) return main.Next(profile);
        _committedAt = _committedAt.AddMinutes(1 + _random.Next(10));
        return (Convert.ToHexStringLower(SHA1.HashData(Encoding.UTF8.GetBytes(key))), _committedAt);
    }

    private async Task PostAsync(string kind, PlannedRun run, RunMetadata metadata, Stopping stop, bool first)
    {
        var result = await http.PostRunAsync(kind, metadata, run.Payload, run.Key, stop.Hard);
        if (result.Run is not { } created) return;
        var contradiction = run.Acknowledge(created.RunId, created.Duplicate);
        if (first && created.Duplicate) contradiction = "mismatch: a new key answered as a duplicate";
        if (kind == "ingest (repeat)" && !created.Duplicate) contradiction = "mismatch: a repeat created a second run";
        if (created.Results != run.Payload.ExpectedResults && !created.Duplicate)
            contradiction = $"mismatch: {created.Results} results acknowledged, {run.Payload.ExpectedResults} sent";
        if (contradiction is not null) Problems.Add(kind, $"{run.Key}: {contradiction}");
        else ledger.Remember(created.RunId);
    }

    private static async Task Delay(int ms, CancellationToken ct)
    {
        try
        {
            await Task.Delay(ms, ct);
        }
        catch (OperationCanceledException)
        {
        }
    }
}

/// <summary>One reader: the dashboard's and scripts' read endpoints in turn, with --reader-think-ms between calls.</summary>
public sealed class Reader(int index, LoadOptions options, Http http, Ledger ledger)
{
    private readonly Random _random = new(options.Seed * 104729 + index);
    private long? _benchmark;

    public async Task RunAsync(Stopping stop, int thinkMs)
    {
        var slug = Uri.EscapeDataString(options.Project);
        for (var i = index; !stop.Soft.IsCancellationRequested && ledger.TryTake(); i++)
        {
            switch (i % 7)
            {
                case 0:
                    await http.GetAsync("read /projects", "api/v1/projects", stop.Hard);
                    break;
                case 1:
                    if (ledger.AnyRecent(_random) is { } id) await http.GetAsync("read /runs/{id}", $"api/v1/runs/{id}", stop.Hard);
                    else await http.GetAsync("read /projects/{slug}", $"api/v1/projects/{slug}", stop.Hard);
                    break;
                case 2:
                    await http.GetAsync("read /jobs", "api/v1/jobs?limit=50", stop.Hard);
                    break;
                case 3:
                    await http.GetAsync("read /projects/{slug}/overview", $"api/v1/projects/{slug}/overview", stop.Hard);
                    break;
                case 4:
                    await http.GetAsync("read /projects/{slug}/runs", $"api/v1/projects/{slug}/runs?limit=50", stop.Hard);
                    break;
                case 5:
                    var page = await http.GetAsync("read /projects/{slug}/benchmarks", $"api/v1/projects/{slug}/benchmarks?q=Op1&limit=50", stop.Hard);
                    if (page is not null) _benchmark = FirstId(page) ?? _benchmark;
                    break;
                default:
                    if (_benchmark is { } b)
                        await http.GetAsync("read /projects/{slug}/series", $"api/v1/projects/{slug}/series?benchmark={b}&limit=500", stop.Hard);
                    break;
            }
            if (thinkMs > 0)
            {
                try
                {
                    await Task.Delay(thinkMs, stop.Soft);
                }
                catch (OperationCanceledException)
                {
                }
            }
        }
    }

    private static long? FirstId(string json)
    {
        using var doc = JsonDocument.Parse(json);
        return doc.RootElement.TryGetProperty("items", out var items) && items.GetArrayLength() > 0
            ? items[0].GetProperty("id").GetInt64()
            : null;
    }
}

/// <summary>Contradictions between what the service answered and what it should have (counted as errors).</summary>
public static class Problems
{
    private static readonly System.Collections.Concurrent.ConcurrentQueue<(string Kind, string What)> _all = new();
    public static void Add(string kind, string what) => _all.Enqueue((kind, what));
    public static IReadOnlyCollection<(string Kind, string What)> All => _all;
}
