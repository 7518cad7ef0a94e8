namespace PerfService.EndToEndTests;

/// <summary>A local git repository with one small suite per harness and a perf.json declaring them.</summary>
public static class SuiteRepository
{
    public static string Create(string dir)
    {
        Directory.CreateDirectory(dir);
        Write(dir, "perf.json", """
            { "suites": [
              { "name": "go-small", "harness": "gobench", "folder": "go", "quickArgs": ["-benchtime=20ms"], "count": 3, "timeoutSeconds": 600 },
              { "name": "rust-small", "harness": "criterion", "folder": "rust", "timeoutSeconds": 1200,
                "quickArgs": ["--", "--warm-up-time", "1", "--measurement-time", "1", "--noplot"] },
              { "name": "dotnet-small", "harness": "bdn", "folder": "dotnet", "timeoutSeconds": 1200,
                "quickArgs": ["--inProcess", "--warmupCount", "1", "--iterationCount", "3", "--invocationCount", "16", "--unrollFactor", "1"] }
            ] }
            """);
        Write(dir, "go/go.mod", "module small\n\ngo 1.19\n");
        Write(dir, "go/small_test.go", """
            package small

            import "testing"

            func BenchmarkSum(b *testing.B) {
            	for i := 0; i < b.N; i++ {
            		s := 0
            		for j := 0; j < 100; j++ {
            			s += j
            		}
            		_ = s
            	}
            }
            """);
        Write(dir, "rust/Cargo.toml", """
            [package]
            name = "small"
            version = "0.1.0"
            edition = "2021"

            # The lib has no benches; without this, criterion's flags after `--` would reach libtest and be refused.
            [lib]
            bench = false

            [dev-dependencies]
            criterion = "0.3"

            [[bench]]
            name = "small"
            harness = false
            """);
        Write(dir, "rust/src/lib.rs", "pub fn sum(n: u64) -> u64 { (0..n).sum() }\n");
        Write(dir, "rust/benches/small.rs", """
            use criterion::{black_box, criterion_group, criterion_main, Criterion};

            fn bench(c: &mut Criterion) {
                c.bench_function("sum_100", |b| b.iter(|| small::sum(black_box(100))));
            }

            criterion_group!(benches, bench);
            criterion_main!(benches);
            """);
        File.Copy(Path.Combine(Repo(), "benches", "rust", ".cargo", "config.toml"), Path.Combine(Directory.CreateDirectory(Path.Combine(dir, "rust", ".cargo")).FullName, "config.toml"));
        Write(dir, "dotnet/Small.csproj", """
            <Project Sdk="Microsoft.NET.Sdk">
              <PropertyGroup><OutputType>Exe</OutputType><TargetFramework>net10.0</TargetFramework><Optimize>true</Optimize></PropertyGroup>
              <ItemGroup><PackageReference Include="BenchmarkDotNet" Version="0.15.8" /></ItemGroup>
            </Project>
            """);
        Write(dir, "dotnet/Program.cs", """
            using BenchmarkDotNet.Attributes;
            using BenchmarkDotNet.Running;

            BenchmarkSwitcher.FromAssembly(typeof(SmallBench).Assembly).Run(args,
                BenchmarkDotNet.Configs.ManualConfig.Create(BenchmarkDotNet.Configs.DefaultConfig.Instance)
                    .AddExporter(BenchmarkDotNet.Exporters.Json.JsonExporter.Full));

            [MemoryDiagnoser]
            public class SmallBench
            {
                [Params(10, 100)] public int N;

                [Benchmark] public int Sum() { var s = 0; for (var i = 0; i < N; i++) s += i; return s; }
            }
            """);
        Git.Init(dir);
        return Git.Commit(dir, "small suites");
    }

    /// <summary>The checkout, found from the fixtures path recorded in the test assembly at build time (tests/fixtures).</summary>
    public static string Repo() => TestPaths.RepoRoot;

    private static void Write(string dir, string path, string text)
    {
        var full = Path.Combine(dir, path);
        Directory.CreateDirectory(Path.GetDirectoryName(full)!);
        File.WriteAllText(full, text.ReplaceLineEndings("\n") + "\n");
    }
}
