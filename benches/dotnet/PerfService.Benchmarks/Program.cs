using BenchmarkDotNet.Running;

// ./perf bench [BenchmarkDotNet args], e.g. ./perf bench --filter '*Parse*'
BenchmarkSwitcher.FromAssembly(typeof(PerfService.Benchmarks.ParsingBenchmarks).Assembly).Run(args);
