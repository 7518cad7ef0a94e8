using System.CommandLine;
using System.Net.Http.Headers;

namespace PerfService.IntegrationTests.Security;

/// <summary>
/// <c>token create|list|revoke</c> as the service binary runs it (the same command tree, parsed from the same argument
/// strings), on a real database: help from the declarations, a bad --project-id refused with a clear message and no
/// token stored, and a bound token that then works against the API.
/// </summary>
public class TokenCliTests(PerfServiceApp app) : IClassFixture<PerfServiceApp>
{
    private async Task<(int Exit, string Output, string Error)> RunAsync(params string[] args)
    {
        var root = new RootCommand("test") { TokenCli.Create(app.Services) };
        using var output = new StringWriter();
        using var error = new StringWriter();
        var exit = await root.Parse(args).InvokeAsync(new InvocationConfiguration { Output = output, Error = error });
        return (exit, output.ToString(), error.ToString());
    }

    [Fact]
    public async Task Help_lists_every_verb_and_option_with_its_default()
    {
        var (exit, output, _) = await RunAsync("token", "create", "--help");
        Assert.Equal(0, exit);
        foreach (var option in new[] { "--name", "--scopes", "--project", "--project-id", "--expires" }) Assert.Contains(option, output);
        Assert.Contains("read, ingest, agent, admin", output);
        Assert.Contains("[default: cli]", output);
        (exit, output, _) = await RunAsync("token", "--help");
        Assert.Equal(0, exit);
        foreach (var verb in new[] { "create", "list", "revoke" }) Assert.Contains(verb, output);
    }

    [Theory]
    [InlineData("abc", "is not a project id")]
    [InlineData("-3", "is not a project id")]
    [InlineData("999999", "there is no project with id 999999")]
    public async Task A_bad_project_id_is_an_error_and_no_token_is_made(string projectId, string message)
    {
        var name = "bad-" + Guid.NewGuid().ToString("N")[..8];
        var (exit, output, error) = await RunAsync("token", "create", "--name", name, "--scopes", "read", "--project-id", projectId);
        Assert.NotEqual(0, exit);
        Assert.Contains(message, error);
        Assert.DoesNotContain("perf_", output);
        Assert.False(await app.WithDbAsync(db => db.Tokens.AnyAsync(t => t.Name == name)));
    }

    [Fact]
    public async Task Unknown_scopes_and_unknown_options_are_refused()
    {
        var (exit, _, error) = await RunAsync("token", "create", "--name", "x", "--scopes", "read,root");
        Assert.NotEqual(0, exit);
        Assert.Contains("unknown scope(s) root", error);
        (exit, _, error) = await RunAsync("token", "create", "--project-idd", "1");
        Assert.NotEqual(0, exit);
        Assert.Contains("--project-idd", error);
        (exit, _, error) = await RunAsync("token", "revoke");
        Assert.NotEqual(0, exit);
        Assert.Contains("--name", error);
    }

    [Fact]
    public async Task A_token_bound_by_id_reads_its_private_project_and_is_listed_and_revoked()
    {
        await app.CreateProjectAsync("cli-private", isPublic: false);
        var id = await app.WithDbAsync(db => db.Projects.Where(p => p.Slug == "cli-private").Select(p => p.Id).SingleAsync());

        var (exit, output, error) = await RunAsync("token", "create", "--name", "cli-bound", "--scopes", "read", "--project-id", id.ToString(System.Globalization.CultureInfo.InvariantCulture), "--expires", "30d");
        Assert.True(exit == 0, error);
        var secret = output.Trim();
        Assert.StartsWith("perf_", secret);
        var stored = await app.WithDbAsync(db => db.Tokens.SingleAsync(t => t.Name == "cli-bound"));
        Assert.Equal(id, stored.ProjectId);
        Assert.Equal(["read"], stored.Scopes);
        Assert.NotNull(stored.ExpiresAt);

        var client = app.CreateClient();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", secret);
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/api/v1/projects/cli-private")).StatusCode);

        (exit, output, _) = await RunAsync("token", "list");
        Assert.Equal(0, exit);
        Assert.Contains(output.Split('\n'), l => l.Contains("\tcli-bound\tread\tlive\texpires ", StringComparison.Ordinal));
        Assert.DoesNotContain(secret, output);

        (exit, output, _) = await RunAsync("token", "revoke", "--name", "cli-bound");
        Assert.Equal(0, exit);
        Assert.Contains("revoked 1 token(s) named 'cli-bound'", output);
        Assert.NotNull(await app.WithDbAsync(db => db.Tokens.Where(t => t.Name == "cli-bound").Select(t => t.RevokedAt).SingleAsync()));
    }
}
