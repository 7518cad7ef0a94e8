namespace PerfService.Auth;

/// <summary>What a token may do. Admin may do everything; agent tokens do agent work only (claim, heartbeat, post runs).</summary>
public static class Scopes
{
    public const string Read = "read";
    public const string Ingest = "ingest";
    public const string Agent = "agent";
    public const string Admin = "admin";

    public static readonly string[] All = [Read, Ingest, Agent, Admin];

    public const string ClaimType = "scope";
}
