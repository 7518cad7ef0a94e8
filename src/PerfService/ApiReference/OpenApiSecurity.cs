using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;
using PerfService.Access;
using PerfService.Auth;

namespace PerfService.ApiReference;

/// <summary>
/// The bearer scheme and, per operation, the scopes it accepts, read from the endpoint's authorization metadata (the
/// policies it requires) through <see cref="Scopes.AcceptedBy"/>: the document says what is enforced, not a copy of it.
/// </summary>
internal static class OpenApiSecurity
{
    public const string BearerScheme = "bearer";

    /// <summary>Policies that are not plain scope policies, with the scopes that may pass them.</summary>
    private static readonly Dictionary<string, string[]> _otherPolicies = new()
    {
        // An admin token bound to no project (ProjectAccess.IsServiceAdmin).
        [ProjectAccess.ServiceAdminPolicy] = [Scopes.Admin],
    };

    public static void DeclareScheme(OpenApiDocument document)
    {
        document.Components ??= new OpenApiComponents();
        document.Components.SecuritySchemes ??= new Dictionary<string, IOpenApiSecurityScheme>();
        document.Components.SecuritySchemes[BearerScheme] = new OpenApiSecurityScheme
        {
            Type = SecuritySchemeType.Http,
            Scheme = "bearer",
            BearerFormat = "perf_…",
            Description =
                "An API token made with `./perf token create NAME --scopes read,ingest,agent,admin [--project SLUG]`. "
                + "Scopes: read (private projects, triage), ingest (post runs), agent (claim and run jobs, post runs), "
                + "admin (everything; creating projects needs an admin token bound to no project).",
        };
    }

    /// <summary>
    /// One requirement per accepted scope (any one of them will do). Endpoints with no policy read public projects
    /// anonymously and private ones with read or admin, hence the empty requirement first; AllowAnonymous endpoints
    /// (the GitHub webhook: its own signature) take no token at all.
    /// </summary>
    public static Task RequireScopes(
        OpenApiOperation operation,
        OpenApiOperationTransformerContext context,
        CancellationToken ct
    )
    {
        var metadata = context.Description.ActionDescriptor.EndpointMetadata;
        if (metadata.OfType<IAllowAnonymous>().Any())
        {
            operation.Security = [];
            return Task.CompletedTask;
        }
        var policies = metadata.OfType<IAuthorizeData>().Select(a => a.Policy).OfType<string>().Distinct().ToList();
        var scopes =
            policies.Count == 0
                ? Scopes.AcceptedBy[Scopes.Read]
                : policies.Select(AcceptedBy).Aggregate((a, b) => a.Intersect(b).ToArray());
        var requirements = scopes.Select(scope => new OpenApiSecurityRequirement
        {
            [new OpenApiSecuritySchemeReference(BearerScheme, context.Document)] = [scope],
        });
        operation.Security =
            policies.Count == 0 ? [new OpenApiSecurityRequirement(), .. requirements] : [.. requirements];
        return Task.CompletedTask;
    }

    private static string[] AcceptedBy(string policy) =>
        Scopes.AcceptedBy.TryGetValue(policy, out var scopes) || _otherPolicies.TryGetValue(policy, out scopes)
            ? scopes
            : throw new InvalidOperationException(
                $"authorization policy '{policy}' has no scopes for the OpenAPI document: add it to Scopes.AcceptedBy or OpenApiSecurity"
            );
}
