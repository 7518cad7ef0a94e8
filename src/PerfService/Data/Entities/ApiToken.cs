namespace PerfService.Data.Entities;

/// <summary>An API token. Only the SHA-256 of the secret is stored; the secret is shown once, at creation.</summary>
public class ApiToken
{
    public long Id { get; set; }
    public required string Name { get; set; }
    public required byte[] Hash { get; set; }

    /// <summary>Any of read, ingest, agent, admin.</summary>
    public string[] Scopes { get; set; } = [];

    /// <summary>Limits the token to one project; null for all.</summary>
    public long? ProjectId { get; set; }
    public DateTimeOffset CreatedAt { get; set; }
    public DateTimeOffset? RevokedAt { get; set; }

    /// <summary>After this instant the token is refused (401); null: it does not expire.</summary>
    public DateTimeOffset? ExpiresAt { get; set; }
    public DateTimeOffset? LastUsedAt { get; set; }
}
