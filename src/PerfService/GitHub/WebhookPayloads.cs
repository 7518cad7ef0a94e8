using System.Text.Json;
using System.Text.Json.Serialization;

namespace PerfService.GitHub;

// Only the fields PerfService reads; GitHub sends many more. Missing required fields fail the parse (400).
//
// Why not Octokit.Webhooks 4.2.3 (evaluated for issue 15): its models are the full GitHub schema with C# `required`
// members, e.g. ~20 on a pull request (url, node_id, html_url, diff_url, labels, _links, …) that PerfService never
// reads; a payload without one of them (an older GitHub Enterprise Server, a trimmed test fixture) fails to parse,
// where these records require exactly what the code uses. Its signature check exists only inside the endpoint that
// Octokit.Webhooks.AspNetCore maps (MapGitHubWebhooks(path, secret)): that endpoint reads the body, verifies and
// deserialises by itself with a secret fixed at mapping time, so GitHubWebhook's order (25 MB streaming cap, HMAC over
// the raw bytes, delivery dedup row, only then parse) and its options-based secret would be lost or re-wrapped around
// it. The part worth taking later is typed dispatch: WebhookEventProcessor.ProcessWebhookAsync(headers, body) on the
// already verified and deduplicated bytes, once its strict models are acceptable.

public sealed record RepositoryPayload(string FullName, string? DefaultBranch = null, long? Id = null);

public sealed record UserPayload(string Login);

public sealed record LabelPayload(string Name);

/// <summary><paramref name="Repo"/> is where the branch lives: a fork for outside contributors, null once a fork is
/// deleted.</summary>
public sealed record GitRefPayload(string Ref, string Sha, RepositoryPayload? Repo = null);

/// <summary><paramref name="AuthorAssociation"/> is the pull request author's relation to the repository (OWNER,
/// MEMBER,
/// COLLABORATOR, CONTRIBUTOR, FIRST_TIME_CONTRIBUTOR, FIRST_TIMER, NONE), in every event, whoever sent it.</summary>
public sealed record PullRequestPayload(
    GitRefPayload Head,
    GitRefPayload Base,
    DateTimeOffset UpdatedAt,
    UserPayload? User = null,
    string? AuthorAssociation = null
);

/// <summary><paramref name="Sender"/> did the action (pushed, labelled); <paramref name="Before"/> is the previous head
/// of a
/// <c>synchronize</c>; <paramref name="Label"/> the label of a <c>labeled</c>.</summary>
public sealed record PullRequestEvent(
    string Action,
    int Number,
    PullRequestPayload PullRequest,
    RepositoryPayload Repository,
    UserPayload? Sender = null,
    LabelPayload? Label = null,
    string? Before = null
);

/// <summary>A commit of a push, oldest first; GitHub lists at most 20 (the most recent).</summary>
public sealed record PushCommitPayload(string Id, DateTimeOffset? Timestamp = null, string? Message = null);

public sealed record PushEvent(
    string Ref,
    string After,
    bool Deleted,
    RepositoryPayload Repository,
    IReadOnlyList<PushCommitPayload>? Commits = null
);

public static class WebhookJson
{
    public static readonly JsonSerializerOptions Options = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.SnakeCaseLower,
        RespectNullableAnnotations = true,
        RespectRequiredConstructorParameters = true,
        UnmappedMemberHandling = JsonUnmappedMemberHandling.Skip,
    };

    public static T Parse<T>(byte[] body) =>
        JsonSerializer.Deserialize<T>(body, Options) ?? throw new JsonException("the payload is null");
}

/// <summary>A pull request a check belongs to. GitHub lists only pull requests of the repository's own branches (none
/// for forks).</summary>
public sealed record CheckPullRequestPayload(int Number);

/// <summary><paramref name="ExternalId"/> is what PerfService set when it created the run (the project's
/// slug).</summary>
public sealed record CheckRunPayload(
    long Id,
    string HeadSha,
    string? Name = null,
    string? ExternalId = null,
    IReadOnlyList<CheckPullRequestPayload>? PullRequests = null
);

public sealed record RequestedActionPayload(string Identifier);

/// <summary><c>rerequested</c> (the check's "Re-run" button) or <c>requested_action</c> (a button PerfService
/// offered).</summary>
public sealed record CheckRunEvent(
    string Action,
    CheckRunPayload CheckRun,
    RepositoryPayload Repository,
    UserPayload Sender,
    RequestedActionPayload? RequestedAction = null
);

public sealed record CheckSuitePayload(
    long Id,
    string HeadSha,
    IReadOnlyList<CheckPullRequestPayload>? PullRequests = null
);

/// <summary><c>rerequested</c>: "Re-run all checks" of a commit.</summary>
public sealed record CheckSuiteEvent(
    string Action,
    CheckSuitePayload CheckSuite,
    RepositoryPayload Repository,
    UserPayload Sender
);

/// <summary><paramref name="PullRequest"/> is present only when the issue is a pull request.</summary>
public sealed record IssuePayload(int Number, JsonElement? PullRequest = null);

public sealed record CommentPayload(long Id, string Body, UserPayload User);

public sealed record IssueCommentEvent(
    string Action,
    IssuePayload Issue,
    CommentPayload Comment,
    RepositoryPayload Repository,
    UserPayload Sender
);
