using System.Text.Json;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using PerfService.Data;

namespace PerfService.PullRequests;

/// <summary>
/// POST /api/v1/github/webhook: verifies the signature over the raw body, records the delivery id (a redelivery is
/// answered without acting twice), then dispatches. Anything that is not for us is accepted and ignored, so GitHub
/// does not show failed deliveries for events the App merely subscribes to.
/// </summary>
public static class GitHubWebhook
{
    public static async Task<Results<Ok<WebhookReply>, Accepted<WebhookReply>, ProblemHttpResult>> Receive(
        HttpRequest request, IOptions<GitHubOptions> options, PerfDbContext db, WebhookDispatcher dispatcher, CancellationToken ct)
    {
        using var buffer = new MemoryStream();
        await request.Body.CopyToAsync(buffer, ct);
        var body = buffer.ToArray();
        if (!WebhookSignature.IsValid(options.Value.WebhookSecret, request.Headers[WebhookSignature.Header], body))
            return TypedResults.Problem(statusCode: StatusCodes.Status401Unauthorized, title: "Invalid webhook signature",
                detail: string.IsNullOrEmpty(options.Value.WebhookSecret)
                    ? "GitHub:WebhookSecret is not configured, so no delivery can be verified"
                    : $"{WebhookSignature.Header} is missing or does not match the body");

        string eventName = request.Headers["X-GitHub-Event"].ToString();
        string delivery = request.Headers["X-GitHub-Delivery"].ToString();
        if (eventName.Length is 0 or > 64 || delivery.Length is 0 or > 100)
            return TypedResults.Problem(statusCode: StatusCodes.Status400BadRequest, title: "Not a GitHub delivery",
                detail: "X-GitHub-Event and X-GitHub-Delivery are required");
        if (eventName == "ping") return TypedResults.Ok(new WebhookReply("pong"));

        // Insert first: of two concurrent copies of one delivery, exactly one gets the row and acts.
        var now = DateTimeOffset.UtcNow;
        var inserted = await db.Database.ExecuteSqlAsync(
            $"INSERT INTO webhook_deliveries (delivery_id, event, received_at) VALUES ({delivery}, {eventName}, {now}) ON CONFLICT (delivery_id) DO NOTHING", ct);
        if (inserted == 0) return TypedResults.Ok(new WebhookReply("duplicate delivery ignored"));

        try
        {
            return TypedResults.Accepted((string?)null, await dispatcher.HandleAsync(eventName, body, ct));
        }
        catch (Exception e) when (e is JsonException or WebhookPayloadException)
        {
            await ForgetAsync(db, delivery);
            return TypedResults.Problem(statusCode: StatusCodes.Status400BadRequest, title: "Unreadable payload", detail: e.Message);
        }
        catch
        {
            // Nothing was done, so a redelivery from GitHub's UI must be able to try again.
            await ForgetAsync(db, delivery);
            throw;
        }
    }

    private static Task ForgetAsync(PerfDbContext db, string delivery) =>
        db.Database.ExecuteSqlAsync($"DELETE FROM webhook_deliveries WHERE delivery_id = {delivery}", CancellationToken.None);
}
