using System.Text.RegularExpressions;

namespace PerfService.Core.Contracts;

/// <summary>
/// What the service accepts as a commit id where one enters it (runs, job requests, webhooks). Only hexadecimal
/// digits: never an option ("--upload-pack=…"), a ref name or a revision expression that git would resolve to something
/// else on an agent. Full ids are 40 (SHA-1) or 64 (SHA-256) digits; people and CLIs may give an abbreviation of at
/// least 4, as git itself accepts. GitHub always sends full ids, so webhooks require them.
/// </summary>
public static partial class CommitId
{
    public const string Rule = "must be a git commit id: 4 to 64 hexadecimal characters";
    public const string FullRule = "must be a full git commit id: 40 or 64 hexadecimal characters";

    public static bool IsValid(string? value) => value is not null && Abbreviated().IsMatch(value);

    public static bool IsFull(string? value) => value is not null && Full().IsMatch(value);

    /// <summary>The first 10 digits, as a commit is shown in logs, reasons, alerts and comments.</summary>
    public static string Short(string sha) => sha.Length > 10 ? sha[..10] : sha;

    [GeneratedRegex(@"^[0-9a-fA-F]{4,64}\z")]
    private static partial Regex Abbreviated();

    [GeneratedRegex(@"^[0-9a-fA-F]{40}([0-9a-fA-F]{24})?\z")]
    private static partial Regex Full();
}
