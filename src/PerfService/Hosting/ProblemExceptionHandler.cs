using Microsoft.AspNetCore.Diagnostics;
using Microsoft.AspNetCore.Http.Features;

namespace PerfService.Hosting;

/// <summary>
/// The last line of defence: an unexpected exception becomes a 500 ProblemDetails without internals, and request
/// bodies too large for the configured limit become a 413 instead of a 500.
/// </summary>
public sealed class ProblemExceptionHandler(IProblemDetailsService problems, ILogger<ProblemExceptionHandler> logger)
    : IExceptionHandler
{
    public async ValueTask<bool> TryHandleAsync(
        HttpContext http,
        Exception exception,
        CancellationToken cancellationToken
    )
    {
        var (status, title, detail) = exception switch
        {
            BadHttpRequestException { StatusCode: StatusCodes.Status413PayloadTooLarge } e => (
                StatusCodes.Status413PayloadTooLarge,
                "Request body too large",
                e.Message
            ),
            BadHttpRequestException e => (
                e.StatusCode,
                "Bad request",
                e.InnerException is System.Text.Json.JsonException j ? $"{e.Message} {j.Message}" : e.Message
            ),
            // The database is away (restarting, failing over): a retryable 503, not a 500.
            Npgsql.NpgsqlException { IsTransient: true } => (
                StatusCodes.Status503ServiceUnavailable,
                "Database unavailable",
                "The database cannot be reached; retry shortly."
            ),
            InvalidDataException e => (StatusCodes.Status400BadRequest, "Bad request", e.Message),
            // The client went away mid-request: whatever failed after that is its doing, and nobody reads the answer.
            _ when http.RequestAborted.IsCancellationRequested => (
                Ingestion.UploadReader.ClientClosedRequest,
                "Client closed request",
                "The client closed the connection."
            ),
            _ => (
                StatusCodes.Status500InternalServerError,
                "Internal error",
                "The server failed to handle the request; see its log."
            ),
        };
        if (status >= 500)
            logger.LogError(exception, "Unhandled exception on {Path}", http.Request.Path);
        else if (status == Ingestion.UploadReader.ClientClosedRequest)
            logger.LogInformation(
                "Request to {Path} aborted by the client ({Error}: {Message})",
                http.Request.Path,
                exception.GetType().Name,
                exception.Message
            );
        http.Response.StatusCode = status;
        if (status == StatusCodes.Status503ServiceUnavailable)
            http.Response.Headers.RetryAfter = "5";
        return await problems.TryWriteAsync(
            new ProblemDetailsContext
            {
                HttpContext = http,
                Exception = exception,
                ProblemDetails =
                {
                    Status = status,
                    Title = title,
                    Detail = detail,
                },
            }
        );
    }
}
