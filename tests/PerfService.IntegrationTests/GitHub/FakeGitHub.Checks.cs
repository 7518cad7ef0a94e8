using System.Collections.Concurrent;
using System.Text.Json;
using System.Text.Json.Nodes;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;

namespace PerfService.IntegrationTests.GitHub;

public sealed record FakeCheckAction(string Label, string Description, string Identifier);

public sealed record FakeCheckRun(long Id, string Repo, string Name, string HeadSha, string Status, string? Conclusion, string? Title, string? Summary,
    string? DetailsUrl, string? ExternalId, IReadOnlyList<FakeCheckAction> Actions, int Updates);

public sealed record FakeReaction(long Id, string Repo, long CommentId, string Content, string Login);

/// <summary>Checks (runs), collaborator permissions and comment reactions, with GitHub's validation rules (among them: a
/// completed check run is final, any change to it is refused with a 422).</summary>
public sealed partial class FakeGitHub
{
    private const int MaxSummary = 65_535;
    private static readonly string[] s_checkStatuses = ["queued", "in_progress", "completed"];
    private static readonly string[] s_conclusions = ["action_required", "cancelled", "failure", "neutral", "success", "skipped", "stale", "timed_out"];
    private static readonly string[] s_reactions = ["+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"];

    private readonly ConcurrentDictionary<long, FakeCheckRun> _checkRuns = new();
    private readonly ConcurrentQueue<FakeReaction> _reactions = new();
    private readonly ConcurrentDictionary<string, string> _permissions = new(StringComparer.OrdinalIgnoreCase);
    private readonly List<long> _refusedCheckUpdates = [];

    /// <summary>Check runs someone tried to change after they were completed (each refused with a 422).</summary>
    public IReadOnlyList<long> RefusedCheckUpdates
    {
        get { lock (_refusedCheckUpdates) return _refusedCheckUpdates.ToList(); }
    }

    /// <summary>A user's permission on every repository: admin, maintain, write, triage, read or none (the default: read).</summary>
    public void SetPermission(string login, string permission) => _permissions[login] = permission;

    public IReadOnlyList<FakeCheckRun> CheckRunsOf(string repo, string sha) =>
        _checkRuns.Values.Where(c => c.Repo.Equals(repo, StringComparison.OrdinalIgnoreCase) && c.HeadSha == sha).OrderBy(c => c.Id).ToList();

    public IReadOnlyList<FakeReaction> ReactionsOn(long commentId) => _reactions.Where(r => r.CommentId == commentId).ToList();

    private void MapCheckRoutes(IEndpointRouteBuilder app)
    {
        app.MapPost("/repos/{owner}/{repo}/check-runs", (HttpContext http, string owner, string repo) =>
        {
            // Only an App's installation token may write checks; a personal token gets 403 as on GitHub.
            if (!(http.Items["login"] as string ?? "").EndsWith("[bot]", StringComparison.Ordinal))
                return Error(HttpStatusCode.Forbidden, "You must authenticate via a GitHub App.", "https://docs.github.com/rest/checks/runs#create-a-check-run");
            var json = Json(http);
            if (json is null) return Error(HttpStatusCode.BadRequest, "Problems parsing JSON");
            if (Str(json, "name") is not { Length: > 0 } name) return Invalid("CheckRun", "missing_field", "name");
            if (Str(json, "head_sha") is not { Length: 40 } sha) return Invalid("CheckRun", "missing_field", "head_sha");
            var run = new FakeCheckRun(Interlocked.Increment(ref _nextId), $"{owner}/{repo}", name, sha, "queued", null, null, null, null, null, [], 0);
            if (Apply(run, json) is not { } applied) return Invalid("CheckRun", "invalid", "status");
            if (applied.Error is { } error) return error;
            _checkRuns[run.Id] = applied.Run!;
            return Results.Json(CheckRunJson(applied.Run!), s_json, statusCode: 201);
        });
        app.MapMethods("/repos/{owner}/{repo}/check-runs/{id:long}", ["PATCH"], (HttpContext http, string owner, string repo, long id) =>
        {
            if (!_checkRuns.TryGetValue(id, out var run) || !run.Repo.Equals($"{owner}/{repo}", StringComparison.OrdinalIgnoreCase))
                return Error(HttpStatusCode.NotFound, "Not Found");
            // GitHub keeps a completed check run as it was: its status and conclusion are final. A change is a new run.
            if (run.Status == "completed")
            {
                lock (_refusedCheckUpdates) _refusedCheckUpdates.Add(id);
                return Invalid("CheckRun", "custom", "status", "a completed check run cannot be changed; create a new check run");
            }
            var json = Json(http);
            if (json is null) return Error(HttpStatusCode.BadRequest, "Problems parsing JSON");
            var applied = Apply(run with { Updates = run.Updates + 1 }, json)!;
            if (applied.Error is { } error) return error;
            _checkRuns[id] = applied.Run!;
            return Results.Json(CheckRunJson(applied.Run!), s_json);
        });
        app.MapGet("/repos/{owner}/{repo}/collaborators/{user}/permission", (string owner, string repo, string user) =>
        {
            var permission = _permissions.GetValueOrDefault(user, "read");
            // The legacy "permission" field folds maintain into write and triage into read; role_name is exact.
            var legacy = permission switch { "maintain" => "write", "triage" => "read", _ => permission };
            return Results.Json(new { permission = legacy, role_name = permission, user = User(user) }, s_json);
        });
        app.MapPost("/repos/{owner}/{repo}/issues/comments/{id:long}/reactions", (HttpContext http, string owner, string repo, long id) =>
        {
            var content = Json(http) is { } json ? Str(json, "content") : null;
            if (content is null || !s_reactions.Contains(content)) return Invalid("Reaction", "invalid", "content");
            var login = (string)http.Items["login"]!;
            var existing = _reactions.FirstOrDefault(r => r.CommentId == id && r.Content == content && r.Login == login);
            var reaction = existing ?? new FakeReaction(Interlocked.Increment(ref _nextId), $"{owner}/{repo}", id, content, login);
            if (existing is null) _reactions.Enqueue(reaction);
            return Results.Json(new { id = reaction.Id, node_id = $"REA_{reaction.Id}", user = User(login), content, created_at = Iso(DateTimeOffset.UtcNow) },
                s_json, statusCode: existing is null ? 201 : 200);
        });
    }

