using Microsoft.AspNetCore.Mvc;

namespace PerfService.Hosting;

/// <summary>
/// U+0000 in user text. PostgreSQL's text and jsonb cannot store it, so a query parameter or upload field holding it
/// fails the statement (22021) as a 500 logged at Error. It is bad input: refused with a 400 that names the field, in
/// one place for query strings and paths (<see cref="UseNulRefusal"/>) and in the upload's validator.
/// </summary>
public static class NulText
{
    public const string Rule = "must not contain NUL characters (U+0000)";

    public static bool In(string? text) => text is not null && text.Contains('\0');

    /// <summary>The text as it can be shown in a message: NUL written out.</summary>
    public static string Show(string text) => text.Replace("\0", "\\u0000", StringComparison.Ordinal);

    public static WebApplication UseNulRefusal(this WebApplication app)
    {
        app.Use(
            async (http, next) =>
            {
                var field =
                    In(http.Request.Path.Value) ? "path"
                    : http.Request.Query.FirstOrDefault(q => In(q.Key) || q.Value.Any(In)) is { Key: not null } bad
                        ? $"query parameter '{Show(bad.Key)}'"
                    : null;
                if (field is null)
                {
                    await next(http);
                    return;
                }
                http.Response.StatusCode = StatusCodes.Status400BadRequest;
                await http
                    .RequestServices.GetRequiredService<IProblemDetailsService>()
                    .WriteAsync(
                        new ProblemDetailsContext
                        {
                            HttpContext = http,
                            ProblemDetails = new ProblemDetails
                            {
                                Status = 400,
                                Title = "Bad request",
                                Detail = $"{field} {Rule}",
                            },
                        }
                    );
            }
        );
        return app;
    }
}
