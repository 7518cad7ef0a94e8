using Microsoft.EntityFrameworkCore;
using Octokit;
using PerfService.AgentJobs;
using PerfService.Data;
using PerfService.Data.Entities;
using PerfService.PullRequests;
using Project = PerfService.Data.Entities.Project;

namespace PerfService.GitHub;

/// <summary>
/// The buttons of PerfService's check run ("Re-run", "Acknowledge") and <c>/perf</c> commands in pull request comments.
/// Only GitHub users with write access to the repository may use them (asked of GitHub, cached); anyone else changes
/// nothing. Every command is answered with a reaction on its comment and, where useful, a note in the service's one
/// comment, never with a new comment.
/// </summary>
public sealed class GitHubInteractions(
    PerfDbContext db,
    PullRequestActions actions,
    PullRequestApprovals approvals,
    GitHubPermissions permissions,
    Profiling.ProfilingJobs profiling,
    GitHubClientProvider clients,
    GitHubRetry retry,
    Hangfire.IBackgroundJobClient background,
    TimeProvider time,
    ILogger<GitHubInteractions> logger
)
{
    public const string HelpText = """
        **PerfService commands** (for people with write access):
        - `/perf run`: approve this pull request's current head commit to run on the benchmark agents (outside contributors)
        - `/perf rerun [profile]`: benchmark the current head again, on every profile or one
        - `/perf profile <benchmark glob> [profile]`: profile the matching benchmarks on base and head, e.g. `/perf profile Parser.*`
        - `/perf ack <benchmark glob> [reason]`: acknowledge the matching regressions, e.g. `/perf ack Parser.* expected, new validation`
        - `/perf help`: this list
        """;

    private const int MaxNotes = 8000;

    public async Task<WebhookReply> CheckRunAsync(CheckRunEvent e, CancellationToken ct)
    {
        if (e.Action is not ("rerequested" or "requested_action"))
            return new WebhookReply($"check_run action '{e.Action}' ignored");
        var target = await CheckTargetAsync(e.Repository.FullName, e.CheckRun, ct);
        if (target is null)
            return new WebhookReply("not a current PerfService check run; ignored");
        var (project, pr) = target.Value;
        if (e.Action == "rerequested")
            return await RerunFromCheckAsync(project, pr, e.Sender.Login, ct);
        if (e.RequestedAction?.Identifier != CheckRuns.AcknowledgeAction)
            return new WebhookReply($"requested action '{e.RequestedAction?.Identifier}' ignored");
        if (!await AllowedAsync(e.Repository.FullName, e.Sender.Login, ct))
            return new WebhookReply($"{e.Sender.Login} lacks write access; nothing acknowledged");
        var count = await actions.AcknowledgeAsync(
            project.Id,
            pr,
            Actor(e.Sender.Login),
            null,
            "acknowledged from the GitHub check",
            ct
        );
        return new WebhookReply($"{project.Slug}#{pr}: {count} regressions acknowledged by {e.Sender.Login}");
    }

    public async Task<WebhookReply> CheckSuiteAsync(CheckSuiteEvent e, CancellationToken ct)
    {
        if (e.Action != "rerequested")
            return new WebhookReply($"check_suite action '{e.Action}' ignored");
        var sha = e.CheckSuite.HeadSha.ToLowerInvariant();
        var projects = await ProjectsForAsync(e.Repository.FullName, ct);
        var ids = projects.Select(p => p.Id).ToList();
        // Only pull requests whose current head is the suite's commit: an old commit's suite re-runs nothing.
        var heads = await db
            .PullRequestHeads.AsNoTracking()
            .Where(h => ids.Contains(h.ProjectId) && h.HeadCommit == sha)
            .ToListAsync(ct);
        if (heads.Count == 0)
            return new WebhookReply("no pull request has this head; ignored");
        var replies = new List<WebhookReply>();
        foreach (var head in heads)
            replies.Add(
                await RerunFromCheckAsync(
                    projects.First(p => p.Id == head.ProjectId),
                    head.PullRequest,
                    e.Sender.Login,
                    ct
                )
            );
        return new WebhookReply(string.Join("; ", replies.Select(r => r.Message)), replies.Sum(r => r.Jobs));
    }

    public async Task<WebhookReply> IssueCommentAsync(IssueCommentEvent e, CancellationToken ct)
    {
        if (e.Action != "created" || e.Issue.PullRequest is null)
            return new WebhookReply("not a new pull request comment; ignored");
        if (PerfCommand.Parse(e.Comment.Body) is not { } command)
            return new WebhookReply("not a /perf command; ignored");
        var projects = await ProjectsForAsync(e.Repository.FullName, ct);
        if (projects.Count == 0 || GitHubRepo.Parse(e.Repository.FullName) is not { } repo)
            return new WebhookReply($"repository '{e.Repository.FullName}' is not connected to a PerfService project");
        var login = e.Comment.User.Login;
        if (!await AllowedAsync(e.Repository.FullName, login, ct))
        {
            await ReactAsync(repo, e.Comment.Id, ReactionType.Confused, ct);
            return new WebhookReply($"{login} lacks write access; /perf {command.Verb} refused");
        }

        var pr = e.Issue.Number;
        var reaction = ReactionType.Plus1;
        var notes = new List<string>();
        foreach (var project in projects)
        {
            switch (command.Verb)
            {
                case "help":
                    await AddNoteAsync(project.Id, pr, HelpText, replaceSame: true, ct);
                    reaction = ReactionType.Eyes;
                    notes.Add($"{project.Slug}: help shown");
                    break;
                case "run":
                    var head = await actions.HeadAsync(project.Id, pr, ct);
                    if (head is null || project.PullRequestPolicy == PullRequestPolicy.None)
                    {
                        reaction = ReactionType.Confused;
                        notes.Add($"{project.Slug}: nothing to approve");
                        break;
                    }
                    // The approval publishes what it released (once); nothing released changes nothing.
                    var released = await approvals.ApproveAsync(
                        project.Id,
                        pr,
                        head.HeadCommit,
                        Actor(login),
                        "comment",
                        ct
                    );
                    reaction = ReactionType.Rocket;
                    notes.Add($"{project.Slug}: approved {head.HeadCommit[..10]}, queued {released} jobs");
                    break;
                case "rerun":
                    try
                    {
                        var jobs = await actions.RerunAsync(project, pr, command.Argument is { } p ? [p] : null, ct);
                        if (jobs is null)
                        {
                            reaction = ReactionType.Confused;
                            notes.Add($"{project.Slug}: nothing to re-run");
                            break;
                        }
                        reaction = ReactionType.Rocket;
                        notes.Add($"{project.Slug}: re-queued {jobs.Count} jobs");
                    }
                    catch (JobRequestException x)
                    {
                        reaction = ReactionType.Confused;
                        notes.Add($"{project.Slug}: {x.Message}");
                    }
                    break;
                case "profile" when command.Argument is { } pattern:
                    var (profiled, refusal) = await profiling.RequestAsync(
                        project,
                        pr,
                        pattern,
                        command.Rest?.Split(' ')[0],
                        ct
                    );
                    if (refusal is not null)
                    {
                        reaction = ReactionType.Confused;
                        notes.Add($"{project.Slug}: {refusal}");
                        break;
                    }
                    reaction = ReactionType.Rocket;
                    notes.Add(
                        $"{project.Slug}: {profiled.Count} profiling jobs queued"
                            + (
                                profiled.Any(j => j.State == JobState.AwaitingApproval)
                                    ? ", awaiting a maintainer's approval"
                                    : ""
                            )
                    );
                    break;
                case "ack" when command.Argument is { } glob:
                    // Published once, by the note, with the acknowledgement in it.
                    var count = await actions.AcknowledgeAsync(
                        project.Id,
                        pr,
                        Actor(login),
                        glob,
                        command.Rest,
                        ct,
                        publish: false
                    );
                    if (count == 0)
                    {
                        reaction = ReactionType.Confused;
                        notes.Add($"{project.Slug}: no active regression matches {glob}");
                        break;
                    }
                    var why = command.Rest is { } r ? $": {MarkdownLine(r)}" : "";
                    await AddNoteAsync(
                        project.Id,
                        pr,
                        $"✅ {Plural(count)} matching {Core.Reports.MarkdownText.Code(glob)} acknowledged by @{login}{why}",
                        replaceSame: false,
                        ct
                    );
                    notes.Add($"{project.Slug}: acknowledged {count}");
                    break;
                default:
                    reaction = ReactionType.Confused;
                    notes.Add($"{project.Slug}: unknown command; /perf help lists them");
                    break;
            }
        }
        await ReactAsync(repo, e.Comment.Id, reaction, ct);
        logger.LogInformation(
            "/perf {Verb} by {Login} on {Repository}#{Number}: {Notes}",
            command.Verb,
            login,
            repo,
            pr,
            string.Join("; ", notes)
        );
        return new WebhookReply($"/perf {command.Verb}: {string.Join("; ", notes)}");
    }

    private async Task<WebhookReply> RerunFromCheckAsync(Project project, int pr, string login, CancellationToken ct)
    {
        // GitHub shows "Re-run" only to people with write access; asking again costs one cached call.
        if (!await AllowedAsync(project.GitHubRepository!, login, ct))
            return new WebhookReply($"{login} lacks write access; nothing re-run");
        var jobs = await actions.RerunAsync(project, pr, null, ct);
        if (jobs is null)
            return new WebhookReply($"{project.Slug}#{pr}: nothing to re-run");
        var waiting = jobs.Count(j => j.State == JobState.AwaitingApproval);
        return new WebhookReply(
            waiting > 0
                ? $"{project.Slug}#{pr}: {waiting} jobs await a maintainer's approval"
                : $"{project.Slug}#{pr}: re-queued {jobs.Count} jobs",
            jobs.Count - waiting
        );
    }

    /// <summary>The project and pull request of one of our check runs, while its head is the pull request's current
    /// head.</summary>
    private async Task<(Project, int)?> CheckTargetAsync(string repository, CheckRunPayload run, CancellationToken ct)
    {
        var projects = await ProjectsForAsync(repository, ct);
        var ids = projects.Select(p => p.Id).ToList();
        var row = await db
            .PullRequestComments.AsNoTracking()
            .FirstOrDefaultAsync(c => ids.Contains(c.ProjectId) && c.CheckRunId == run.Id, ct);
        if (row is null)
            return null;
        var head = await actions.HeadAsync(row.ProjectId, row.PullRequest, ct);
        if (head is null || !string.Equals(head.HeadCommit, run.HeadSha, StringComparison.OrdinalIgnoreCase))
            return null;
        return (projects.First(p => p.Id == row.ProjectId), row.PullRequest);
    }

    private async Task<bool> AllowedAsync(string repository, string login, CancellationToken ct) =>
        clients.IsConfigured
        && GitHubRepo.Parse(repository) is { } repo
        && await permissions.CanWriteAsync(repo, login, ct);

    /// <summary>Adds a line to the notes kept below the report and re-publishes; a note already there is not
    /// repeated.</summary>
    private async Task AddNoteAsync(long projectId, int pr, string note, bool replaceSame, CancellationToken ct)
    {
        var row = await db.PullRequestComments.FirstOrDefaultAsync(
            c => c.ProjectId == projectId && c.PullRequest == pr,
            ct
        );
        if (row is null)
            db.PullRequestComments.Add(
                row = new PullRequestComment
                {
                    ProjectId = projectId,
                    PullRequest = pr,
                    UpdatedAt = time.GetUtcNow(),
                }
            );
        if (replaceSame && row.Notes?.Contains(note, StringComparison.Ordinal) == true)
            return;
        var notes = string.IsNullOrEmpty(row.Notes) ? note : row.Notes + "\n\n" + note;
        // The oldest notes go first when they grow too long.
        row.Notes = notes.Length <= MaxNotes ? notes : notes[^MaxNotes..];
        await db.SaveChangesAsync(ct);
        PullRequestPublishJob.Enqueue(background, projectId, pr);
    }

    private async Task ReactAsync(GitHubRepo repo, long commentId, ReactionType reaction, CancellationToken ct)
    {
        if (!clients.IsConfigured)
            return;
        var github = await retry.RunAsync(
            "authentication",
            () => clients.ForRepositoryAsync(repo.Owner, repo.Name, ct),
            ct
        );
        await retry.RunAsync(
            "reaction",
            () => github.Reaction.IssueComment.Create(repo.Owner, repo.Name, commentId, new NewReaction(reaction)),
            ct
        );
    }

    private Task<List<Project>> ProjectsForAsync(string fullName, CancellationToken ct)
    {
        var name = fullName.ToLowerInvariant();
        return db
            .Projects.AsNoTracking()
            .Where(p => p.GitHubRepository != null && p.GitHubRepository.ToLower() == name)
            .OrderBy(p => p.Id)
            .ToListAsync(ct);
    }

    private static string Actor(string login) => $"github:{login}";

    private static string Plural(int n) => n == 1 ? "1 regression" : $"{n} regressions";

    // A reason is the commenter's text: one line, no markup that could break out of the note or mention people.
    private static string MarkdownLine(string text) =>
        Core.Reports.MarkdownText.Escape(text.ReplaceLineEndings(" ").Trim(), 200);
}

/// <summary>A <c>/perf</c> command: the verb, its first argument and the text after it.</summary>
public sealed record PerfCommand(string Verb, string? Argument, string? Rest)
{
    public static PerfCommand? Parse(string body)
    {
        var line = body.TrimStart().Split('\n', 2)[0].Trim();
        var words = line.Split((char[]?)null, 4, StringSplitOptions.RemoveEmptyEntries);
        if (words.Length < 2 || words[0] != "/perf")
            return words is ["/perf"] ? new PerfCommand("help", null, null) : null;
        return new PerfCommand(
            words[1].ToLowerInvariant(),
            words.Length > 2 ? words[2] : null,
            words.Length > 3 ? words[3].Trim() : null
        );
    }
}
