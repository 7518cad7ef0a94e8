namespace PerfService.Auth;

/// <summary>What a token may do. Admin may do everything; agent tokens do agent work only (claim, heartbeat, post
/// runs).</summary>
public static class Scopes
{
    public const string Read = "read";
    public const string Ingest = "ingest";
    public const string Agent = "agent";
    public const string Admin = "admin";

    public static readonly string[] All = [Read, Ingest, Agent, Admin];

    public const string ClaimType = "scope";

    /// <summary>
    /// The scopes each scope policy lets through: the policies (AuthExtensions) and the OpenAPI document's security
    /// requirements (ApiReference) both read this table, so the reference cannot drift from what is enforced.
    /// </summary>
    public static readonly IReadOnlyDictionary<string, string[]> AcceptedBy = new Dictionary<string, string[]>
    {
        [Read] = [Read, Admin],
        [Ingest] = [Ingest, Agent, Admin],
        [Agent] = [Agent, Admin],
        [Admin] = [Admin],
    };
}
