using System.Security.Cryptography;
using System.Text;

namespace PerfService.Ingestion;

/// <summary>
/// A hash of the environment's stable entries (CPU, OS, runtimes, toolchains). Volatile readings such as the load
/// average or timestamps are left out, so two runs on an unchanged machine share a fingerprint.
/// </summary>
public static class EnvironmentFingerprint
{
    private static readonly string[] Volatile = ["load", "time", "date", "uptime", "governor", "free"];

    public static string Compute(IReadOnlyDictionary<string, string> environment)
    {
        var sb = new StringBuilder();
        foreach (var (k, v) in environment.OrderBy(e => e.Key, StringComparer.Ordinal))
        {
            if (Volatile.Any(word => k.Contains(word, StringComparison.OrdinalIgnoreCase)))
                continue;
            sb.Append(k).Append('=').Append(v).Append('\n');
        }
        return Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(sb.ToString())))[..16];
    }
}
