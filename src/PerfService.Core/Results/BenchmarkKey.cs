namespace PerfService.Core.Results;

/// <summary>The one canonical text form of a benchmark's identity, used for lookups and display.</summary>
public static class BenchmarkKey
{
    // Ingestion spells the key of every result of a run several times (duplicates, clashes, series lookup), so it is
    // written once into a string of its exact length: a StringBuilder's growing buffers were a seventh of what the
    // web role allocated under load (docs/measurements/2026-11-28-ingest-allocations.md).
    public static string Format(string name, IReadOnlyList<KeyValuePair<string, string>> parameters, string? job)
    {
        var hasJob = !string.IsNullOrEmpty(job);
        if (parameters.Count == 0 && !hasJob)
            return name;
        var length = name.Length + (hasJob ? job!.Length + 3 : 0);
        if (parameters.Count > 0)
        {
            length += 2 + (parameters.Count - 1) * 2;
            foreach (var (key, value) in parameters)
                length += key.Length + 1 + value.Length;
        }
        return string.Create(
            length,
            (name, parameters, job),
            static (span, state) =>
            {
                var (name, parameters, job) = state;
                var at = Put(span, 0, name);
                if (parameters.Count > 0)
                {
                    span[at++] = '(';
                    for (var i = 0; i < parameters.Count; i++)
                    {
                        if (i > 0)
                            at = Put(span, at, ", ");
                        at = Put(span, at, parameters[i].Key);
                        span[at++] = '=';
                        at = Put(span, at, parameters[i].Value);
                    }
                    span[at++] = ')';
                }
                if (!string.IsNullOrEmpty(job))
                {
                    at = Put(span, at, " [");
                    at = Put(span, at, job);
                    span[at] = ']';
                }
            }
        );
    }

    private static int Put(Span<char> span, int at, string text)
    {
        text.CopyTo(span[at..]);
        return at + text.Length;
    }
}
