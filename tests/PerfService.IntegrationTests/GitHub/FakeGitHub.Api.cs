using System.Text.Json;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;

namespace PerfService.IntegrationTests.GitHub;

/// <summary>The routes, with GitHub's validation rules and response shapes (those Octokit's models read).</summary>
public sealed partial class FakeGitHub
{
    private const int MaxBodyLength = 65_536;
    private static readonly string[] s_states = ["error", "failure", "pending", "success"];
    private static readonly JsonSerializerOptions s_json = new();

    private void MapRoutes(IEndpointRouteBuilder app)
    {
        app.MapGet("/repos/{owner}/{repo}/installation", (string owner, string repo) => Results.Json(Installation(owner), s_json));
        app.MapPost("/app/installations/{id:long}/access_tokens", (long id) => _installations.Values.Contains(id)
            ? Results.Json(IssueToken(), s_json, statusCode: 201)
            : Error(HttpStatusCode.NotFound, "Not Found"));

        // The authenticated user: a personal token's; an installation token is not a user (GitHub answers 403).
        app.MapGet("/user", (HttpContext http) => http.Items["login"] is string login && !login.EndsWith("[bot]", StringComparison.Ordinal)
            ? Results.Json(UserJson(login), s_json)
            : Error(HttpStatusCode.Forbidden, "Resource not accessible by integration", "https://docs.github.com/rest/users/users#get-the-authenticated-user"));
        // The App itself, for its JWT.
        app.MapGet("/app", () => Results.Json(AppJson(), s_json));

        app.MapGet("/repos/{owner}/{repo}/issues/{number:int}/comments", (HttpContext http, string owner, string repo, int number, int? page, int? per_page) =>
        {
            var size = Math.Clamp(per_page ?? 30, 1, 100);
            var all = CommentsOn($"{owner}/{repo}", number);
            var current = Math.Max(page ?? 1, 1);
            if (current * size < all.Count)
                http.Response.Headers.Link = $"<{Url}repos/{owner}/{repo}/issues/{number}/comments?per_page={size}&page={current + 1}>; rel=\"next\"";
            return Results.Json(all.Skip((current - 1) * size).Take(size).Select(CommentJson), s_json);
        });
        app.MapPost("/repos/{owner}/{repo}/issues/{number:int}/comments", (HttpContext http, string owner, string repo, int number) =>
        {
            if (ValidateBody(http, "IssueComment") is { } invalid) return invalid;
            var comment = SaveComment($"{owner}/{repo}", number, Field(http, "body")!, (string)http.Items["login"]!);
            return Results.Json(CommentJson(comment), s_json, statusCode: 201);
        });
        app.MapMethods("/repos/{owner}/{repo}/issues/comments/{id:long}", ["PATCH"], (HttpContext http, string owner, string repo, long id) =>
        {
            if (!Comments.TryGetValue(id, out var comment) || !comment.Repo.Equals($"{owner}/{repo}", StringComparison.OrdinalIgnoreCase))
                return Error(HttpStatusCode.NotFound, "Not Found");
            if (ValidateBody(http, "IssueComment") is { } invalid) return invalid;
            comment = Comments[id] = comment with { Body = Field(http, "body")!, UpdatedAt = DateTimeOffset.UtcNow };
            return Results.Json(CommentJson(comment), s_json);
        });
        app.MapPost("/repos/{owner}/{repo}/statuses/{sha}", (HttpContext http, string owner, string repo, string sha) =>
        {
            var state = Field(http, "state");
            if (state is null) return Invalid("Status", "missing_field", "state");
            if (!s_states.Contains(state)) return Invalid("Status", "custom", "state", "state is not included in the list");
            var description = Field(http, "description");
            if (description?.Length > 140) return Invalid("Status", "custom", "description", "description is too long (maximum is 140 characters)");
            var status = new FakeStatus(Interlocked.Increment(ref _nextId), $"{owner}/{repo}", sha, state, description,
                Field(http, "target_url"), Field(http, "context") ?? "default", DateTimeOffset.UtcNow);
            Statuses.Enqueue(status);
            return Results.Json(StatusJson(status), s_json, statusCode: 201);
        });
        MapCheckRoutes(app);
        app.MapFallback(() => Error(HttpStatusCode.NotFound, "Not Found"));
    }

    private static IResult? ValidateBody(HttpContext http, string resource)
    {
        string? body;
        try
        {
            body = Field(http, "body");
        }
        catch (JsonException)
        {
            return Error(HttpStatusCode.BadRequest, "Problems parsing JSON");
        }
        if (body is null) return Invalid(resource, "missing_field", "body");
        if (body.Length > MaxBodyLength) return Invalid(resource, "custom", "body", $"body is too long (maximum is {MaxBodyLength} characters)");
        return null;
    }

    private static string? Field(HttpContext http, string name)
    {
        using var json = JsonDocument.Parse((string)http.Items["body"]!);
        return json.RootElement.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.String ? value.GetString() : null;
    }

    private static IResult Error(HttpStatusCode status, string message, string documentation = "https://docs.github.com/rest") =>
        Results.Json(new { message, documentation_url = documentation, status = ((int)status).ToString(System.Globalization.CultureInfo.InvariantCulture) },
            s_json, statusCode: (int)status);

    private static IResult Invalid(string resource, string code, string field, string? message = null) =>
        Results.Json(new
        {
            message = "Validation Failed",
            errors = new[] { message is null ? (object)new { resource, code, field } : new { resource, code, field, message } },
            documentation_url = "https://docs.github.com/rest",
            status = "422",
        }, s_json, statusCode: 422);

