using System.Text.Json;
using PerfService.Core.Parsing.Common;

namespace PerfService.Core.Parsing.K6;

/// <summary>A k6 summary: a "metrics" object with k6's built-in metrics, handleSummary's typed metrics, or a
/// root_group.</summary>
internal sealed class K6Shape : IFormatShape
{
    public string Format => FormatDetector.K6;

    public bool Claims(FileView file)
    {
        if (file.IsBrokenJson)
            return file.SniffText.Contains("\"metrics\"", StringComparison.Ordinal);
        if (
            file.Document is not { ValueKind: JsonValueKind.Object } root
            || !root.TryGetProperty("metrics", out var metrics)
            || metrics.ValueKind != JsonValueKind.Object
        )
            return false;
        if (root.TryGetProperty("root_group", out _))
            return true;
        foreach (var metric in metrics.EnumerateObject())
        {
            if (K6Rules.WellKnown.Contains(K6Rules.BaseName(metric.Name)))
                return true;
            if (
                metric.Value.ValueKind == JsonValueKind.Object
                && metric.Value.TryGetProperty("type", out _)
                && metric.Value.TryGetProperty("contains", out _)
            )
                return true;
        }
        return false;
    }
}
