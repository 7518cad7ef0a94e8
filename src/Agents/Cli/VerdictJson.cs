using System.Text.Json;
using PerfService.Core.Comparison;

namespace PerfService.Agents.Cli;

/// <summary>
/// <c>compare --output json</c>: an array of {benchmark, measure, unit, outcome, change, ciLower, ciUpper, p, reason},
/// then the figures the change is computed from (base, head), the rounds a side, and the margins used (noChangeMargin:
/// the interval must lie within it for no change; threshold: a regression or improvement must clear it). Changes are
/// fractions (0.05 = +5%),
/// p the FDR-adjusted p-value the decision used; numbers that do not exist (no test could be run) are null.
/// </summary>
public static class VerdictJson
{
    public static string Write(IReadOnlyList<Verdict> verdicts)
    {
        return CliJson.Write(json =>
            {
                json.WriteStartArray();
                foreach (var v in verdicts)
                {
                    json.WriteStartObject();
                    json.WriteString("benchmark", v.Key);
                    json.WriteString("measure", v.Measure);
                    json.WriteString("unit", v.Unit);
                    json.WriteString("outcome", Outcome(v.Outcome));
                    CliJson.Number(json, "change", v.Change);
                    CliJson.Number(json, "ciLower", v.ChangeLower);
                    CliJson.Number(json, "ciUpper", v.ChangeUpper);
                    CliJson.Number(json, "p", v.AdjustedP);
                    json.WriteString("reason", v.Reason);
                    CliJson.Number(json, "base", v.BaseMedian);
                    CliJson.Number(json, "head", v.HeadMedian);
                    json.WriteNumber("baseRounds", v.BaseRounds);
                    json.WriteNumber("headRounds", v.HeadRounds);
                    CliJson.Number(json, "noChangeMargin", v.NoChangeMargin);
                    CliJson.Number(json, "threshold", v.Threshold);
                    json.WriteEndObject();
                }
                json.WriteEndArray();
            }) + "\n";
    }

    public static string Outcome(Outcome outcome) =>
        outcome switch
        {
            Core.Comparison.Outcome.Regression => "regression",
            Core.Comparison.Outcome.Improvement => "improvement",
            Core.Comparison.Outcome.Inconclusive => "inconclusive",
            _ => "no_change",
        };
}
