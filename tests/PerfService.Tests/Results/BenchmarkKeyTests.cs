using PerfService.Core.Results;

namespace PerfService.Tests.Results;

public class BenchmarkKeyTests
{
    [Fact]
    public void Parameters_and_job_are_part_of_the_key()
    {
        var a = BenchmarkKey.Format("Bench.Run", [new("N", "10")], ".NET 8.0");
        var b = BenchmarkKey.Format("Bench.Run", [new("N", "100")], ".NET 8.0");
        var c = BenchmarkKey.Format("Bench.Run", [new("N", "10")], ".NET 9.0");
        Assert.Equal("Bench.Run(N=10) [.NET 8.0]", a);
        Assert.NotEqual(a, b);
        Assert.NotEqual(a, c);
        Assert.Equal("Bench.Run", BenchmarkKey.Format("Bench.Run", [], null));
    }

    [Theory]
    [InlineData("")]
    [InlineData(null)]
    public void Every_part_is_spelled_in_order_with_its_separators(string? noJob)
    {
        KeyValuePair<string, string>[] parameters = [new("Size", "1024"), new("Mode", "a=b, c"), new("", "")];
        Assert.Equal("G/f(Size=1024, Mode=a=b, c, =) [x]", BenchmarkKey.Format("G/f", parameters, "x"));
        Assert.Equal("G/f(Size=1024, Mode=a=b, c, =)", BenchmarkKey.Format("G/f", parameters, noJob));
        Assert.Equal("G/f [.NET 9.0]", BenchmarkKey.Format("G/f", [], ".NET 9.0"));
        Assert.Equal("G/f", BenchmarkKey.Format("G/f", [], noJob));
        Assert.Equal("(N=1)", BenchmarkKey.Format("", [new("N", "1")], null));
    }
}
