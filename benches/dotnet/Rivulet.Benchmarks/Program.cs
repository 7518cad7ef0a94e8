using PerfBenches.Shared;

// dotnet run -c Release -f net10.0 -- --filter '*'            full run (BenchmarkDotNet's default job, out of process)
// dotnet run -c Release -f net10.0 -- --filter '*' --quick    short in-process job and shortened [Params] series
// Then the same on .NET 9 and .NET 8 from the private .NET root (benches/install-toolchains.sh), each its own series.
return BenchRunner.Run(typeof(Program).Assembly, args, "net9.0", "net8.0");
