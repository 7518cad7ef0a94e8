using System.Text;
using System.Text.Json;

namespace PerfService.IntegrationTests.Infrastructure;

/// <summary>Builds generic-JSON harness output (see src/PerfService.Core/Parsing/GENERIC_JSON.md) for constructed scenarios.</summary>
public static class Generic
{
    public static byte[] Times(params (string Benchmark, double[] SamplesNs)[] results) =>
        Encoding.UTF8.GetBytes(JsonSerializer.Serialize(new
        {
            results = results.Select(r => new { benchmark = r.Benchmark, unit = "ns", samples = r.SamplesNs }),
        }));

    /// <summary>n samples around <paramref name="center"/> with ±<paramref name="spread"/> relative, seeded.</summary>
    public static double[] Around(double center, double spread, int n, int seed)
    {
        var random = new Random(seed);
        return Enumerable.Range(0, n).Select(_ => center * (1 + spread * (2 * random.NextDouble() - 1))).ToArray();
    }
}
