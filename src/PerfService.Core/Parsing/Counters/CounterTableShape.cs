using PerfService.Core.Parsing.Common;

namespace PerfService.Core.Parsing.Counters;

/// <summary>A text file whose table is one this format reads (<see cref="CounterTableText.Looks"/>).</summary>
internal sealed class CounterTableShape : IFormatShape
{
    public string Format => FormatDetector.Counters;

    public bool Claims(FileView file) => !file.IsJson && !file.IsBlank && CounterTableText.Looks(file.Head);
}
