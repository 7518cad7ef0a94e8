using System.Diagnostics;

namespace PerfService.FaultTests.Infrastructure;

/// <summary>
/// A PostgreSQL cluster of one test's own, in a temporary folder on a free loopback port, so that the test may stop and
/// start it without touching the cluster everybody else uses. As root it belongs to the `postgres` user (PostgreSQL
/// refuses to run as root), like scripts/pg.sh does it.
/// </summary>
public sealed class PrivateCluster : IAsyncDisposable
{
    private readonly string _root;
    private readonly string _bin;

    private PrivateCluster(string root, string bin, int port)
    {
        _root = root;
        _bin = bin;
        Port = port;
    }

    public int Port { get; }
    private string Data => Path.Combine(_root, "data");
    private string Log => Path.Combine(_root, "postgres.log");

    public string ServerConnectionString =>
        $"Host=127.0.0.1;Port={Port};Username=postgres;Database=postgres;Pooling=true;Maximum Pool Size=30";

    public static string? BinDirectory() =>
        Directory.Exists("/usr/lib/postgresql")
            ? Directory.EnumerateDirectories("/usr/lib/postgresql").Select(d => Path.Combine(d, "bin"))
                .Where(d => File.Exists(Path.Combine(d, "initdb"))).OrderByDescending(d => d, StringComparer.Ordinal).FirstOrDefault()
            : null;

    public static async Task<PrivateCluster> CreateAsync(string root)
    {
        var bin = BinDirectory() ?? throw new InvalidOperationException("PostgreSQL's initdb was not found under /usr/lib/postgresql/*/bin");
        Directory.CreateDirectory(root);
        var cluster = new PrivateCluster(root, bin, Ports.Free());
        if (TestPaths.IsRoot) await RunAsync("chown", ["postgres:postgres", root]);
        await cluster.AsOwnerAsync("initdb", "-D", cluster.Data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale");
        await File.AppendAllTextAsync(Path.Combine(cluster.Data, "postgresql.conf"), $"""

            listen_addresses = '127.0.0.1'
            port = {cluster.Port}
            unix_socket_directories = '{root}'
            max_connections = 100
            fsync = off
            full_page_writes = off
            """);
        await cluster.StartAsync();
        return cluster;
    }

    public Task StartAsync() => AsOwnerAsync("pg_ctl", "-D", Data, "-l", Log, "-w", "-t", "60", "start");

    /// <summary>pg_ctl stop -m fast: active sessions are cut off, the server shuts down cleanly.</summary>
    public Task StopAsync() => AsOwnerAsync("pg_ctl", "-D", Data, "-m", "fast", "-w", "-t", "60", "stop");

    private Task AsOwnerAsync(string tool, params string[] args) =>
        TestPaths.IsRoot
            ? RunAsync("runuser", ["-u", "postgres", "--", Path.Combine(_bin, tool), .. args])
            : RunAsync(Path.Combine(_bin, tool), args);

    private static async Task RunAsync(string file, string[] args)
    {
        var psi = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var a in args) psi.ArgumentList.Add(a);
        using var process = Process.Start(psi) ?? throw new InvalidOperationException($"{file} did not start");
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        if (process.ExitCode != 0)
            throw new InvalidOperationException($"{file} {string.Join(' ', args)} exited {process.ExitCode}: {await stderr}{await stdout}");
    }

    public async ValueTask DisposeAsync()
    {
        try
        {
            if (File.Exists(Path.Combine(Data, "postmaster.pid"))) await AsOwnerAsync("pg_ctl", "-D", Data, "-m", "immediate", "-w", "stop");
        }
        catch (InvalidOperationException)
        {
            // Not running.
        }
        try
        {
            Directory.Delete(_root, recursive: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
        }
    }
}
