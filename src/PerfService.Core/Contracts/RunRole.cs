namespace PerfService.Core.Contracts;

/// <summary>
/// Which side of a comparison a run measured: the commit itself (<see cref="Head"/>, every run outside pull requests
/// too), or the base commit in the interleaved base rounds of a pull-request job (<see cref="Base"/>), which stays out
/// of
/// every branch's history.
/// </summary>
public enum RunRole
{
    Head,
    Base,
}

/// <summary>The one spelling of a role outside .NET: "head" or "base", in the upload contract, the database and the
/// API.</summary>
public static class RunRoles
{
    public static string Name(this RunRole role) => role == RunRole.Base ? "base" : "head";

    /// <summary>A role as uploaded: absent means head; anything but "head" or "base" is refused.</summary>
    public static bool TryParse(string? name, out RunRole role)
    {
        role = name == "base" ? RunRole.Base : RunRole.Head;
        return name is null or "head" or "base";
    }

    public static RunRole Parse(string? name) =>
        TryParse(name, out var role)
            ? role
            : throw new FormatException($"'{name}' is not a run role: 'head' or 'base'");
}
