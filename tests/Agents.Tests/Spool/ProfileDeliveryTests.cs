using System.Text;
using PerfService.Agents.Client;
using PerfService.Agents.Spool;
using PerfService.Agents.Tests.Support;
using PerfService.Agents.Worker;
using PerfService.Core.Contracts;
using PerfService.Core.Parsing;

namespace PerfService.Agents.Tests.Spool;

/// <summary>Profiles go through the same spool as result sets: kept across restarts, retried within the job while
/// the service answers with a transient failure, never retried once it refuses the content.</summary>
public sealed class ProfileDeliveryTests : IDisposable
{
    private const string Key = "job-42-profile-fibers-context_switch%2Fraw-head-1";
    private readonly TempDir _dir = new();
    private static readonly ProfileUploadMetadata _profile = new(42, 7, "fibers", "context_switch/raw", "head", "folded");
    private static readonly Artifact _file = new("perf.folded", Encoding.UTF8.GetBytes("bench;main;hot 40\n"));

    // Short delays: the policy is Backoff's, tested on its own; here only its use.
    private static readonly Backoff _fast = new(TimeSpan.FromMilliseconds(20), TimeSpan.FromMilliseconds(100));

    private RunSpool NewSpool() => new(_dir.Combine("spool"));

    private static RunDelivery Delivery(RunSpool spool, HttpClient http) =>
        new(spool, new PerfServiceClient(http), backoff: _fast, random: () => 0.5);

    [Fact]
    public void A_spooled_profile_survives_a_restart_with_its_metadata_and_file()
    {
        NewSpool().Write(Key, _profile, _file);

        var entry = NewSpool().Read(Assert.Single(NewSpool().Pending()));
        Assert.Equal((Key, _profile, (RunMetadata?)null), (entry.Key, entry.Profile, entry.Run));
        var file = Assert.Single(entry.Files);
        Assert.Equal((_file.Path, "bench;main;hot 40\n"), (file.Path, Encoding.UTF8.GetString(file.Content.Span)));
    }

    [Fact]
    public async Task A_service_answering_503_a_few_times_then_ok_gets_the_profile_once_under_one_key()
    {
        var posts = 0;
        using var service = new FakeService(_ => Interlocked.Increment(ref posts) <= 3
            ? FakeResponse.Problem(503, "Uploads busy", "too many uploads are being stored at once")
            : new FakeResponse(201, new ProfileCreated(12)));
        using var http = PerfServiceClient.CreateHttpClient(service.Url, "secret");
        var spool = NewSpool();
        spool.Write(Key, _profile, _file);
        var log = new List<string>();

        var delivery = await Delivery(spool, http).DeliverRetryingAsync(Key, TimeSpan.FromSeconds(30), log.Add, CancellationToken.None);

        Assert.Equal((DeliveryStatus.Posted, "profile 12"), (delivery.Status, delivery.Stored));
        Assert.Empty(spool.Pending());
        var requests = service.To("/api/v1/profiles");
        Assert.Equal(4, requests.Count);
        Assert.All(requests, r => Assert.Equal(Key, r.Header("Idempotency-Key")));
        Assert.All(requests, r => Assert.Equal(["profile", "file"], r.Parts().Select(p => p.Name)));
        Assert.Equal(3, log.Count(l => l.Contains("Uploads busy", StringComparison.Ordinal)));
    }

    [Fact]
    public async Task A_service_still_away_when_the_retries_run_out_leaves_the_profile_in_the_spool()
    {
        using var http = PerfServiceClient.CreateHttpClient("http://127.0.0.1:1/", "secret");
        var spool = NewSpool();
        spool.Write(Key, _profile, _file);

        var delivery = await Delivery(spool, http).DeliverRetryingAsync(Key, TimeSpan.FromMilliseconds(300), _ => { }, CancellationToken.None);

        Assert.Equal((DeliveryStatus.Kept, ApiStatus.Transient), (delivery.Status, delivery.Answer));
        Assert.Equal([Key], spool.Pending());
    }

    [Fact]
    public async Task A_400_is_not_retried_and_the_profile_is_set_aside_with_the_services_message()
    {
        using var service = new FakeService(_ => FakeResponse.Problem(400, "Unreadable profile", "the file is not a readable folded profile: line 1"));
        using var http = PerfServiceClient.CreateHttpClient(service.Url, "secret");
        var spool = NewSpool();
        spool.Write(Key, _profile, _file);

        var delivery = await Delivery(spool, http).DeliverRetryingAsync(Key, TimeSpan.FromSeconds(30), _ => { }, CancellationToken.None);

        Assert.Equal(DeliveryStatus.Rejected, delivery.Status);
        Assert.Contains("Unreadable profile: the file is not a readable folded profile: line 1", delivery.Error);
        Assert.Single(service.To("/api/v1/profiles"));
        Assert.Empty(spool.Pending());
        var rejected = Assert.Single(Directory.GetDirectories(_dir.Combine("spool", RunSpool.RejectedDir)));
        Assert.Contains("not a readable folded profile", File.ReadAllText(Path.Combine(rejected, "rejected.txt")));
    }

    [Fact]
    public async Task A_drain_posts_spooled_profiles_and_result_sets_oldest_first_each_to_its_route()
    {
        using var service = new FakeService(r => r.Path == "/api/v1/profiles"
            ? new FakeResponse(200, new ProfileCreated(12, Duplicate: true))
            : new FakeResponse(201, new RunCreated(77, false, 1, 3)));
        using var http = PerfServiceClient.CreateHttpClient(service.Url, "secret");
        new RunSpool(_dir.Combine("spool"), new At(DateTimeOffset.UnixEpoch)).Write(Key, _profile, _file);
        var spool = new RunSpool(_dir.Combine("spool"), new At(DateTimeOffset.UnixEpoch.AddSeconds(1)));
        spool.Write("job-5-fibers-head-1", new RunMetadata { Project = "demo", Commit = "abc", Profile = "ci", Suite = "fibers" }, [_file]);
        var log = new List<string>();

        Assert.False(await Delivery(spool, http).DrainAsync(log.Add, CancellationToken.None));

        Assert.Equal(["/api/v1/profiles", "/api/v1/runs"], service.Requests.Select(r => r.Path));
        Assert.Equal([$"posted spooled {Key} → profile 12 (duplicate)", "posted spooled job-5-fibers-head-1 → run 77"], log);
    }

    private sealed class At(DateTimeOffset now) : TimeProvider
    {
        public override DateTimeOffset GetUtcNow() => now;
    }

    public void Dispose() => _dir.Dispose();
}
