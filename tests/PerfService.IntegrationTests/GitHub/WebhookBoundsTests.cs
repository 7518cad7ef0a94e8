using System.Text;
using Microsoft.Extensions.DependencyInjection;
using PerfService.GitHub;

namespace PerfService.IntegrationTests.GitHub;

/// <summary>A service that reads one webhook body at a time and lets no delivery wait for a slot.</summary>
public sealed class OneWebhookAtATimeFixture : GitHubFixture
{
    protected override IReadOnlyDictionary<string, string?> ServiceSettings => new Dictionary<string, string?>(base.ServiceSettings)
    {
        ["GitHub:MaxConcurrentWebhooks"] = "1",
        ["GitHub:WebhookQueueSeconds"] = "0",
    };
}

/// <summary>
/// Unsigned webhook bodies are bounded like uploads: bodies that must be read to check their signature are read a few
/// at a time, each spooled rather than held in memory (the memory figures are in docs/measurements/2026-11-27-webhook-memory.md).
/// </summary>
public class WebhookBoundsTests(OneWebhookAtATimeFixture fixture) : IClassFixture<OneWebhookAtATimeFixture>
{
    private static readonly string Bogus = "sha256=" + new string('0', 64);

    private static HttpRequestMessage Raw(HttpContent content, string? signature)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, "/api/v1/github/webhook") { Content = content };
        request.Headers.Add("X-GitHub-Event", "ping");
        request.Headers.Add("X-GitHub-Delivery", Guid.NewGuid().ToString());
        if (signature is not null) request.Headers.Add(WebhookSignature.Header, signature);
        return request;
    }

    [Theory]
    [InlineData(null)]
    [InlineData("sha1=0000")]
    [InlineData("sha256=not-hex")]
    public async Task A_delivery_without_a_well_formed_signature_is_refused_and_a_signed_one_is_answered(string? signature)
    {
        var body = new byte[64 * 1024];
        Array.Fill(body, (byte)'{');
        Assert.Equal(HttpStatusCode.Unauthorized, (await fixture.App.CreateClient().SendAsync(Raw(new ByteArrayContent(body), signature))).StatusCode);
        var ping = Encoding.UTF8.GetBytes("{\"zen\":\"Design for failure.\"}");
        Assert.Equal(HttpStatusCode.OK, (await fixture.App.CreateClient().SendAsync(Raw(new ByteArrayContent(ping), WebhookSignature.Sign(GitHubTestApp.WebhookSecret, ping)))).StatusCode);
    }

    [Fact]
    public async Task While_the_slots_are_taken_the_next_delivery_is_told_to_retry_and_is_answered_once_one_is_free()
    {
        // The one slot is held, as by an attacker's body being read (the in-process test server hands the service a
        // body only once it is whole, so the slot is taken here; the 32-client figure is in the measurement).
        var gate = fixture.App.Services.GetRequiredService<WebhookGate>();
        var held = await gate.EnterAsync(CancellationToken.None);
        Assert.NotNull(held);
        var ping = Encoding.UTF8.GetBytes("{\"zen\":\"Keep it logically awesome.\"}");
        try
        {
            var busy = await fixture.App.CreateClient().SendAsync(Raw(new ByteArrayContent(ping), WebhookSignature.Sign(GitHubTestApp.WebhookSecret, ping)));
            Assert.Equal(HttpStatusCode.ServiceUnavailable, busy.StatusCode);
            Assert.True(busy.Headers.RetryAfter is not null);
        }
        finally
        {
            held!.Dispose();
        }
        // The slot is back: the honest delivery is answered, and it gives its slot back too.
        var honest = await fixture.App.CreateClient().SendAsync(Raw(new ByteArrayContent(ping), WebhookSignature.Sign(GitHubTestApp.WebhookSecret, ping)));
        Assert.Equal(HttpStatusCode.OK, honest.StatusCode);
        Assert.Equal(1, gate.Free);
    }
}
