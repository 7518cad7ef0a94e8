using System.Security.Cryptography;
using System.Text;

namespace PerfService.LoadTest;

/// <summary>How the simulated agents choose the commits they run.</summary>
public enum CommitModel
{
    /// <summary>One history of main, as a real project has: each profile's agents take its next commit in turn, so
    /// within a profile commits arrive in order except where a later one's post overtakes an earlier one's.</summary>
    Main,

    /// <summary>Each agent invents its own commit timeline (the load tool's first model): the ~17 agents of a profile
    /// interleave at random, so nearly every point reaches its series out of commit order and makes it replay. A stress
    /// test of late arrivals, not a picture of a real main branch.</summary>
    PerAgent,
}

/// <summary>The commits of main for <see cref="CommitModel.Main"/>: commit i is 1-10 minutes after commit i − 1, and every
/// profile runs every commit once, in order of taking.</summary>
public sealed class MainLine(string runTag, int seed)
{
    private readonly List<(string Sha, DateTimeOffset At)> _commits = [];
    private readonly Dictionary<string, int> _next = new(StringComparer.Ordinal);
    private readonly Random _random = new(seed);
    private DateTimeOffset _last = DateTimeOffset.UtcNow.AddDays(-30);

    /// <summary>The next commit the agents of <paramref name="profile"/> have not taken yet.</summary>
    public (string Sha, DateTimeOffset At) Next(string profile)
    {
        lock (_commits)
        {
            var i = _next.GetValueOrDefault(profile);
            _next[profile] = i + 1;
            while (_commits.Count <= i)
            {
                _last = _last.AddMinutes(1 + _random.Next(10));
                _commits.Add((Convert.ToHexStringLower(SHA1.HashData(Encoding.UTF8.GetBytes($"main-{runTag}-{_commits.Count}"))), _last));
            }
            return _commits[i];
        }
    }
}
