using System.Text.Json;
using PerfService.Core.Parsing.Common;

namespace PerfService.Core.Parsing.Generic;

/// <summary>PerfService generic JSON: an object with a "results" array (GENERIC_JSON.md).</summary>
internal sealed class GenericJsonShape : IFormatShape
{
    public string Format => FormatDetector.Json;

    public bool Claims(FileView file) =>
        file.IsBrokenJson
            ? file.SniffText.Contains("\"results\"", StringComparison.Ordinal)
            : file.Has("results", JsonValueKind.Array);
}
