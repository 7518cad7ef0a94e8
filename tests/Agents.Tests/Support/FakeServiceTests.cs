using System.Net;
using System.Net.Sockets;

namespace PerfService.Agents.Tests.Support;

public sealed class FakeServiceTests
{
    // Another process can take the free port the fake service picked before it binds; the fake then tries another
    // port. A listener whose start failed is closed by HttpListener, so the retry once failed every test of the class
    // with ObjectDisposedException.
    [Fact]
    public async Task A_port_taken_before_the_fake_binds_it_is_left_for_another()
    {
        using var taken = new TcpListener(IPAddress.Loopback, 0);
        taken.Start();
        var ports = new Queue<int>([((IPEndPoint)taken.LocalEndpoint).Port, Ports.Free()]);

        using var service = new FakeService(_ => Task.FromResult(FakeResponse.Ok(new { ok = true })), () => ports.Dequeue());
        using var http = new HttpClient { BaseAddress = new Uri(service.Url) };
        var answer = await http.GetStringAsync("/ping");

        Assert.Empty(ports);
        Assert.Contains("\"ok\":true", answer, StringComparison.Ordinal);
        Assert.Single(service.To("/ping"));
    }
}
