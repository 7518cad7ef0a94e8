namespace PerfService.Hosting.Http;

/// <summary>A page of a list; <paramref name="Next"/> is the URL of the following page, null on the last.</summary>
public sealed record Page<T>(IReadOnlyList<T> Items, string? Next);
