using System.Diagnostics;
using Microsoft.EntityFrameworkCore;
using PerfService.Data;
using PerfService.Data.Entities;

namespace PerfService.AgentJobs;

/// <summary>
/// The recurring baseline: for every project with a repository, finds the head of its default branch
/// (<c>git ls-remote</c>) and queues a baseline run on every profile unless that commit already has one.
/// Keeps main's history dense even on days without pushes, so change points have points on both sides.
/// </summary>
public sealed class ScheduledBaselineJob(PerfDbContext db, JobScheduler scheduler, ILogger<ScheduledBaselineJob> logger)
{
    public async Task RunAsync(CancellationToken ct)
    {
        foreach (var project in await db.Projects.AsNoTracking().Where(p => p.RepositoryUrl != null).ToListAsync(ct))
        {
            var head = await HeadAsync(project.RepositoryUrl!, project.DefaultBranch, ct);
            if (head is null)
            {
                logger.LogWarning(
                    "Scheduled baseline of {Project}: cannot read {Branch} of {Url}",
                    project.Slug,
                    project.DefaultBranch,
                    Projects.RepositoryUrl.Redact(project.RepositoryUrl)
                );
                continue;
            }
            if (
                await db.Jobs.AnyAsync(
                    j =>
                        j.ProjectId == project.Id
                        && j.Commit == head
                        && j.PullRequest == null
                        && j.Kind != JobKind.Profile
                        && j.State != JobState.Cancelled,
                    ct
                )
            )
                continue;
            var jobs = await scheduler.EnqueueAsync(
                new JobRequest(project.Slug, head, Branch: project.DefaultBranch, Kind: JobKind.Baseline),
                ct
            );
            logger.LogInformation(
                "Scheduled baseline of {Project} at {Commit}: {Count} jobs",
                project.Slug,
                head,
                jobs.Count
            );
        }
    }

    /// <summary>A remote that never answers (a network that drops packets) must not hold a background worker for
    /// good.</summary>
    private static readonly TimeSpan _lsRemoteTimeout = TimeSpan.FromSeconds(60);

    internal static async Task<string?> HeadAsync(string url, string branch, CancellationToken ct)
    {
        var info = new ProcessStartInfo("git") { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var a in new[] { "ls-remote", "--", url, $"refs/heads/{branch}" })
            info.ArgumentList.Add(a);
        info.Environment["GIT_TERMINAL_PROMPT"] = "0";
        info.Environment["GIT_SSH_COMMAND"] = "ssh -o BatchMode=yes"; // never wait for a password either
        Process git;
        try
        {
            git = Process.Start(info)!;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return null; // git is not installed on this host
        }
        using (git)
        using (var timeout = CancellationTokenSource.CreateLinkedTokenSource(ct))
        {
            timeout.CancelAfter(_lsRemoteTimeout);
            try
            {
                var errors = git.StandardError.ReadToEndAsync(timeout.Token); // drained, so a chatty remote cannot block it
                var output = await git.StandardOutput.ReadToEndAsync(timeout.Token);
                await git.WaitForExitAsync(timeout.Token);
                await errors;
                var sha = output.Split('\t', 2)[0].Trim();
                return git.ExitCode == 0 && sha.Length >= 40 ? sha : null;
            }
            catch (OperationCanceledException) when (!ct.IsCancellationRequested)
            {
                git.Kill(entireProcessTree: true);
                return null;
            }
        }
    }
}
