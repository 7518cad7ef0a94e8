using OpenQA.Selenium;
using PerfService.Core.Contracts;
using PerfService.Core.Profiles;
using PerfService.Data.Entities;
using PerfService.Profiling;

namespace Dashboard.BrowserTests;

/// <summary>The differential flame graph of a profiling job, whose frames include hostile names, in a real browser.</summary>
[Collection(SiteCollection.Name)]
public class ProfilePageTests(DashboardSite site)
{
    private const string Benchmark = "Demo.Retry";
    private const string Img = "<img src=x onerror=\"window.__pwned=3\">";
    private const string Script = "<script>window.__pwned=4</script>";

    [Fact]
    public async Task The_differential_flame_graph_colours_growth_red_and_shrinkage_blue_and_shows_hostile_frames_as_text()
    {
        var job = await SeedAsync();
        var b = site.Browser;
        b.Errors();
        b.Open(site.Url($"/profile.html?job={job}&benchmark={Uri.EscapeDataString(Benchmark)}"));
        b.WaitFor("#flame g.frame");

        Assert.Equal("Samples: base 2,000, head 2,000.", b.WaitFor("#profile-samples").Text);
        Assert.Empty(b.Driver.FindElements(By.Id("profile-too-few")));
        var grown = b.WaitFor("#profile-summary ol li").Text;
        Assert.StartsWith("Rivulet.RetryPolicy.Execute +18.0% of samples (10.0% → 28.0%)", grown);

        // Head against base: the grown frame is red (blue and green below red's 220), the shrunk one blue.
        Assert.Matches(@"^rgb\(220,(\d+),\1\)$", Fill("Rivulet.RetryPolicy.Execute"));
        Assert.True(Channel(Fill("Rivulet.RetryPolicy.Execute"), 1) < 200);
        Assert.Matches(@"^rgb\((\d+),\1,220\)$", Fill("Demo.Parse"));

        // A hostile frame name is a label, never markup: no element was made of it and no script ran.
        Assert.True((bool)b.Script("return document.querySelector('#flame').textContent.includes('<img src=x')")!);
        Assert.Equal(0L, b.Script("return document.querySelectorAll('#flame img, #flame script, #profile-summary img').length"));
        Assert.Null(b.Script("return window.__pwned === undefined ? null : window.__pwned"));

        // The boxes grow in with d3's transition: the picture is taken once they are drawn.
        Drawn();
        b.Screenshot("profile-differential");
        b.WaitFor("button[data-view='base']").Click();
        b.WaitUntil(() => b.WaitFor("button[data-view='base']").GetAttribute("aria-pressed") == "true", "the base view");
        b.WaitFor("#flame g.frame");
        var search = b.WaitFor("#flame-search");
        search.SendKeys("Retry");
        b.WaitUntil(() => b.WaitFor("#flame-details").Text.StartsWith("search:", StringComparison.Ordinal), "the search count");
        Drawn();
        b.Screenshot("profile-base-search");
        Assert.Null(b.Script("return window.__pwned === undefined ? null : window.__pwned"));
        var errors = PageErrors();
        Assert.True(errors.Count == 0, string.Join("\n", errors));
    }

    [Fact]
    public async Task Too_few_samples_are_said_and_the_pull_request_page_links_to_the_graph()
    {
        var job = await SeedAsync(samples: 200);
        var b = site.Browser;
        b.Errors();
        b.Open(site.Url($"/profile.html?job={job}&benchmark={Uri.EscapeDataString(Benchmark)}"));
        Assert.Contains("at least 1,000", b.WaitFor("#profile-too-few").Text);

        b.Open(site.Url($"/pr.html?project=flame&pr={job}"));
        var link = b.WaitFor("#profiles a.profile-link");
        Assert.Equal(Benchmark, link.Text);
        link.Click();
        b.WaitFor("#flame g.frame");
        Assert.Contains($"job={job}", b.Driver.Url);
        // The pull request has profiles but was never measured here: the page's request for its report answers 404
        // (the page says "No report yet"), which the browser logs.
        var errors = PageErrors().Where(e => !e.Contains("/report - Failed to load resource", StringComparison.Ordinal)).ToList();
        Assert.True(errors.Count == 0, string.Join("\n", errors));
    }