    private sealed record Applied(FakeCheckRun? Run, IResult? Error);

    /// <summary>GitHub's rules: a completed run needs a conclusion (a conclusion alone completes it), summary ≤ 65,535
    /// characters, at most 3 actions with label ≤ 20, description ≤ 40 and identifier ≤ 20 characters.</summary>
    private static Applied? Apply(FakeCheckRun run, JsonObject json)
    {
        var status = Str(json, "status") ?? run.Status;
        if (!s_checkStatuses.Contains(status)) return new Applied(null, Invalid("CheckRun", "invalid", "status"));
        var conclusion = Str(json, "conclusion") ?? (json.ContainsKey("status") ? null : run.Conclusion);
        if (conclusion is not null && !s_conclusions.Contains(conclusion)) return new Applied(null, Invalid("CheckRun", "invalid", "conclusion"));
        if (conclusion is not null) status = "completed";
        if (status == "completed" && conclusion is null)
            return new Applied(null, Invalid("CheckRun", "missing_field", "conclusion", "conclusion is required when status is completed"));
        string? title = run.Title, summary = run.Summary;
        if (json["output"] is JsonObject output)
        {
            title = Str(output, "title");
            summary = Str(output, "summary");
            if (title is null || summary is null) return new Applied(null, Invalid("CheckRun", "missing_field", "output"));
            if (summary.Length > MaxSummary) return new Applied(null, Invalid("CheckRun", "custom", "output", $"summary is too long (maximum is {MaxSummary} characters)"));
        }
        var actions = run.Actions;
        if (json["actions"] is JsonArray list)
        {
            actions = list.OfType<JsonObject>().Select(a => new FakeCheckAction(Str(a, "label") ?? "", Str(a, "description") ?? "", Str(a, "identifier") ?? "")).ToList();
            if (actions.Count > 3 || actions.Any(a => a.Label.Length is 0 or > 20 || a.Description.Length is 0 or > 40 || a.Identifier.Length is 0 or > 20))
                return new Applied(null, Invalid("CheckRun", "invalid", "actions"));
        }
        return new Applied(run with
        {
            Status = status, Conclusion = status == "completed" ? conclusion : null, Title = title, Summary = summary, Actions = actions,
            DetailsUrl = Str(json, "details_url") ?? run.DetailsUrl, ExternalId = Str(json, "external_id") ?? run.ExternalId,
        }, null);
    }

    private static JsonObject? Json(HttpContext http)
    {
        try
        {
            return JsonNode.Parse((string)http.Items["body"]!) as JsonObject;
        }
        catch (JsonException)
        {
            return null;
        }
    }

    private static string? Str(JsonObject json, string name) => json[name] is JsonValue v && v.TryGetValue<string>(out var s) ? s : null;

    private object CheckRunJson(FakeCheckRun c) => new
    {
        id = c.Id, head_sha = c.HeadSha, node_id = $"CR_{c.Id}", external_id = c.ExternalId ?? "",
        url = $"{Url}repos/{c.Repo}/check-runs/{c.Id}", html_url = $"https://github.com/{c.Repo}/runs/{c.Id}", details_url = c.DetailsUrl,
        status = c.Status, conclusion = c.Conclusion, started_at = Iso(DateTimeOffset.UtcNow), completed_at = c.Conclusion is null ? null : Iso(DateTimeOffset.UtcNow),
        output = new { title = c.Title, summary = c.Summary, text = (string?)null, annotations_count = 0, annotations_url = $"{Url}repos/{c.Repo}/check-runs/{c.Id}/annotations" },
        name = c.Name, check_suite = new { id = 5 }, app = AppJson(), pull_requests = Array.Empty<object>(),
    };
}
