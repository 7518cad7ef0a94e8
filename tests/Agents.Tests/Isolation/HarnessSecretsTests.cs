using System.Net;
using System.Net.Sockets;
using PerfService.Agents.Jobs;
using PerfService.Agents.Tests.Support;
using PerfService.Core.Contracts;

namespace PerfService.Agents.Tests.Isolation;

/// <summary>
/// The attack of a pull request on the agent: its benchmark command dumps its environment, reads the agent's
/// /proc/PID/environ and every other process's, reads the token file, connects to a service on the machine and
/// writes outside its folder. The real agent executable runs the job (its own process, with a real environ), against
/// a fake service; the probe writes what it saw into its checkout, which the test reads afterwards.
/// </summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class HarnessSecretsTests : IDisposable
{
    private readonly TempDir _dir = new();
    private readonly FakeAgentApi _api = new();
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly string _repo;
    private readonly string _token = "tok-" + Guid.NewGuid().ToString("N");
    private readonly string _config = "cfg-" + Guid.NewGuid().ToString("N");
    private readonly string _tokenFile;
    // A place every user of the machine may write to (mode 1777), outside the work folder.
    private readonly string _systemFile = $"/var/tmp/perf-probe-{Guid.NewGuid():N}";

    public HarnessSecretsTests()
    {
        _listener.Start();
        _repo = Git.Init(_dir.Combine("origin"));
        Directory.CreateDirectory(_dir.Combine("outside"));
        _tokenFile = _dir.Write("secrets/agent.token", _token + "\n");
        File.SetUnixFileMode(_tokenFile, UnixFileMode.UserRead | UnixFileMode.UserWrite);
    }

    private string Work => _dir.Combine("work");

    private string CommitProbe(bool readTokenFile)
    {
        var port = ((IPEndPoint)_listener.LocalEndpoint).Port;
        var probe = $$"""
            {
            echo "id $(id -un)"
            env | sed 's/^/ENV /'
            if tr '\0' '\n' < /proc/$PPID/environ > ppid.txt 2>/dev/null; then sed 's/^/PPID /' ppid.txt; else echo PPID-DENIED; fi
            for f in /proc/[0-9]*/environ; do tr '\0' '\n' < "$f" 2>/dev/null | sed "s|^|WALK $f |"; done
            {{(readTokenFile ? $"cat '{_tokenFile}' 2>&1 | sed 's/^/TOKENFILE /'" : "")}}
            if bash -c 'exec 3<>/dev/tcp/127.0.0.1/{{port}}' 2>/dev/null; then echo NET-CONNECTED; else echo NET-REFUSED; fi
            if touch '{{_dir.Combine("outside")}}/planted' 2>/dev/null; then echo OUTSIDE-WRITTEN; else echo OUTSIDE-DENIED; fi
            if touch '{{Path.Combine(Work, "spool")}}/planted' 2>/dev/null; then echo SPOOL-WRITTEN; else echo SPOOL-DENIED; fi
            if touch '{{_systemFile}}' 2>/dev/null; then echo SYSTEM-WRITTEN; else echo SYSTEM-DENIED; fi
            if [ -n "$(head -c 8 /etc/shadow 2>/dev/null)" ]; then echo SHADOW-READ; else echo SHADOW-DENIED; fi
            } > seen.txt 2>&1
            printf '{"results":[{"benchmark":"probe","unit":"ns","value":1}]}' > "$PERF_OUTPUT"
            """;
        const string perfJson = """{ "suites": [ { "name": "probe", "harness": "json", "folder": ".", "command": "exec sh probe.sh" } ] }""";
        return Git.Commit(_repo, "probe", ("perf.json", perfJson), ("probe.sh", probe.ReplaceLineEndings("\n")));
    }

    private async Task<string> RunJobAsync(bool readTokenFile, Dictionary<string, string> environment, params string[] args)
    {
        var head = CommitProbe(readTokenFile);
        _api.Enqueue(new JobAssignment(42, 1, "demo", _repo, head, null, "main", null, [], "ryzen-9950x", 1, 60, false));
        var exit = await AgentProcess.RunOnceAsync(_api.Url, Work, environment, args);
        Assert.True(exit.Code == 0, exit.Output);
        var complete = Assert.Single(_api.Completes).Json<CompleteJobRequest>();
        Assert.True(complete.Succeeded, complete.Error);
        Assert.Single(_api.Posts);
        // The token really was the agent's: it authenticated with it.
        Assert.All(_api.Service.Requests, r => Assert.Equal($"Bearer {_token}", r.Header("Authorization")));
        return File.ReadAllText(Path.Combine(Work, "work", GitWorkspace.Hash(_repo), "head", "seen.txt"));
    }

    [Fact]
    public async Task A_harness_sees_PATH_and_PERF_SLOWDOWN_but_neither_the_token_nor_the_agents_configuration()
    {
        var seen = await RunJobAsync(readTokenFile: false,
            new() { ["PERF_SLOWDOWN"] = "probe=5", ["PERF_AGENT_SECRET"] = _config, ["GITHUB_TOKEN"] = _config },
            "--token-file", _tokenFile);

        Assert.Contains("ENV PATH=", seen);
        Assert.Contains("ENV PERF_SLOWDOWN=probe=5", seen);
        Assert.Contains($"ENV HOME={Path.Combine(Work, "home")}", seen);
        Assert.DoesNotContain("ENV PERF_AGENT_SECRET", seen);
        Assert.DoesNotContain("ENV GITHUB_TOKEN", seen);
        Assert.DoesNotContain(_config, seen.Split('\n').Where(l => l.StartsWith("ENV ", StringComparison.Ordinal)));
        // The token was read from the file, so no environ on the machine holds it, the agent's included.
        Assert.Contains("PPID ", seen);
        Assert.Contains("WALK ", seen);
        Assert.DoesNotContain(_token, seen);
    }

    [Fact]
    public async Task Without_isolation_a_token_given_in_PERF_TOKEN_is_readable_in_the_agents_environ()
    {
        // Why the token file and --run-as/--sandbox exist: the same probe, with the token in the agent's
        // environment and no isolation, finds it (not in its own environment, but in the agent's /proc entry).
        var seen = await RunJobAsync(readTokenFile: false, new() { ["PERF_TOKEN"] = _token });

        Assert.DoesNotContain($"ENV PERF_TOKEN", seen);
        Assert.Contains($"PPID PERF_TOKEN={_token}", seen);
        Assert.Contains("NET-CONNECTED", seen);
        Assert.Contains("OUTSIDE-WRITTEN", seen);
        Assert.Contains("SYSTEM-WRITTEN", seen);
        if (Environment.UserName == "root") Assert.Contains("SHADOW-READ", seen);
    }

    [SandboxFact]
    public async Task In_the_sandbox_a_harness_reads_no_environ_of_the_agent_reaches_no_network_and_writes_only_its_folders()
    {
        var seen = await RunJobAsync(readTokenFile: true, new() { ["PERF_TOKEN"] = _token, ["PERF_SLOWDOWN"] = "probe=5" },
            "--token-file", _tokenFile, "--sandbox");

        Assert.Contains("ENV PATH=", seen);
        Assert.Contains("ENV PERF_SLOWDOWN=probe=5", seen);
        Assert.DoesNotContain(_token, seen);
        Assert.DoesNotContain("PERF_TOKEN", seen);
        Assert.Contains("NET-REFUSED", seen);
        Assert.Contains("OUTSIDE-DENIED", seen);
        Assert.Contains("SPOOL-DENIED", seen);
        Assert.Contains("SYSTEM-DENIED", seen);
        Assert.False(File.Exists(_systemFile));
        // The tests run as root: even root's own files (the password hashes) are masked in the sandbox.
        if (Environment.UserName == "root") Assert.Contains("SHADOW-DENIED", seen);
        Assert.False(File.Exists(_dir.Combine("outside", "planted")));
        Assert.False(File.Exists(Path.Combine(Work, "spool", "planted")));
    }

    [RunAsFact]
    public Task Run_as_another_user_a_harness_cannot_read_the_agents_environ_or_token_file() => RunAsAsync(sandbox: false);

    [RunAsSandboxFact]
    public Task Run_as_another_user_inside_the_sandbox_a_harness_sees_no_secret_and_no_network() => RunAsAsync(sandbox: true);

    private async Task RunAsAsync(bool sandbox)
    {
        using var throwaway = new ThrowawayUser();
        var user = throwaway.Name;
        ThrowawayUser.LetIn(_dir.Path);
        string[] args = ["--token-file", _tokenFile, "--run-as", user, .. sandbox ? new[] { "--sandbox" } : []];
        var seen = await RunJobAsync(readTokenFile: true, new() { ["PERF_TOKEN"] = _token }, args);

        Assert.Contains($"id {user}", seen);
        Assert.Contains("ENV PATH=", seen);
        Assert.Contains("TOKENFILE", seen);
        Assert.Contains("SPOOL-DENIED", seen);
        // Outside the sandbox its parent is the agent (refused); inside, the sandbox's own init.
        Assert.Contains(sandbox ? "NET-REFUSED" : "PPID-DENIED", seen);
        // /var/tmp is every user's; only the sandbox keeps the harness out of it.
        Assert.Contains(sandbox ? "SYSTEM-DENIED" : "SYSTEM-WRITTEN", seen);
        Assert.DoesNotContain(_token, seen);
        Assert.DoesNotContain("PERF_TOKEN", seen);
    }

    public void Dispose()
    {
        _listener.Stop();
        File.Delete(_systemFile);
        _api.Dispose();
        _dir.Dispose();
    }
}
