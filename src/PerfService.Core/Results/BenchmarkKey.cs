using System.Text;

namespace PerfService.Core.Results;

/// <summary>The one canonical text form of a benchmark's identity, used for lookups and display.</summary>
public static class BenchmarkKey
{
    public static string Format(string name, IReadOnlyList<KeyValuePair<string, string>> parameters, string? job)
    {
        var sb = new StringBuilder(name);
        if (parameters.Count > 0)
        {
            sb.Append('(');
            for (var i = 0; i < parameters.Count; i++)
            {
                if (i > 0)
                    sb.Append(", ");
                sb.Append(parameters[i].Key).Append('=').Append(parameters[i].Value);
            }
            sb.Append(')');
        }
        if (!string.IsNullOrEmpty(job))
            sb.Append(" [").Append(job).Append(']');
        return sb.ToString();
    }
}
