using PerfBenches.Shared;

// dotnet run -c Release -- --filter '*'            full run (BenchmarkDotNet's default job, out of process)
// dotnet run -c Release -- --filter '*' --quick    short in-process job and shortened [Params] series
return BenchRunner.Run(typeof(Program).Assembly, args);
