using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text.Json;
using Microsoft.EntityFrameworkCore;
using PerfService.Auth;
using PerfService.IntegrationTests.Infrastructure;

namespace PerfService.EndToEndTests.AnyCi;

/// <summary>
/// Results from any CI: the README's curl upload and the GitHub Actions example's submit step, both taken from the
/// documents as written and run with bash against the service as a real process, with an `ingest` token bound to the
/// project. What they post must be stored, so the documents cannot drift from the API or from the CLI's options.
/// </summary>
public class AnyCiUploadTests : IAsyncLifetime
{
    private const string Project = "any-ci";
    private const string Profile = "i7-4790k";
    private const string GoFixture = "tests/fixtures/gobench/goperf-suffixarray-benchmem-count10.txt";

    private TestDatabase _db = null!;
    private ServiceProcess _service = null!;
    private string _url = "";
    private string _ingestToken = "";
    private string _adminToken = "";
    private readonly string _work = Path.Combine(Path.GetTempPath(), "perf-anyci-" + Guid.NewGuid().ToString("N")[..8]);

    public async Task InitializeAsync()
    {
        _db = await TestDatabase.CreateAsync();
        Directory.CreateDirectory(_work);
        _service = new ServiceProcess(_db.ConnectionString, _work);
        await _service.StartAsync();
        _url = _service.BaseAddress.ToString().TrimEnd('/');
        using var http = _service.Anonymous(TimeSpan.FromSeconds(30));
        await using var context = PerfService.Migrations.DesignTimeDbContextFactory.Create(_db.ConnectionString);
        var admin = _adminToken = await TokenCommands.CreateAsync(context, "anyci-admin", [Scopes.Admin]);
        http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", admin);
        (await http.PostAsJsonAsync("/api/v1/projects", new { slug = Project, name = Project, repositoryUrl = "https://example.com/any-ci.git" }))
            .EnsureSuccessStatusCode();
        var projectId = await context.Projects.Where(p => p.Slug == Project).Select(p => p.Id).SingleAsync();
        _ingestToken = await TokenCommands.CreateAsync(context, "anyci-ingest", [Scopes.Ingest], projectId);
        Directory.CreateDirectory(_work);
    }

    public async Task DisposeAsync()
    {
        await _service.DisposeAsync();
        await _db.DisposeAsync();
        try { Directory.Delete(_work, recursive: true); } catch (IOException) { } catch (UnauthorizedAccessException) { }
    }

    [Fact]
    public async Task The_READMEs_curl_upload_is_stored_and_its_retry_is_a_duplicate()
    {
        var curl = Assert.Single(Docs.ShellBlocks("Posting results from any CI"), b => b.Contains("curl "));
        var dir = Directory.CreateDirectory(Path.Combine(_work, "curl")).FullName;
        File.Copy(Path.Combine(SuiteRepository.Repo(), GoFixture), Path.Combine(dir, "go-bench.txt"));
        var commit = Sha();
        var env = new Dictionary<string, string>
        {
            ["PERF_SERVER"] = _url, ["PERF_TOKEN"] = _ingestToken, ["PERF_PROJECT"] = Project, ["PERF_PROFILE"] = Profile,
            ["COMMIT"] = commit, ["BRANCH"] = "main",
        };

        var first = await Shell.RunAsync("bash", ["-euo", "pipefail", "-c", curl], dir, env, TimeSpan.FromSeconds(60));
        Assert.True(first.ExitCode == 0, first + "\nservice:\n" + _service.Tail(60));
        using var created = JsonDocument.Parse(first.Stdout);
        var runId = created.RootElement.GetProperty("runId").GetInt64();
        Assert.False(created.RootElement.GetProperty("duplicate").GetBoolean());
        Assert.True(created.RootElement.GetProperty("results").GetInt32() > 0, first.Stdout);

        await using var context = PerfService.Migrations.DesignTimeDbContextFactory.Create(_db.ConnectionString);
        var run = await context.Runs.AsNoTracking().SingleAsync(r => r.Id == runId);
        Assert.Equal("gobench", run.Format);
        Assert.Equal(commit, await context.Commits.Where(c => c.Id == run.CommitId).Select(c => c.Sha).SingleAsync());
        Assert.Equal("main", await context.Branches.Where(b => b.Id == run.BranchId).Select(b => b.Name).SingleAsync());
        Assert.True(await context.Results.CountAsync(r => r.RunId == runId) > 0);

        // The documented Idempotency-Key makes the same command safe to retry.
        var again = await Shell.RunAsync("bash", ["-euo", "pipefail", "-c", curl], dir, env, TimeSpan.FromSeconds(60));
        Assert.True(again.ExitCode == 0, again.ToString());
        using var duplicate = JsonDocument.Parse(again.Stdout);
        Assert.True(duplicate.RootElement.GetProperty("duplicate").GetBoolean());
        Assert.Equal(runId, duplicate.RootElement.GetProperty("runId").GetInt64());
        Assert.Equal(1, await context.Runs.CountAsync());
    }

