using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
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
    private readonly ConcurrentDictionary<string, StrongBox<long>> _next = new();
    private readonly ConcurrentDictionary<long, (string Sha, DateTimeOffset At)> _commits = new();
    private readonly DateTimeOffset _start = DateTimeOffset.UtcNow.AddDays(-30);
    private readonly object _grow = new();
    private readonly Random _random = new(seed);
    private DateTimeOffset _last;
    private long _count;

    /// <summary>The next commit the agents of <paramref name="profile"/> have not taken yet.</summary>
    public (string Sha, DateTimeOffset At) Next(string profile)
    {
        var i = Interlocked.Increment(ref _next.GetOrAdd(profile, _ => new StrongBox<long>(-1)).Value);
        lock (_grow)
        {
            for (; _count <= i; _count++)
            {
                _last = (_count == 0 ? _start : _last).AddMinutes(1 + _random.Next(10));
                _commits[_count] = (Convert.ToHexStringLower(SHA1.HashData(Encoding.UTF8.GetBytes($"main-{runTag}-{_count}"))), _last);
            }
        }
        return _commits[i];
    }
}
