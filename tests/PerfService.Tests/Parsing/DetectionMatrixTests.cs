using PerfService.Core.Parsing;
using static PerfService.Tests.Parsing.ParsingFixtures;

namespace PerfService.Tests.Parsing;

/// <summary>
/// The detection matrix, part one: every fixture in tests/fixtures is detected as exactly its own format, uploaded
/// alone and uploaded inside a directory beside one fixture of every other format. Every file is checked, so a
/// format that takes another's file (the counter table taking criterion's raw.csv) fails here. A new fixture, or a
/// new format with a fixture folder, joins by itself.
/// </summary>
public class DetectionMatrixTests
{
    public static TheoryData<string> Units() => [.. AllUnits()];

    [Theory]
    [MemberData(nameof(Units))]
    public void A_fixture_alone_is_detected_as_its_own_format(string unit)
    {
        var files = Load(unit);
        var expected = ExpectedFormat(unit);
        if (expected.Length == 0)
        {
            Assert.Throws<ParseException>(() => ResultParsers.Detect(files));
            return;
        }
        var groups = ResultParsers.Group(files);
        Assert.Equal(Sorted(expected), Sorted(string.Join("+", groups.Keys)));
        foreach (var (format, members) in groups)
            Assert.All(members, f => Assert.Contains(format, expected.Split('+')));
    }

    [Theory]
    [MemberData(nameof(Units))]
    public void A_fixture_beside_every_other_format_keeps_its_format_and_theirs(string unit)
    {
        var expected = ExpectedFormat(unit);
        if (expected.Length == 0 || expected.Contains('+')) return; // not one format: nothing of its own to keep
        var mine = Load(unit).Select(f => f with { Path = $"mine/{f.Path}" }).ToList();
        var neighbours = Neighbours(expected);
        var files = neighbours.SelectMany(n => n.Files).Concat(mine).ToList();

        var formatOf = ResultParsers.Group(files).SelectMany(g => g.Value.Select(f => (f.Path, Format: g.Key))).ToDictionary(x => x.Path, x => x.Format);

        Assert.All(mine, f => Assert.Equal((f.Path, expected), (f.Path, formatOf[f.Path])));
        foreach (var (format, neighbourFiles) in neighbours)
            Assert.All(neighbourFiles, f => Assert.Equal((f.Path, format), (f.Path, formatOf[f.Path])));
    }

    /// <summary>One fixture of every format but <paramref name="except"/> (the first of its folder), each in a folder of
    /// its own, as a user's results directory would hold them.</summary>
    internal static List<(string Format, List<Artifact> Files)> Neighbours(string except) =>
        AllUnits()
            .Select(u => (Unit: u, Format: ExpectedFormat(u)))
            .Where(u => u.Format.Length > 0 && !u.Format.Contains('+') && u.Format != except)
            .GroupBy(u => u.Format)
            .Select(g => (g.Key, Load(g.First().Unit).Select(f => f with { Path = $"{g.Key}-output/{f.Path}" }).ToList()))
            .ToList();

    private static string Sorted(string formats) => string.Join("+", formats.Split('+').Order(StringComparer.Ordinal));
}
