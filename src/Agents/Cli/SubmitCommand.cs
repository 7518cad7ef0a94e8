using System.CommandLine;
using System.Security.Cryptography;
using System.Text;
using PerfService.Agents.Client;
using PerfService.Agents.Worker;
using PerfService.Core.Contracts;
using PerfService.Core.Parsing;

namespace PerfService.Agents.Cli;

/// <summary>perf-agent submit PATH... : upload results from any CI job to POST /api/v1/runs.</summary>
public static class SubmitCommand
{
    private const int Attempts = 5;

    public static Command Create()
    {
        var paths = new Argument<string[]>("path")
        {
            Description = "Result files or folders",
            Arity = ArgumentArity.OneOrMore,
        };
        var server = new Option<string>("--server") { Description = "PerfService base URL", Required = true };
        var token = CommonOptions.Token();
        var project = new Option<string>("--project") { Description = "Project name on the service", Required = true };
        var commit = new Option<string>("--commit") { Description = "Commit the results are for", Required = true };
        var branch = new Option<string?>("--branch") { Description = "Branch name" };
        var pr = new Option<int?>("--pr") { Description = "Pull request number" };
        var baseCommit = new Option<string?>("--base-commit") { Description = "Base commit of the pull request" };
        var profile = new Option<string>("--profile")
        {
            Description = "Machine profile the results came from",
            DefaultValueFactory = _ => "ci",
        };
        var suite = new Option<string?>("--suite") { Description = "Suite name the results belong to" };
        var format = ParseCommand.FormatOption();
        var key = new Option<string?>("--idempotency-key")
        {
            Description = "Repeat-safe key (default: a hash of the metadata and files)",
        };
        var command = new Command("submit", "Upload benchmark results to PerfService")
        {
            paths,
            server,
            token,
            project,
            commit,
            branch,
            pr,
            baseCommit,
            profile,
            suite,
            format,
            key,
        };
        command.SetAction(
            async (parseResult, ct) =>
            {
                var output = parseResult.InvocationConfiguration.Output;
                var error = parseResult.InvocationConfiguration.Error;
                if (CommonOptions.ResolveToken(parseResult, token) is not { } bearer)
                    return 1;
                IReadOnlyList<Artifact> files;
                try
                {
                    files = ArtifactLoader.Load(parseResult.GetValue(paths)!);
                }
                catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException)
                {
                    error.WriteLine($"error: {e.Message}");
                    return 1;
                }
                if (files.Count == 0)
                {
                    error.WriteLine("error: nothing to upload");
                    return 1;
                }
                var run = new RunMetadata
                {
                    Project = parseResult.GetValue(project)!,
                    Commit = parseResult.GetValue(commit)!,
                    Branch = parseResult.GetValue(branch),
                    PullRequest = parseResult.GetValue(pr),
                    BaseCommit = parseResult.GetValue(baseCommit),
                    Profile = parseResult.GetValue(profile)!,
                    Suite = parseResult.GetValue(suite),
                    Format = parseResult.GetValue(format),
                };
                var idempotencyKey = parseResult.GetValue(key) ?? DefaultKey(run, files);
                using var http = PerfServiceClient.CreateHttpClient(parseResult.GetValue(server)!, bearer);
                var client = new PerfServiceClient(http);
                for (var attempt = 1; ; attempt++)
                {
                    var result = await client.PostRunAsync(run, files, idempotencyKey, ct);
                    if (result is { Status: ApiStatus.Ok, Value: { } created })
                    {
                        error.WriteLine(
                            created.Duplicate
                                ? $"run {created.RunId} already had these results (duplicate of an earlier upload)"
                                : $"run {created.RunId} created: {created.Benchmarks} benchmarks, {created.Results} results"
                        );
                        output.WriteLine(created.RunId);
                        return 0;
                    }
                    if (result.Status != ApiStatus.Transient)
                    {
                        error.WriteLine(
                            $"error: the service refused the upload (HTTP {result.HttpStatus}): {result.Error}"
                        );
                        return 1;
                    }
                    if (attempt == Attempts)
                    {
                        error.WriteLine($"error: gave up after {Attempts} attempts: {result.Error}");
                        return 3;
                    }
                    var delay = Backoff.Default.Delay(attempt, Random.Shared.NextDouble());
                    error.WriteLine($"upload failed ({result}); retrying in {delay.TotalSeconds:0.0} s");
                    await Task.Delay(delay, ct);
                }
            }
        );
        return command;
    }

    /// <summary>The same upload (metadata and bytes) always gets the same key, so a CI step that is re-run after a
    /// lost answer does not create a second run.</summary>
    public static string DefaultKey(RunMetadata run, IReadOnlyList<Artifact> files)
    {
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        foreach (
            var part in new[]
            {
                run.Project,
                run.Commit,
                run.Profile,
                run.Suite ?? "",
                run.Format ?? "",
                run.PullRequest?.ToString() ?? "",
            }
        )
            hash.AppendData(Encoding.UTF8.GetBytes(part + "\0"));
        foreach (var file in files)
        {
            hash.AppendData(Encoding.UTF8.GetBytes(file.Path + "\0"));
            hash.AppendData(file.Content.Span);
        }
        return $"submit-{Convert.ToHexStringLower(hash.GetHashAndReset())[..32]}";
    }
}
