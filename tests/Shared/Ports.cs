using System.Net;
using System.Net.Sockets;

namespace PerfService.TestSupport;

internal static class Ports
{
    /// <summary>A loopback port nobody listens on right now (the OS picks it).</summary>
    public static int Free()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