    [Fact]
    public async Task The_workflow_examples_submit_step_posts_a_push_and_a_pull_request_with_the_real_CLI()
    {
        var steps = Docs.RunSteps();
        var submit = Assert.Single(steps, s => s.Run.Contains("perf submit"));
        Assert.Equal("bash", submit.Shell);
        // Every benchmark step writes where the submit step reads, and the download step puts `perf` on PATH.
        var folder = System.Text.RegularExpressions.Regex.Match(submit.Run, @"perf submit (\S+)").Groups[1].Value;
        Assert.All(steps.Where(s => s.Name is { } n && (n.Contains("bench") || n.Contains("BenchmarkDotNet"))),
            s => Assert.Contains(folder + "/", s.Run));
        Assert.Contains(steps, s => s.Run.Contains("GITHUB_PATH"));

        var results = Directory.CreateDirectory(Path.Combine(_work, "checkout", folder)).FullName;
        File.Copy(Path.Combine(SuiteRepository.Repo(), GoFixture), Path.Combine(results, "go-bench.txt"));
        var checkout = Path.GetDirectoryName(results)!;
        var pathDir = Shell.PerfOnPath(Path.Combine(_work, "runner-temp", "perf-cli"));

        var mainSha = Sha();
        var push = await RunStepAsync(submit, checkout, pathDir, Context(eventName: "push", sha: mainSha, refName: "main"));
        var prHead = Sha();
        var pr = await RunStepAsync(submit, checkout, pathDir, Context(eventName: "pull_request", sha: Sha(), refName: "42/merge",
            headRef: "feature/faster", prNumber: "42", prHead: prHead, prBase: mainSha));

        await using var context = PerfService.Migrations.DesignTimeDbContextFactory.Create(_db.ConnectionString);
        var pushRun = await context.Runs.AsNoTracking().SingleAsync(r => r.Id == push);
        Assert.Null(pushRun.PullRequest);
        Assert.Equal(mainSha, await context.Commits.Where(c => c.Id == pushRun.CommitId).Select(c => c.Sha).SingleAsync());
        Assert.Equal("main", await context.Branches.Where(b => b.Id == pushRun.BranchId).Select(b => b.Name).SingleAsync());
        var prRun = await context.Runs.AsNoTracking().SingleAsync(r => r.Id == pr);
        Assert.Equal(42, prRun.PullRequest);
        Assert.Equal(prHead, await context.Commits.Where(c => c.Id == prRun.CommitId).Select(c => c.Sha).SingleAsync());
        Assert.Equal(mainSha, await context.Commits.Where(c => c.Id == prRun.BaseCommitId).Select(c => c.Sha).SingleAsync());
        Assert.Equal("feature/faster", await context.Branches.Where(b => b.Id == prRun.BranchId).Select(b => b.Name).SingleAsync());
        Assert.All(new[] { pushRun, prRun }, r => Assert.True(r.ResultCount > 0 && r.Format == "gobench", $"run {r.Id}: {r.ResultCount} results, {r.Format}"));
    }

