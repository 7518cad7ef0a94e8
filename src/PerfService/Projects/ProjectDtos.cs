namespace PerfService.Projects;

public sealed record CreateProjectRequest(string Slug, string Name, string? RepositoryUrl, string? DefaultBranch, bool? IsPublic, string? GitHubRepository);

public sealed record ProjectDto(long Id, string Slug, string Name, string? RepositoryUrl, string DefaultBranch, bool IsPublic, string? GitHubRepository);

public sealed record ProfileDto(long Id, string Name, string? CpuModel, int? PhysicalCores, int? LogicalCores, string? Arch);
