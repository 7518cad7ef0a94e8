using System.Text;
using PerfService.Agents.Client;
using PerfService.Agents.Spool;
using PerfService.Agents.Tests.Support;
using PerfService.Core.Contracts;
using PerfService.Core.Parsing;

namespace PerfService.Agents.Tests.Spool;

public sealed class RunSpoolTests : IDisposable
{
    private readonly TempDir _dir = new();

    private static readonly RunMetadata _run = new()
    {
        Project = "demo", Commit = "abc", Profile = "ryzen-9950x", JobId = 5, Suite = "fibers", Role = "head", Round = 1,
        Format = "criterion", ProfileMismatch = true, Environment = new Dictionary<string, string> { ["governor"] = "performance" },
    };

    private static readonly Artifact[] _files =
    [
        new("fib/new/estimates.json", Encoding.UTF8.GetBytes("{\"mean\":1}")),
        new("fib/new/sample.json", Encoding.UTF8.GetBytes("{}")),
    ];

    private RunSpool NewSpool() => new(_dir.Combine("spool"));

    [Fact]
    public void Entries_survive_a_restart_and_keep_their_tree()
    {
        NewSpool().Write("job-5-fibers-head-1", _run, _files);

        var restarted = NewSpool();
        Assert.Equal(["job-5-fibers-head-1"], restarted.Pending());
        var entry = restarted.Read("job-5-fibers-head-1");
        Assert.Equal(_run.Environment, entry.Run!.Environment);
        Assert.Equal(_run with { Environment = null }, entry.Run with { Environment = null });
        Assert.Equal(_files.Select(f => (f.Path, Encoding.UTF8.GetString(f.Content.Span))),
            entry.Files.Select(f => (f.Path, Encoding.UTF8.GetString(f.Content.Span))));
    }

    [Fact]
    public void A_half_written_entry_is_never_pending()
    {
        var spool = NewSpool();
        Directory.CreateDirectory(_dir.Combine("spool", ".tmp", "cut-short", "files"));
        Assert.Empty(spool.Pending());
        Assert.False(Directory.Exists(_dir.Combine("spool", ".tmp")));
    }

    [Fact]
    public void Unwritable_spool_is_a_clear_error_not_a_silent_drop()
    {
        File.WriteAllText(_dir.Combine("spool"), "a file where the spool folder should be");
        var e = Assert.Throws<IOException>(() => NewSpool().Write("job-1-s-head-1", _run, _files));
        Assert.StartsWith("cannot write to the spool", e.Message);
    }

    [Fact]
    public void Odd_keys_get_safe_distinct_folder_names()
    {
        Assert.Equal("job-1-fibers-head-1", RunSpool.DirectoryName("job-1-fibers-head-1"));
        var a = RunSpool.DirectoryName("job-1-a/b-head-1");
        var b = RunSpool.DirectoryName("job-1-a_b-head-1");
        Assert.DoesNotContain('/', a);
        Assert.NotEqual(a, b);
        var up = RunSpool.DirectoryName("../../etc");
        Assert.Equal(up, Path.GetFileName(up));
        Assert.False(up.StartsWith('.'));
    }

    [Fact]
    public async Task Posts_idempotently_once_the_service_comes_back()
    {
        var posts = 0;
        using var service = new FakeService(_ => Interlocked.Increment(ref posts) <= 2
            ? FakeResponse.Problem(503, "Service Unavailable", "database is starting")
            : new FakeResponse(201, new RunCreated(77, false, 1, 3)));
        using var http = PerfServiceClient.CreateHttpClient(service.Url, "secret");
        var spool = NewSpool();
        spool.Write("job-5-fibers-head-1", _run, _files);
        spool.Write("job-5-fibers-head-2", _run with { Round = 2 }, _files);
        var delivery = new RunDelivery(spool, new PerfServiceClient(http));
        var log = new List<string>();

        // First drain: the service fails; the first entry is kept and the second is not even tried.
        Assert.True(await delivery.DrainAsync(log.Add, CancellationToken.None));
        Assert.Equal(2, NewSpool().Pending().Count);
        Assert.True(await delivery.DrainAsync(log.Add, CancellationToken.None));
        // Then it accepts: both are posted and removed.
        Assert.False(await delivery.DrainAsync(log.Add, CancellationToken.None));
        Assert.Empty(NewSpool().Pending());

        var requests = service.To("/api/v1/runs");
        Assert.Equal(4, requests.Count);
        Assert.Equal(["job-5-fibers-head-1", "job-5-fibers-head-1", "job-5-fibers-head-1", "job-5-fibers-head-2"],
            requests.Select(r => r.Header("Idempotency-Key")));
        Assert.All(requests, r => Assert.Equal("Bearer secret", r.Header("Authorization")));

        var parts = requests[^1].Parts();
        Assert.Equal(["run", "files", "files"], parts.Select(p => p.Name));
        Assert.StartsWith("application/json", parts[0].ContentType);
        var run = System.Text.Json.JsonSerializer.Deserialize<RunMetadata>(parts[0].Text, System.Text.Json.JsonSerializerOptions.Web)!;
        Assert.Equal((2, "head", true), (run.Round!.Value, run.Role, run.ProfileMismatch));
        Assert.Contains("\"profileMismatch\":true", parts[0].Text); // camelCase on the wire
        Assert.Equal(["fib/new/estimates.json", "fib/new/sample.json"], parts.Skip(1).Select(p => p.FileName));
        Assert.Equal("{\"mean\":1}", parts[1].Text);
    }

    [Fact]
    public async Task Refused_content_is_set_aside_with_the_reason()
    {
        using var service = new FakeService(_ => FakeResponse.Problem(422, "Unparseable results", "estimates.json at $.mean: expected an object"));
        using var http = PerfServiceClient.CreateHttpClient(service.Url, "secret");
        var spool = NewSpool();
        spool.Write("job-5-fibers-head-1", _run, _files);
        var delivery = await new RunDelivery(spool, new PerfServiceClient(http)).DeliverAsync("job-5-fibers-head-1", CancellationToken.None);

        Assert.Equal(DeliveryStatus.Rejected, delivery.Status);
        Assert.Contains("Unparseable results: estimates.json at $.mean: expected an object", delivery.Error);
        Assert.Empty(spool.Pending());
        var rejected = Assert.Single(Directory.GetDirectories(_dir.Combine("spool", RunSpool.RejectedDir)));
        Assert.Contains("expected an object", File.ReadAllText(Path.Combine(rejected, "rejected.txt")));
    }

    [Fact]
    public async Task Unreachable_service_keeps_everything()
    {
        using var http = PerfServiceClient.CreateHttpClient("http://127.0.0.1:1/", "secret");
        var spool = NewSpool();
        spool.Write("job-5-fibers-head-1", _run, _files);
        var delivery = await new RunDelivery(spool, new PerfServiceClient(http)).DeliverAsync("job-5-fibers-head-1", CancellationToken.None);
        Assert.Equal(DeliveryStatus.Kept, delivery.Status);
        Assert.Single(spool.Pending());
    }

    public void Dispose() => _dir.Dispose();
}
