using System.ComponentModel.DataAnnotations;

namespace PerfService.Dashboard;

/// <summary>The dashboard as the outside sees it (section <c>Dashboard</c>).</summary>
public sealed class DashboardOptions
{
    public const string Section = "Dashboard";

    /// <summary>The dashboard's public address (https://perf.example.com), for links in pull-request comments and
    /// checks; unset, reports carry no links.</summary>
    [Url]
    public string? PublicUrl { get; set; }
}
