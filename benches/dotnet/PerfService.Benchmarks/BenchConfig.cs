using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Exporters.Json;
using BenchmarkDotNet.Jobs;

namespace PerfService.Benchmarks;

/// <summary>Short but statistically usable runs (this is a 2-core machine), memory diagnoser on, JSON export for PerfService itself.</summary>
public sealed class BenchConfig : ManualConfig
{
    public BenchConfig()
    {
        AddJob(Job.Default.WithWarmupCount(2).WithIterationCount(10).WithLaunchCount(1));
        AddDiagnoser(MemoryDiagnoser.Default);
        AddExporter(JsonExporter.Full);
    }
}
