using System.Text.Json;
using System.Text.Json.Serialization;

namespace PerfService.PullRequests;

// Only the fields PerfService reads; GitHub sends many more. Missing required fields fail the parse (400).

public sealed record RepositoryPayload(string FullName, string? DefaultBranch);

public sealed record GitRefPayload(string Ref, string Sha);

public sealed record PullRequestPayload(GitRefPayload Head, GitRefPayload Base);

public sealed record PullRequestEvent(string Action, int Number, PullRequestPayload PullRequest, RepositoryPayload Repository);

/// <summary>A commit of a push, oldest first; GitHub lists at most 20 (the most recent).</summary>
public sealed record PushCommitPayload(string Id, DateTimeOffset? Timestamp = null, string? Message = null);

public sealed record PushEvent(string Ref, string After, bool Deleted, RepositoryPayload Repository, IReadOnlyList<PushCommitPayload>? Commits = null);

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