    [Fact]
    public async Task The_documented_project_calls_succeed_against_the_service()
    {
        // docs/github.md creates a project, docs/verdicts.md sets its thresholds, turns bisection on and lists its alert
        // groups: run as written against the service (the example host replaced), each must answer 2xx. Calls that
        // name an alert group (ID) need one and are left out.
        var commands = Docs.CurlCommands("docs/github.md").Concat(Docs.CurlCommands("docs/verdicts.md"))
            .Where(c => !c.Contains("/ID", StringComparison.Ordinal)).ToList();
        Assert.True(commands.Count >= 4, "expected the project, thresholds, bisection and alert-group calls:\n" + string.Join('\n', commands));
        var env = new Dictionary<string, string> { ["PERF_TOKEN"] = _adminToken };
        foreach (var command in commands)
        {
            var run = command.Replace("https://perf.example.com", _url, StringComparison.Ordinal).Replace("/SLUG", "/my-lib", StringComparison.Ordinal)
                .Replace("curl ", "curl -sS --fail-with-body ", StringComparison.Ordinal);
            var outcome = await Shell.RunAsync("bash", ["-euo", "pipefail", "-c", run], _work, env, TimeSpan.FromSeconds(60));
            Assert.True(outcome.ExitCode == 0, $"{command}\n{outcome}");
        }

        using var http = _service.Anonymous(TimeSpan.FromSeconds(30));
        http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", _adminToken);
        using var project = JsonDocument.Parse(await http.GetStringAsync("/api/v1/projects/my-lib"));
        Assert.Equal("owner/name", project.RootElement.GetProperty("gitHubRepository").GetString());
        Assert.True(project.RootElement.GetProperty("bisect").GetBoolean());
        using var thresholds = JsonDocument.Parse(await http.GetStringAsync("/api/v1/projects/my-lib/thresholds"));
        Assert.Equal(2, thresholds.RootElement.GetProperty("thresholds").GetArrayLength());
    }

    private async Task<long> RunStepAsync(Docs.Step step, string checkout, string pathDir, Dictionary<string, string> github)
    {
        var env = step.Env.ToDictionary(kv => kv.Key, kv => Docs.Expand(kv.Value, github));
        env["PATH"] = pathDir + ":" + Environment.GetEnvironmentVariable("PATH");
        // GitHub's `shell: bash` is `bash --noprofile --norc -eo pipefail {0}`.
        var script = Path.Combine(_work, $"step-{Guid.NewGuid():N}.sh");
        await File.WriteAllTextAsync(script, Docs.Expand(step.Run, github));
        var outcome = await Shell.RunAsync("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], checkout, env, TimeSpan.FromMinutes(2));
        Assert.True(outcome.ExitCode == 0, $"{step.Name}: {outcome}\nservice:\n{_service.Tail(60)}");
        return long.Parse(outcome.Stdout.Trim());
    }

    private Dictionary<string, string> Context(string eventName, string sha, string refName, string headRef = "", string prNumber = "",
        string prHead = "", string prBase = "") => new()
    {
        ["secrets.PERF_TOKEN"] = _ingestToken,
        ["vars.PERF_SERVER"] = _url,
        ["vars.PERF_PROJECT"] = Project,
        ["vars.PERF_PROFILE"] = Profile,
        ["vars.PERF_CLI_URL"] = "",
        ["github.event_name"] = eventName,
        ["github.repository"] = "example/any-ci",
        ["github.sha"] = sha,
        ["github.ref_name"] = refName,
        ["github.head_ref"] = headRef,
        ["github.event.pull_request.number"] = prNumber,
        ["github.event.pull_request.head.sha"] = prHead,
        ["github.event.pull_request.base.sha"] = prBase,
        ["github.event.pull_request.head.repo.full_name"] = prNumber == "" ? "" : "example/any-ci",
    };

    private static string Sha() => Convert.ToHexStringLower(Guid.NewGuid().ToByteArray()) + "01234567";
}
