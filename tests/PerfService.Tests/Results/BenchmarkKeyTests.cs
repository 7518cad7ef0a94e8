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
}
