using System.Buffers.Text;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Http;

namespace PerfService.IntegrationTests.GitHub;

/// <summary>
/// GitHub's two kinds of credentials: App endpoints take "Bearer JWT" signed with the App's key (RS256, iss = App id,
/// exp at most ten minutes ahead); everything else takes a token ("token X" or "Bearer X"): the personal token, or an
/// installation token this fake issued and that has not expired.
/// </summary>
public sealed partial class FakeGitHub
{
    public IReadOnlyList<string> RejectedCredentials => _rejected;
    private readonly List<string> _rejected = [];

    private async Task AuthenticateAsync(HttpContext http, RequestDelegate next)
    {
        var header = http.Request.Headers.Authorization.FirstOrDefault() ?? "";
        var space = header.IndexOf(' ');
        var scheme = space > 0 ? header[..space] : "";
        var credential = space > 0 ? header[(space + 1)..].Trim() : "";
        var path = http.Request.Path.Value ?? "";

        string? problem;
        if (AppRoute().IsMatch(path))
            problem = scheme.Equals("Bearer", StringComparison.OrdinalIgnoreCase) ? VerifyJwt(credential) : "A JSON web token could not be decoded";
        else
            problem = (scheme.Equals("token", StringComparison.OrdinalIgnoreCase) || scheme.Equals("Bearer", StringComparison.OrdinalIgnoreCase))
                && IsValidToken(credential) ? null : "Bad credentials";

        if (problem is null)
        {
            // Who GitHub takes the caller for: what it records as the author of what they write.
            http.Items["login"] = AppRoute().IsMatch(path) ? null : IssuedTokens.ContainsKey(credential) ? BotLogin : Login;
            await next(http);
            return;
        }
        lock (_rejected) _rejected.Add($"{http.Request.Method} {path}: {problem}");
        await Error(HttpStatusCode.Unauthorized, problem).ExecuteAsync(http);
    }

    private bool IsValidToken(string token) =>
        (AppKey is null && token == PersonalToken) || (IssuedTokens.TryGetValue(token, out var expires) && expires > DateTimeOffset.UtcNow);

    private string? VerifyJwt(string jwt)
    {
        if (AppKey is null) return "A JSON web token could not be decoded";
        var parts = jwt.Split('.');
        if (parts.Length != 3) return "A JSON web token could not be decoded";
        try
        {
            using var header = JsonDocument.Parse(Base64Url.DecodeFromChars(parts[0]));
            if (header.RootElement.GetProperty("alg").GetString() != "RS256") return "A JSON web token could not be decoded";
            var signed = Encoding.ASCII.GetBytes(parts[0] + "." + parts[1]);
            if (!AppKey.VerifyData(signed, Base64Url.DecodeFromChars(parts[2]), HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1))
                return "A JSON web token could not be decoded";

            using var payload = JsonDocument.Parse(Base64Url.DecodeFromChars(parts[1]));
            var claims = payload.RootElement;
            var issuer = claims.GetProperty("iss");
            var iss = issuer.ValueKind == JsonValueKind.Number ? issuer.GetRawText() : issuer.GetString();
            if (iss != AppId) return "Integration not found";
            var now = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
            var exp = claims.GetProperty("exp").GetInt64();
            var iat = claims.GetProperty("iat").GetInt64();
            if (exp <= now) return "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires";
            if (exp > now + 600 + 5) return "'Expiration time' claim ('exp') is too far in the future";
            if (iat > now + 60) return "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued";
            return null;
        }
        catch (Exception e) when (e is JsonException or FormatException or KeyNotFoundException or InvalidOperationException)
        {
            return "A JSON web token could not be decoded";
        }
    }

    [GeneratedRegex("^/(app(/|$)|repos/[^/]+/[^/]+/installation$)")]
    private static partial Regex AppRoute();
}
