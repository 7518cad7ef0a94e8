using System.Security.Claims;
using Microsoft.AspNetCore.Authentication;
using Microsoft.Extensions.DependencyInjection.Extensions;

namespace PerfService.Auth;

public static class AuthExtensions
{
    public static WebApplicationBuilder AddPerfAuth(this WebApplicationBuilder builder)
    {
        builder.Services.AddSingleton<TokenUsage>();
        builder
            .Services.AddAuthentication(TokenAuthenticationHandler.SchemeName)
            .AddScheme<AuthenticationSchemeOptions, TokenAuthenticationHandler>(
                TokenAuthenticationHandler.SchemeName,
                null
            );
        builder
            .Services.AddAuthorizationBuilder()
            .AddPolicy(Scopes.Read, p => p.RequireAssertion(c => c.User.HasAnyScope(Scopes.AcceptedBy[Scopes.Read])))
            .AddPolicy(
                Scopes.Ingest,
                p => p.RequireAssertion(c => c.User.HasAnyScope(Scopes.AcceptedBy[Scopes.Ingest]))
            )
            .AddPolicy(Scopes.Agent, p => p.RequireAssertion(c => c.User.HasAnyScope(Scopes.AcceptedBy[Scopes.Agent])))
            .AddPolicy(Scopes.Admin, p => p.RequireAssertion(c => c.User.HasAnyScope(Scopes.AcceptedBy[Scopes.Admin])))
            .AddPolicy(
                Access.ProjectAccess.ServiceAdminPolicy,
                p => p.RequireAssertion(c => Access.ProjectAccess.IsServiceAdmin(c.User))
            );
        return builder;
    }

    public static bool HasAnyScope(this ClaimsPrincipal user, params string[] scopes) =>
        user.Claims.Any(c => c.Type == Scopes.ClaimType && scopes.Contains(c.Value));

    public static string Actor(this ClaimsPrincipal user) => user.Identity?.Name ?? "anonymous";
}
