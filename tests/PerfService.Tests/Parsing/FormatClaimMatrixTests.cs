using PerfService.Core.Parsing;
using PerfService.Core.Parsing.Common;
using static PerfService.Tests.Parsing.ParsingFixtures;

namespace PerfService.Tests.Parsing;

/// <summary>
/// The detection matrix, part two: every format is asked, on its own, whether it claims each file of every fixture
/// (as part of a structure of the whole fixture, or as a single file). Each file must be claimed by exactly one format,
/// its fixture's, so detection never depends on which format happens to be asked first. A new format registered in
/// <see cref="ResultParsers"/> is asked by itself.
/// </summary>
public class FormatClaimMatrixTests
{
    [Fact]
    public void Every_file_of_every_fixture_is_claimed_by_its_own_format_and_no_other()
    {
        var wrong = new List<string>();
        foreach (var unit in AllUnits())
        {
            var expected = ExpectedFormat(unit).Split('+', StringSplitOptions.RemoveEmptyEntries);
            var views = Load(unit).Select(f => new FileView(f)).ToList();
            try
            {
                var claimers = views.ToDictionary(v => v, _ => new List<string>());
                foreach (var shape in ResultParsers.Shapes)
                {
                    var structure = shape.ClaimStructure(views).ToHashSet();
                    foreach (var view in views.Where(v => structure.Contains(v) || shape.Claims(v))) claimers[view].Add(shape.Format);
                }
                foreach (var (view, formats) in claimers)
                {
                    var ok = expected.Length == 0 ? formats.Count == 0 : formats.Count == 1 && expected.Contains(formats[0]);
                    if (!ok) wrong.Add($"{unit}: {view.Path} is claimed by [{string.Join(", ", formats)}], expected one of [{string.Join(", ", expected)}]");
                }
                foreach (var format in expected.Where(f => !claimers.Values.Any(c => c.Contains(f))))
                    wrong.Add($"{unit}: no file claimed by {format}");
            }
            finally
            {
                foreach (var view in views) view.Dispose();
            }
        }
        Assert.True(wrong.Count == 0, string.Join("\n", wrong));
    }

    [Fact]
    public void Every_registered_format_has_a_shape_and_a_fixture()
    {
        Assert.Equal(ResultParsers.Formats.Skip(1), ResultParsers.Shapes.Select(s => s.Format));
        var covered = AllUnits().SelectMany(u => ExpectedFormat(u).Split('+')).ToHashSet();
        Assert.All(ResultParsers.Shapes, s => Assert.True(covered.Contains(s.Format),
            $"{s.Format} has no fixture folder in tests/fixtures, so the detection matrix cannot check it"));
    }
}
