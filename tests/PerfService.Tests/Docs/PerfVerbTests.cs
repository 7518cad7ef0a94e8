namespace PerfService.Tests.Docs;

/// <summary>Every `./perf` verb and flag the documents name exists in what the real `./perf help` prints.</summary>
public class PerfVerbTests
{
    [Theory]
    [MemberData(nameof(Documents.Instructions), MemberType = typeof(Documents))]
    public void Every_perf_verb_and_flag_named_is_in_perf_help(string name)
    {
        var problems = PerfHelp.Mentions(Documents.Text(name))
            .SelectMany(m => PerfHelp.Check(m.Verb, m.Flags, PerfHelp.Entries).Select(p => $"  {p}  (in: {m.Mention})"))
            .ToList();
        Assert.True(problems.Count == 0, $"{name} names what ./perf help does not:\n" + string.Join('\n', problems));
    }

    [Fact]
    public void The_documents_name_the_main_verbs()
    {
        // The mentions are found at all: a pattern that matched nothing would make the theory above vacuous.
        var verbs = Documents.All().SelectMany(n => PerfHelp.Mentions(Documents.Text(n))).Select(m => m.Verb).ToHashSet();
        Assert.Superset(new HashSet<string> { "demo", "test", "help", "parse", "submit", "agent", "token", "serve", "migrate", "db" }, verbs);
        Assert.Contains("./perf demo", Documents.Text("README.md"), StringComparison.Ordinal);
        Assert.Contains("./perf test", Documents.Text("README.md"), StringComparison.Ordinal);
    }

    [Fact]
    public void A_misnamed_verb_or_flag_is_reported()
    {
        var text = "Run `./perf sever` or `./perf agent --server URL --sandbx` then `./perf parse x --format json` # not --checked";
        var problems = PerfHelp.Mentions(text).SelectMany(m => PerfHelp.Check(m.Verb, m.Flags, PerfHelp.Entries)).ToList();
        Assert.Equal(2, problems.Count);
        Assert.Contains(problems, p => p.Contains("'./perf sever'", StringComparison.Ordinal));
        Assert.Contains(problems, p => p.Contains("--sandbx", StringComparison.Ordinal));
    }
}
