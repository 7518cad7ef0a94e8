using PerfService.Core.Parsing;
using PerfService.Agents.Client;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using PerfService.FaultTests.Infrastructure;
using Xunit.Abstractions;

namespace PerfService.FaultTests;

/// <summary>
/// Uploads that the client gives up on half-way, against the real service over real sockets: the connection reset
/// (a client that timed out, a killed agent) or closed early (a body cut short) at several points of the body, and
/// while the upload still waits for a slot. What the client caused is a 4xx or a logged abort, never a 500 or an
/// error in the service's log; nothing is stored, every slot comes back, and an honest upload goes through after.
/// </summary>
public sealed class UploadAbortTests(UploadAbortTests.Service fixture, ITestOutputHelper output) : IClassFixture<UploadAbortTests.Service>
{
    public sealed class Service : IAsyncLifetime
    {
        public const string Project = "aborts";
        private readonly Scratch _scratch = new("aborts");
        public TestDatabase Db { get; private set; } = null!;
        public ServiceProcess Process { get; private set; } = null!;
        public string Token { get; private set; } = null!;
        public HttpClient Ingest { get; private set; } = null!;

        public async Task InitializeAsync()
        {
            Db = await TestDatabase.CreateAsync();
            // One upload slot, so that a second upload waits for it (and can be aborted while it waits).
            Process = new ServiceProcess(Db.ConnectionString, _scratch.Root, new Dictionary<string, string?>
            {
                ["Ingest__MaxConcurrentUploads"] = "1",
                ["Ingest__QueueSeconds"] = "30",
            });
            await Process.StartAsync();
            using var admin = Process.Client(await Db.CreateTokenAsync("admin", "admin"));
            await Uploads.CreateProjectAsync(admin, Project);
            Token = await Db.CreateTokenAsync("ingest", "ingest");
            Ingest = Process.Client(Token);
        }

        public async Task DisposeAsync()
        {
            Ingest?.Dispose();
            await Process.DisposeAsync();
            await Db.DisposeAsync();
            _scratch.Dispose();
        }
    }

    public enum Cut { Reset, CloseEarly }

    /// <summary>Where the body stops, as a fraction of it: before any of it, inside the run part, inside the file, just
    /// before the closing boundary.</summary>
    public static TheoryData<Cut, double> Points()
    {
        var data = new TheoryData<Cut, double>();
        foreach (var cut in Enum.GetValues<Cut>())
            foreach (var at in new[] { 0.0, 0.02, 0.5, 0.999 }) data.Add(cut, at);
        return data;
    }

    [Theory]
    [MemberData(nameof(Points))]
    public async Task An_upload_cut_mid_body_is_no_server_error_and_stores_nothing(Cut cut, double at)
    {
        var errorsBefore = fixture.Process.ErrorLogLines().Count;
        var before = await fixture.Db.CountsAsync();
        var (head, body) = await RequestAsync($"cut-{cut}-{at}");

        using var socket = await ConnectAsync();
        await socket.SendAsync(head);
        await socket.SendAsync(body.AsMemory(0, (int)(body.Length * at)));
        var status = await EndAsync(socket, cut);
        output.WriteLine($"{cut} at {at:P1} of {body.Length} bytes: {status?.ToString() ?? "no answer"}");
        if (status is { } s) Assert.True(s is >= 400 and < 500, $"a body cut short was answered {s}");

        await AssertUnharmedAsync(errorsBefore, before, $"{cut} at {at:P1}");
    }

    [Fact]
    public async Task An_upload_reset_while_it_waits_for_a_slot_is_no_server_error_and_frees_nothing_twice()
    {
        var errorsBefore = fixture.Process.ErrorLogLines().Count;
        var before = await fixture.Db.CountsAsync();
        var (head, body) = await RequestAsync("holder");
        var (waitingHead, waitingBody) = await RequestAsync("waiting");

        // The holder takes the only slot and sends half its body; the second upload sends all of its own and waits.
        using var holder = await ConnectAsync();
        await holder.SendAsync(head);
        await holder.SendAsync(body.AsMemory(0, body.Length / 2));
        // Nothing outside the service process says that a request holds the upload slot or waits for it: the two
        // pauses give the service time to reach those states before the next step.
        await Task.Delay(500);
        using (var waiting = await ConnectAsync())
        {
            await waiting.SendAsync(waitingHead);
            await waiting.SendAsync(waitingBody);
            await Task.Delay(500);
            Assert.Null(await EndAsync(waiting, Cut.Reset));
        }
        Assert.Null(await EndAsync(holder, Cut.Reset));

        await AssertUnharmedAsync(errorsBefore, before, "reset while waiting");
    }

    /// <summary>No error logged, nothing stored, the service up, and the one slot free again: an honest upload is stored
    /// (it waits for the slot until the aborted upload has let go of it, so its errors are in the log by then).</summary>
    private async Task AssertUnharmedAsync(int errorsBefore, TableCounts before, string what)
    {
        var honest = await Uploads.PostAsync(fixture.Ingest, Uploads.Metadata(Service.Project, Uploads.Commit($"honest-after-{what}-{Guid.NewGuid()}")), null,
            ("results.json", Uploads.GenericJson(5, 5, 1)));
        Assert.True(honest.Acknowledged, $"{what}: the honest upload after it failed: {honest}");
        Assert.True(fixture.Process.Running, $"{what}: the service died");
        Assert.Equal(before.Runs + 1, (await fixture.Db.CountsAsync()).Runs); // the honest run, and nothing of the aborted one
        var errors = fixture.Process.ErrorLogLines().Skip(errorsBefore).ToList();
        Assert.True(errors.Count == 0, $"{what}: the service logged errors:\n{string.Join("\n", errors)}");
    }

    /// <summary>The bytes of a real upload (a 200 KB file), head and body apart.</summary>
    private async Task<(byte[] Head, byte[] Body)> RequestAsync(string label)
    {
        using var content = RunMultipart.Create(Uploads.Metadata(Service.Project, Uploads.Commit(label + Guid.NewGuid())), [new Artifact("results.json", Uploads.GenericJson(400, 40, 7))]);
        var body = await content.ReadAsByteArrayAsync();
        var head = Encoding.ASCII.GetBytes(
            $"POST /api/v1/runs HTTP/1.1\r\nHost: 127.0.0.1:{fixture.Process.Port}\r\nAuthorization: Bearer {fixture.Token}\r\n" +
            $"Content-Type: {content.Headers.ContentType}\r\nContent-Length: {body.Length}\r\n\r\n");
        return (head, body);
    }

    private async Task<Socket> ConnectAsync()
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await socket.ConnectAsync(IPAddress.Loopback, fixture.Process.Port);
        return socket;
    }

    /// <summary>Resets the connection (no answer can come), or closes the sending side and reads the answer's status.</summary>
    private static async Task<int?> EndAsync(Socket socket, Cut cut)
    {
        if (cut == Cut.Reset)
        {
            socket.LingerState = new LingerOption(true, 0); // close sends RST, as a client that gives up does
            socket.Close();
            return null;
        }
        socket.Shutdown(SocketShutdown.Send);
        var buffer = new byte[4096];
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        var read = 0;
        try
        {
            while (read < buffer.Length && await socket.ReceiveAsync(buffer.AsMemory(read), timeout.Token) is var n and > 0) read += n;
        }
        catch (SocketException)
        {
            // The service may reset a connection whose body ended early; no status then.
        }
        var text = Encoding.ASCII.GetString(buffer, 0, read);
        return text.StartsWith("HTTP/1.1 ", StringComparison.Ordinal) ? int.Parse(text.AsSpan(9, 3)) : null;
    }
}
