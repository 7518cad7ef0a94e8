using System.Security.Cryptography;
using System.Text.Json;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using PerfService.Data;

namespace PerfService.GitHub;

/// <summary>
/// POST /api/v1/github/webhook. In this order, so that nothing unauthenticated is parsed: refuse a body over GitHub's
/// 25 MB cap (by its Content-Length before reading, or while reading a chunked one); verify the signature over the raw
/// bytes; record the delivery by its id and by the SHA-256 of the signed body (a redelivery, or the same signed body
/// replayed under a new id, is answered without acting twice); only then parse and dispatch. Anything that is not for
/// us is accepted and ignored, so GitHub does not show failed deliveries for events the App merely subscribes to.
/// </summary>
public static class GitHubWebhook
{
    /// <summary>GitHub caps webhook payloads at 25 MB and does not deliver larger ones.</summary>
    public const long MaxBodyBytes = 25 * 1024 * 1024;

    public static async Task<
        Results<Ok<WebhookReply>, Accepted<WebhookReply>, ValidationProblem, ProblemHttpResult>
    > Receive(
        HttpRequest request,
        IOptions<GitHubOptions> options,
        PerfDbContext db,
        WebhookDispatcher dispatcher,
        WebhookGate gate,
        TimeProvider time,
        CancellationToken ct
    )
    {
        if (request.ContentLength > MaxBodyBytes)
            return TooLarge();
        byte[]? body;
        // Bodies are read a few at a time, and an unsigned one never whole in memory (WebhookBody): many concurrent
        // unsigned 25 MB posts cost disk for a moment, not the process's memory.
        using (var slot = await gate.EnterAsync(ct))
        {
            if (slot is null)
            {
                request.HttpContext.Response.Headers.RetryAfter = "5";
                return TypedResults.Problem(
                    "too many webhook deliveries are being read at once; retry after the Retry-After delay",
                    statusCode: StatusCodes.Status503ServiceUnavailable,
                    title: "Webhooks busy"
                );
            }
            (var read, body) = await WebhookBody.ReadAsync(
                request.Body,
                options.Value.WebhookSecret,
                request.Headers[WebhookSignature.Header],
                MaxBodyBytes,
                ct
            );
            if (read == WebhookBodyRead.TooLarge)
                return TooLarge();
        }
        if (body is null)
            return TypedResults.Problem(
                statusCode: StatusCodes.Status401Unauthorized,
                title: "Invalid webhook signature",
                detail: string.IsNullOrEmpty(options.Value.WebhookSecret)
                    ? "GitHub:WebhookSecret is not configured, so no delivery can be verified"
                    : $"{WebhookSignature.Header} is missing or does not match the body"
            );

        string eventName = request.Headers["X-GitHub-Event"].ToString();
        string delivery = request.Headers["X-GitHub-Delivery"].ToString();
        if (eventName.Length is 0 or > 64 || delivery.Length is 0 or > 100)
            return TypedResults.Problem(
                statusCode: StatusCodes.Status400BadRequest,
                title: "Not a GitHub delivery",
                detail: "X-GitHub-Event and X-GitHub-Delivery are required"
            );
        if (eventName == "ping")
            return TypedResults.Ok(new WebhookReply("pong"));

        // Insert first: of two concurrent copies of one delivery, exactly one gets the row and acts. Either unique
        // index
        // (delivery id, body hash) makes a copy a no-op.
        var now = time.GetUtcNow();
        var hash = Convert.ToHexStringLower(SHA256.HashData(body));
        var inserted = await db.Database.ExecuteSqlAsync(
            $"INSERT INTO webhook_deliveries (delivery_id, event, body_sha256, received_at) VALUES ({delivery}, {eventName}, {hash}, {now}) ON CONFLICT DO NOTHING",
            ct
        );
        if (inserted == 0)
            return TypedResults.Ok(new WebhookReply("duplicate delivery ignored"));

        try
        {
            return TypedResults.Accepted((string?)null, await dispatcher.HandleAsync(eventName, body, ct));
        }
        catch (WebhookPayloadException e) when (e.Field is { } field)
        {
            await ForgetAsync(db, delivery);
            return TypedResults.ValidationProblem(
                new Dictionary<string, string[]> { [field] = [e.Message] },
                title: "Invalid payload"
            );
        }
        catch (Exception e) when (e is JsonException or WebhookPayloadException)
        {
            await ForgetAsync(db, delivery);
            return TypedResults.Problem(
                statusCode: StatusCodes.Status400BadRequest,
                title: "Unreadable payload",
                detail: e.Message
            );
        }
        catch
        {
            // Nothing was done, so a redelivery from GitHub's UI must be able to try again.
            await ForgetAsync(db, delivery);
            throw;
        }
    }

    private static ProblemHttpResult TooLarge() =>
        TypedResults.Problem(
            statusCode: StatusCodes.Status413PayloadTooLarge,
            title: "Payload too large",
            detail: $"GitHub sends at most {MaxBodyBytes:N0} bytes; a larger body is not a GitHub delivery"
        );

    private static Task ForgetAsync(PerfDbContext db, string delivery) =>
        db.WebhookDeliveries.Where(d => d.DeliveryId == delivery).ExecuteDeleteAsync(CancellationToken.None);
}