    private object User(string login) => new
    {
        login, id = 41898282, node_id = "MDM6Qm90NDE4OTgyODI=", avatar_url = "https://avatars.githubusercontent.com/in/1?v=4", gravatar_id = "",
        url = $"{Url}users/{login}", html_url = $"https://github.com/{login}", type = login.EndsWith("[bot]", StringComparison.Ordinal) ? "Bot" : "User",
        site_admin = false,
    };

    /// <summary>GET /user's shape: the public fields and the private ones an authenticated user sees of themself.</summary>
    private object UserJson(string login) => new
    {
        login, id = 583231, node_id = "MDQ6VXNlcjU4MzIzMQ==", avatar_url = "https://avatars.githubusercontent.com/u/583231?v=4", gravatar_id = "",
        url = $"{Url}users/{login}", html_url = $"https://github.com/{login}", type = "User", site_admin = false,
        name = "Perf Bot", company = (string?)null, blog = "", location = (string?)null, email = (string?)null, hireable = (bool?)null,
        bio = (string?)null, twitter_username = (string?)null, public_repos = 2, public_gists = 0, followers = 0, following = 0,
        created_at = "2020-01-01T00:00:00Z", updated_at = "2024-01-01T00:00:00Z",
        private_gists = 0, total_private_repos = 0, owned_private_repos = 0, disk_usage = 0, collaborators = 0, two_factor_authentication = true,
        plan = new { name = "free", space = 976562499, private_repos = 10000, collaborators = 0 },
    };

    /// <summary>GET /app's shape (the authenticated App).</summary>
    private object AppJson() => new
    {
        id = long.Parse(AppId, System.Globalization.CultureInfo.InvariantCulture), slug = AppSlug, node_id = "MDExOkludGVncmF0aW9uMQ==",
        client_id = "Iv1.8a61f9b3a7aba766", owner = User("octo"), name = "PerfService", description = "Benchmarks pull requests",
        external_url = "https://perf.example.com", html_url = $"https://github.com/apps/{AppSlug}",
        created_at = "2024-01-01T00:00:00Z", updated_at = "2024-01-01T00:00:00Z",
        permissions = new { checks = "write", issues = "write", pull_requests = "write", statuses = "write", metadata = "read" },
        events = new[] { "check_run", "check_suite", "issue_comment", "pull_request", "push" }, installations_count = _installations.Count,
    };

    private object CommentJson(FakeComment c) => new
    {
        url = $"{Url}repos/{c.Repo}/issues/comments/{c.Id}",
        html_url = $"https://github.com/{c.Repo}/pull/{c.Issue}#issuecomment-{c.Id}",
        issue_url = $"{Url}repos/{c.Repo}/issues/{c.Issue}",
        id = c.Id, node_id = $"IC_kwDO{c.Id}", user = User(c.Login),
        created_at = Iso(c.CreatedAt), updated_at = Iso(c.UpdatedAt),
        author_association = "NONE", body = c.Body, performed_via_github_app = (object?)null,
    };

    private object StatusJson(FakeStatus s) => new
    {
        url = $"{Url}repos/{s.Repo}/statuses/{s.Sha}", avatar_url = "https://avatars.githubusercontent.com/in/1?v=4",
        id = s.Id, node_id = $"SC_kwDO{s.Id}", state = s.State, description = s.Description, target_url = s.TargetUrl, context = s.Context,
        created_at = Iso(s.CreatedAt), updated_at = Iso(s.CreatedAt), creator = User(Login),
    };

    /// <summary>The App is installed once per account (owner), as on GitHub: every owner gets an installation of its own.</summary>
    public long InstallationFor(string owner) => _installations.GetOrAdd(owner.ToLowerInvariant(), _ => Interlocked.Increment(ref _nextId));

    private object Installation(string owner) => new
    {
        id = InstallationFor(owner), account = User(owner),
        access_tokens_url = $"{Url}app/installations/{InstallationFor(owner)}/access_tokens",
        repositories_url = $"{Url}installation/repositories", html_url = $"https://github.com/settings/installations/{InstallationFor(owner)}",
        app_id = long.Parse(AppId, System.Globalization.CultureInfo.InvariantCulture), app_slug = "perfservice", target_id = 1, target_type = "Organization",
        permissions = new { checks = "write", issues = "write", pull_requests = "write", statuses = "write", metadata = "read" },
        events = new[] { "check_run", "check_suite", "issue_comment", "pull_request", "push" }, created_at = "2024-01-01T00:00:00Z", updated_at = "2024-01-01T00:00:00Z",
        single_file_name = (string?)null, has_multiple_single_files = false, single_file_paths = Array.Empty<string>(),
        repository_selection = "selected", suspended_at = (string?)null, suspended_by = (object?)null,
    };

    private object IssueToken()
    {
        var token = "ghs_" + Convert.ToHexStringLower(System.Security.Cryptography.RandomNumberGenerator.GetBytes(18));
        var expires = DateTimeOffset.UtcNow + TokenLifetime;
        IssuedTokens[token] = expires;
        return new
        {
            token, expires_at = Iso(expires),
            permissions = new { checks = "write", issues = "write", pull_requests = "write", statuses = "write", metadata = "read" },
            repository_selection = "selected",
        };
    }

    private static string Iso(DateTimeOffset t) => t.UtcDateTime.ToString("yyyy-MM-ddTHH:mm:ssZ", System.Globalization.CultureInfo.InvariantCulture);
}
