using BenchmarkDotNet.Running;

namespace PerfService.Benchmarks;

/// <summary>./perf bench [BenchmarkDotNet args], e.g. ./perf bench --filter '*Parse*'.</summary>
public static class BenchmarksMain
{
    public static void Main(string[] args) => BenchmarkSwitcher.FromAssembly(typeof(BenchmarksMain).Assembly).Run(args);
}