    private string Fill(string frame) => (string)site.Browser.Script(
        "return [...document.querySelectorAll('#flame g.frame')].find(g => g.getAttribute('name') === arguments[0]).querySelector('rect').getAttribute('fill')", frame)!;

    /// <summary>Waits out d3's transitions: the root spans the whole graph and the grown frame's label is written.</summary>
    private void Drawn() => site.Browser.WaitUntil(() => Math.Abs(Width("all") - Convert.ToDouble(site.Browser.Script(
            "return Number(document.querySelector('#flame svg').getAttribute('width'))"), System.Globalization.CultureInfo.InvariantCulture)) < 1
        && (bool)site.Browser.Script("return [...document.querySelectorAll('#flame .d3-flame-graph-label')].some(l => l.textContent.startsWith('Rivulet'))")!,
        "the flame graph's transitions");

    private double Width(string frame) => Convert.ToDouble(site.Browser.Script(
        "const g = [...document.querySelectorAll('#flame g.frame')].find(g => g.getAttribute('name') === arguments[0]); return Number(g?.querySelector('rect').getAttribute('width') ?? 0)", frame),
        System.Globalization.CultureInfo.InvariantCulture);

    private static int Channel(string rgb, int index) => int.Parse(rgb[4..^1].Split(',')[index].Trim(), System.Globalization.CultureInfo.InvariantCulture);

    // d3-flame-graph also injects its stylesheet inline, which the dashboard's CSP refuses: the page links the same
    // stylesheet as a file, so that refusal is expected and is the only error allowed.
    private List<string> PageErrors() => site.Browser.Errors()
        .Where(e => !(e.Contains("d3-flamegraph.umd.min.js", StringComparison.Ordinal) && e.Contains("inline style", StringComparison.Ordinal))).ToList();

    /// <summary>A pull request (numbered like its job) of project "flame" profiled on base and head: Execute grew from 10% to
    /// 28% of samples, Parse shrank, and two frames carry markup.</summary>
    private Task<long> SeedAsync(int samples = 2000) => site.WithDbAsync(async db =>
    {
        var project = await db.Projects.FirstOrDefaultAsync(p => p.Slug == "flame");
        if (project is null)
        {
            db.Projects.Add(project = new Project { Slug = "flame", Name = "flame", IsPublic = true, DefaultBranch = "main", CreatedAt = DateTimeOffset.UtcNow });
            await db.SaveChangesAsync();
        }
        var profileId = await db.Profiles.Select(p => p.Id).FirstAsync();
        var job = new Job
        {
            ProjectId = project.Id, Kind = JobKind.Profile, Commit = "abcdef0123456789", BaseCommit = "0123456789abcdef", ProfileId = profileId,
            State = JobState.Succeeded, Profiling = new ProfilingRequest([new ProfileTarget("demo", Benchmark)]), CreatedAt = DateTimeOffset.UtcNow,
        };
        db.Jobs.Add(job);
        await db.SaveChangesAsync();
        job.PullRequest = (int)job.Id;
        foreach (var (role, execute) in new[] { (RunRole.Base, 0.10), (RunRole.Head, 0.28) })
        {
            var hot = (int)(samples * execute);
            var hostile = samples / 20;
            var text = $"main;Demo.Run;Rivulet.RetryPolicy.Execute [OptimizedTier1] {hot}\nmain;Demo.Run;{Img} {hostile}\nmain;{Script};Demo.Parse {samples - hot - hostile}\n";
            var folded = FoldedStacks.Parse(new StringReader(text), ProfileLimits.Default);
            db.CpuProfiles.Add(new CpuProfile
            {
                JobId = job.Id, ProjectId = project.Id, ProfileId = profileId, Suite = "demo", Benchmark = Benchmark, Role = role, Round = 1,
                Format = ProfileFormat.Folded, NativeSize = text.Length, NativeGzip = PerfService.Ingestion.Gzip.Compress(System.Text.Encoding.UTF8.GetBytes(text)),
                FoldedGzip = ProfileUpload.FoldedGzip(FrameNormaliser.Normalise(folded)), Samples = folded.TotalSamples, CreatedAt = DateTimeOffset.UtcNow,
            });
        }
        await db.SaveChangesAsync();
        return job.Id;
    });
}
