namespace PerfService.Agents.Client;

/// <summary>How a call to the service ended, in the terms the agent decides on (never an exception).</summary>
public enum ApiStatus
{
    Ok,

    /// <summary>204: e.g. no job within the long poll.</summary>
    NoContent,

    /// <summary>Connection refused, timeout, 5xx, 408, 429: worth trying again later.</summary>
    Transient,

    /// <summary>401/403: the token is wrong; retrying will not help.</summary>
    Unauthorized,
    NotFound,

    /// <summary>409: for a job, the lease went to another agent.</summary>
    Conflict,

    /// <summary>Any other 4xx: the service refused the content.</summary>
    Rejected,
}

public sealed record ApiResult<T>(ApiStatus Status, T? Value = default, string? Error = null, int? HttpStatus = null)
{
    public bool IsSuccess => Status is ApiStatus.Ok or ApiStatus.NoContent;

    public ApiResult<TOther> As<TOther>() => new(Status, default, Error, HttpStatus);

    public override string ToString() =>
        HttpStatus is { } code
            ? $"{Status} ({code}){(Error is null ? "" : $": {Error}")}"
            : $"{Status}{(Error is null ? "" : $": {Error}")}";
}
