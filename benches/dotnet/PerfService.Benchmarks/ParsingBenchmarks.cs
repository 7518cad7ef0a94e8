using BenchmarkDotNet.Attributes;
using PerfService.Core.Parsing;

namespace PerfService.Benchmarks;

/// <summary>Parsing a BenchmarkDotNet export of 1,000 benchmarks (target: under 50 ms, allocations under 5x the file).</summary>
[Config(typeof(BenchConfig))]
public class ParsingBenchmarks
{
    private Artifact[] _export = [];

    [GlobalSetup]
    public void Setup()
    {
        var bytes = SyntheticExport.Build(1000);
        _export = [new Artifact("big-report-full.json", bytes)];
        Console.WriteLine($"// export size: {bytes.Length:N0} bytes");
    }

    [Benchmark]
    public int ParseBdnExportOf1000Benchmarks() => ResultParsers.Parse(_export, "bdn").Results.Count;
}
