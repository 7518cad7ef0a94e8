using System.Text.Encodings.Web;
using System.Text.Json;
using PerfService.Core.Comparison;

namespace PerfService.Agents.Cli;

/// <summary>
/// <c>compare --output json</c>: an array of {benchmark, measure, unit, outcome, change, ciLower, ciUpper, p, reason},
/// then the figures the change is computed from (base, head) and the rounds a side. Changes are fractions (0.05 = +5%),
/// p the FDR-adjusted p-value the decision used; numbers that do not exist (no test could be run) are null.
/// </summary>
public static class VerdictJson
{
    public static string Write(IReadOnlyList<Verdict> verdicts)
    {
        using var stream = new MemoryStream();
        using (var json = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = true, Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping }))
        {
            json.WriteStartArray();
            foreach (var v in verdicts)
            {
                json.WriteStartObject();
                json.WriteString("benchmark", v.Key);
                json.WriteString("measure", v.Measure);
                json.WriteString("unit", v.Unit);
                json.WriteString("outcome", Outcome(v.Outcome));
                Number(json, "change", v.Change);
                Number(json, "ciLower", v.ChangeLower);
                Number(json, "ciUpper", v.ChangeUpper);
                Number(json, "p", v.AdjustedP);
                json.WriteString("reason", v.Reason);
                Number(json, "base", v.BaseMedian);
                Number(json, "head", v.HeadMedian);
                json.WriteNumber("baseRounds", v.BaseRounds);
                json.WriteNumber("headRounds", v.HeadRounds);
                json.WriteEndObject();
            }
            json.WriteEndArray();
        }
        return System.Text.Encoding.UTF8.GetString(stream.ToArray()) + "\n";
    }

    public static string Outcome(Outcome outcome) => outcome switch
    {
        Core.Comparison.Outcome.Regression => "regression",
        Core.Comparison.Outcome.Improvement => "improvement",
        Core.Comparison.Outcome.Inconclusive => "inconclusive",
        _ => "no_change",
    };

    private static void Number(Utf8JsonWriter json, string name, double value)
    {
        if (double.IsFinite(value)) json.WriteNumber(name, value);
        else json.WriteNull(name);
    }
}
