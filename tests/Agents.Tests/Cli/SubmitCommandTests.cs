using PerfService.Agents.Tests.Support;
using PerfService.Core.Contracts;

namespace PerfService.Agents.Tests.Cli;

public sealed class SubmitCommandTests
{
    private static readonly string _criterion = TestPaths.Fixture("criterion", "cryptobench-criterion-0.5.1");
    private static readonly string _gobench = TestPaths.Fixture("gobench", "goperf-suffixarray-benchmem-count10.txt");

    private static string[] Args(FakeService service, params string[] more) =>
        ["submit", .. more, "--server", service.Url, "--token", "t0k", "--project", "demo", "--commit", "c0ffee"];

    [Fact]
    public async Task Uploads_files_with_relative_paths_and_prints_the_run_id()
    {
        using var service = new FakeService(_ => new FakeResponse(201, new RunCreated(31, false, 2, 6)));
        var result = await CliRunner.RunAsync([.. Args(service, _criterion, _gobench), "--pr", "12", "--base-commit", "beef", "--format", "auto"]);

        Assert.Equal(0, result.ExitCode);
        Assert.Equal("31", result.Output.Trim());
        Assert.Contains("run 31 created", result.Error);
        var request = Assert.Single(service.Requests);
        Assert.Equal(("POST", "/api/v1/runs"), (request.Method, request.Path));
        Assert.Equal("Bearer t0k", request.Header("Authorization"));
        Assert.StartsWith("submit-", request.Header("Idempotency-Key"));
        var parts = request.Parts();
        var run = System.Text.Json.JsonSerializer.Deserialize<RunMetadata>(parts[0].Text, System.Text.Json.JsonSerializerOptions.Web)!;
        Assert.Equal(("demo", "c0ffee", 12, "beef", "ci"), (run.Project, run.Commit, run.PullRequest!.Value, run.BaseCommit, run.Profile));
        var names = parts.Skip(1).Select(p => p.FileName).ToList();
        Assert.Contains("aes_128_gcm-1kb/new/estimates.json", names);
        Assert.Contains("goperf-suffixarray-benchmem-count10.txt", names);
    }

    [Fact]
    public async Task Same_upload_gets_the_same_key_unless_one_is_given()
    {
        using var service = new FakeService(_ => new FakeResponse(200, new RunCreated(31, true, 2, 6)));
        await CliRunner.RunAsync(Args(service, _gobench));
        var again = await CliRunner.RunAsync(Args(service, _gobench));
        await CliRunner.RunAsync([.. Args(service, _gobench), "--idempotency-key", "ci-run-7"]);
        var keys = service.Requests.Select(r => r.Header("Idempotency-Key")).ToList();
        Assert.Equal(keys[0], keys[1]);
        Assert.Equal("ci-run-7", keys[2]);
        Assert.Contains("duplicate", again.Error);
    }

    [Fact]
    public async Task Refused_upload_shows_the_problem_detail()
    {
        using var service = new FakeService(_ => FakeResponse.Problem(400, "Unparseable results", "gobench.txt at line 3: expected ns/op"));
        var result = await CliRunner.RunAsync(Args(service, _gobench));
        Assert.Equal(1, result.ExitCode);
        Assert.Contains("Unparseable results: gobench.txt at line 3: expected ns/op", result.Error);
        Assert.Single(service.Requests); // a 4xx is not retried
    }

    [Fact]
    public async Task Server_errors_are_retried()
    {
        var calls = 0;
        using var service = new FakeService(_ => Interlocked.Increment(ref calls) == 1
            ? FakeResponse.Problem(502, "Bad Gateway", "upstream restarting")
            : new FakeResponse(201, new RunCreated(32, false, 1, 1)));
        var result = await CliRunner.RunAsync(Args(service, _gobench));
        Assert.Equal(0, result.ExitCode);
        Assert.Equal("32", result.Output.Trim());
        Assert.Equal(2, service.Requests.Count);
        Assert.Single(service.Requests.Select(r => r.Header("Idempotency-Key")).Distinct());
    }
}
