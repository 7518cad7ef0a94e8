using System.Net.Http.Headers;
using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Mvc;

namespace PerfService.IntegrationTests.Security;

/// <summary>Issue 12 §4: tokens expire, their last use is recorded (throttled), and the Hangfire dashboard takes no token in a URL.</summary>
public partial class TokenLifetimeTests(PerfServiceApp app) : IClassFixture<PerfServiceApp>
{
    [Fact]
    public async Task An_expired_token_is_refused_with_a_401_that_says_so_and_a_live_one_passes()
    {
        var expired = await app.WithDbAsync(db => TokenCommands.CreateAsync(db, "old-admin", [Scopes.Admin], expiresAt: DateTimeOffset.UtcNow.AddMinutes(-1)));
        var live = await app.WithDbAsync(db => TokenCommands.CreateAsync(db, "new-admin", [Scopes.Admin], expiresAt: DateTimeOffset.UtcNow.AddDays(90)));

        var refused = await Client(expired).PostAsJsonAsync("/api/v1/projects", new { slug = "expiry", name = "expiry" });
        Assert.Equal(HttpStatusCode.Unauthorized, refused.StatusCode);
        var problem = (await refused.Content.ReadFromJsonAsync<ProblemDetails>())!;
        Assert.Contains("token 'old-admin' expired at", problem.Detail);

        Assert.Equal(HttpStatusCode.Created, (await Client(live).PostAsJsonAsync("/api/v1/projects", new { slug = "expiry", name = "expiry" })).StatusCode);
    }

    [Fact]
    public void Expiry_is_a_lifetime_or_a_future_date()
    {
        var now = new DateTimeOffset(2026, 11, 23, 12, 0, 0, TimeSpan.Zero);
        Assert.Equal(now.AddDays(90), TokenCommands.ParseExpiry("90d", now));
        Assert.Equal(now.AddHours(12), TokenCommands.ParseExpiry("12h", now));
        Assert.Equal(new DateTimeOffset(2027, 3, 1, 0, 0, 0, TimeSpan.Zero), TokenCommands.ParseExpiry("2027-03-01", now));
        Assert.Throws<ArgumentException>(() => TokenCommands.ParseExpiry("2020-01-01", now));
        Assert.Throws<ArgumentException>(() => TokenCommands.ParseExpiry("soon", now));
    }

    [Fact]
    public async Task Last_use_is_recorded_at_most_once_a_minute()
    {
        var secret = await app.WithDbAsync(db => TokenCommands.CreateAsync(db, "used-reader", [Scopes.Read]));
        Assert.Null(await LastUsedAsync("used-reader"));

        var client = Client(secret);
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/api/v1/projects")).StatusCode);
        var first = await LastUsedAsync("used-reader");
        Assert.NotNull(first);
        for (var i = 0; i < 3; i++) Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/api/v1/projects")).StatusCode);
        Assert.Equal(first, await LastUsedAsync("used-reader"));
    }

    [Fact]
    public async Task The_dashboard_refuses_a_token_in_the_url_and_is_entered_through_the_login_form()
    {
        var admin = await app.CreateTokenAsync(Scopes.Admin);
        var browser = app.CreateClient(new() { AllowAutoRedirect = false, HandleCookies = true });

        var inUrl = await browser.GetAsync($"/hangfire?token={admin}");
        Assert.Equal(HttpStatusCode.BadRequest, inUrl.StatusCode);
        Assert.False(inUrl.Headers.Contains("Set-Cookie"));
        Assert.Equal(HttpStatusCode.Unauthorized, (await browser.GetAsync("/hangfire")).StatusCode);

        var form = await browser.GetStringAsync("/hangfire-login");
        var field = FormField().Match(form);
        Assert.True(field.Success, form);
        // Without the anti-forgery field (a cross-site form post), the token is not even looked at.
        Assert.Equal(HttpStatusCode.BadRequest, (await browser.PostAsync("/hangfire-login", Form(("token", admin)))).StatusCode);
        var read = await app.CreateTokenAsync(Scopes.Read);
        Assert.Equal(HttpStatusCode.Unauthorized, (await browser.PostAsync("/hangfire-login", Form((field.Groups[1].Value, field.Groups[2].Value), ("token", read)))).StatusCode);
        // An admin token bound to a project is refused by the dashboard, so the login does not hand it a cookie either.
        await app.CreateProjectAsync("hangfire-bound");
        var projectId = await app.WithDbAsync(db => db.Projects.Where(p => p.Slug == "hangfire-bound").Select(p => p.Id).SingleAsync());
        var bound = await app.WithDbAsync(db => TokenCommands.CreateAsync(db, "bound-hangfire-admin", [Scopes.Admin], projectId));
        var boundLogin = await browser.PostAsync("/hangfire-login", Form((field.Groups[1].Value, field.Groups[2].Value), ("token", bound)));
        Assert.Equal(HttpStatusCode.Unauthorized, boundLogin.StatusCode);
        Assert.False(boundLogin.Headers.Contains("Set-Cookie"));
        Assert.Contains("bound to no project", await boundLogin.Content.ReadAsStringAsync());

        var signedIn = await browser.PostAsync("/hangfire-login", Form((field.Groups[1].Value, field.Groups[2].Value), ("token", admin)));
        Assert.Equal(HttpStatusCode.Redirect, signedIn.StatusCode);
        Assert.Equal("/hangfire", signedIn.Headers.Location?.ToString());
        var cookie = Assert.Single(signedIn.Headers.GetValues("Set-Cookie"), c => c.StartsWith("perf_hangfire="));
        Assert.Contains("httponly", cookie, StringComparison.OrdinalIgnoreCase);
        Assert.Contains("samesite=strict", cookie, StringComparison.OrdinalIgnoreCase);
        Assert.Contains("path=/hangfire", cookie, StringComparison.OrdinalIgnoreCase);
        Assert.Equal(HttpStatusCode.OK, (await browser.GetAsync("/hangfire")).StatusCode);
    }

    private HttpClient Client(string secret)
    {
        var client = app.CreateClient();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", secret);
        return client;
    }

    private Task<DateTimeOffset?> LastUsedAsync(string name) =>
        app.WithDbAsync(db => db.Tokens.Where(t => t.Name == name).Select(t => t.LastUsedAt).SingleAsync());

    private static FormUrlEncodedContent Form(params (string Name, string Value)[] fields) =>
        new(fields.Select(f => new KeyValuePair<string, string>(f.Name, f.Value)));

    [GeneratedRegex("<input type=\"hidden\" name=\"([^\"]+)\" value=\"([^\"]+)\">")]
    private static partial Regex FormField();
}
