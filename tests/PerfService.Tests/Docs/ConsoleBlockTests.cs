namespace PerfService.Tests.Docs;

/// <summary>
/// Every ```console block of the documents is run as written: each `$ ` line is a command run with bash at the
/// repository root, which must succeed, and every other non-empty line (but `...`) must appear, in order, as a line
/// of what the commands print. Blocks that need a running service are ```sh, not ```console.
/// </summary>
public class ConsoleBlockTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromMinutes(10); // the first ./perf parse builds the CLI

    public static TheoryData<string, int> Blocks()
    {
        var data = new TheoryData<string, int>();
        foreach (var name in Documents.All())
            foreach (var (_, line) in Documents.Fences(Documents.Parse(Documents.Text(name)), "console"))
                data.Add(name, line);
        return data;
    }

    [Theory]
    [MemberData(nameof(Blocks))]
    public async Task Every_console_block_runs_and_prints_what_it_shows(string name, int line)
    {
        var block = Documents.Fences(Documents.Parse(Documents.Text(name)), "console").Single(b => b.Line == line).Lines;
        var (commands, shown) = Split(block);
        Assert.True(commands.Count > 0, $"{name}:{line}: a console block without a '$ ' command");
        var printed = new List<string>();
        foreach (var command in commands)
        {
            await using var process = ChildProcess.Start("bash", ["-euo", "pipefail", "-c", command], Documents.Root);
            Assert.True(await process.WaitForExitAsync(Timeout), $"{name}:{line}: '{command}' ran longer than {Timeout}");
            Assert.True(process.ExitCode == 0, $"{name}:{line}: '{command}' exited {process.ExitCode}:\n{process.Output}");
            printed.AddRange(process.Lines.Select(l => l.TrimEnd()));
        }
        var missing = Missing(shown, printed);
        Assert.True(missing is null, $"{name}:{line}: the block shows '{missing}', which the commands did not print (in that order):\n"
            + string.Join('\n', printed.Take(60)));
    }

    [Fact]
    public void Shown_output_must_be_printed_in_order()
    {
        var (commands, shown) = Split(["$ ./perf help", "usage: x", "...", "  b", ""]);
        Assert.Equal(["./perf help"], commands);
        Assert.Null(Missing(shown, ["usage: x", "  a", "  b"]));
        Assert.Equal("  b", Missing(shown, ["  b", "usage: x"]));
        Assert.Equal("usage: x", Missing(shown, ["usage: y", "  b"]));
    }

    internal static (List<string> Commands, List<string> Shown) Split(IReadOnlyList<string> block) =>
        (block.Where(l => l.StartsWith("$ ", StringComparison.Ordinal)).Select(l => l[2..].Trim()).ToList(),
         block.Where(l => !l.StartsWith("$ ", StringComparison.Ordinal) && l.Trim() is { Length: > 0 } t && t != "...").Select(l => l.TrimEnd()).ToList());

    /// <summary>The first shown line not found in the printed lines after the previous one's match, or null.</summary>
    internal static string? Missing(IReadOnlyList<string> shown, IReadOnlyList<string> printed)
    {
        var at = 0;
        foreach (var line in shown)
        {
            while (at < printed.Count && printed[at] != line) at++;
            if (at == printed.Count) return line;
            at++;
        }
        return null;
    }
}
