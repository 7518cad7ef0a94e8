using System.Text.Json.Nodes;
using PerfService.TestSupport;

namespace PerfService.FaultTests;

/// <summary>
/// The built service carries its thread-pool minimum in its runtimeconfig. Hangfire's client API is synchronous and
/// each upload enqueues from the request: with the runtime's default minimum (one thread per core) bursts of uploads
/// starved the pool for seconds at a time (ingest p99 0.76–3.2 s at 50 agents; 0.10–0.14 s with 64). The load test
/// measures that; this keeps the setting from being dropped unnoticed.
/// </summary>
public sealed class ThreadPoolSettingsTests
{
    [Fact]
    public void The_service_starts_with_a_thread_pool_minimum_of_at_least_64()
    {
        var path = Path.ChangeExtension(TestPaths.ServiceDll, ".runtimeconfig.json");
        var config = JsonNode.Parse(File.ReadAllText(path))!;
        var minimum = config["runtimeOptions"]?["configProperties"]?["System.Threading.ThreadPool.MinThreads"];
        Assert.True(minimum is not null, $"{path} sets no System.Threading.ThreadPool.MinThreads");
        Assert.True(minimum!.GetValue<int>() >= 64, $"{path}: System.Threading.ThreadPool.MinThreads is {minimum}");
    }
}
