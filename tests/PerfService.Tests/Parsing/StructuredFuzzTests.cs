using System.Text;
using static PerfService.Tests.Parsing.ParsingFixtures;

namespace PerfService.Tests.Parsing;

/// <summary>
/// Valid JSON with hostile content inside each format's skeleton: the parsers' semantic checks (types, ranges,
/// missing fields) are reached, which random bytes almost never do. Seeded, so failures reproduce.
/// </summary>
public class StructuredFuzzTests
{
    private static readonly int _scale = int.TryParse(Environment.GetEnvironmentVariable("PERF_FUZZ_SCALE"), out var s) && s > 0 ? s : 1;

    private static readonly string[] _keys =
    [
        "Type", "Method", "Namespace", "Parameters", "DisplayInfo", "MethodTitle", "Statistics", "Mean", "Median", "Min", "Max",
        "StandardDeviation", "N", "ConfidenceInterval", "Level", "Lower", "Upper", "Error", "StandardError", "OriginalValues",
        "Measurements", "IterationMode", "IterationStage", "Operations", "Nanoseconds", "Memory", "Gen0Collections",
        "TotalOperations", "BytesAllocatedPerOperation", "Metrics", "Descriptor", "Id", "Value", "HostEnvironmentInfo", "ProcessorName",
        "type", "contains", "values", "avg", "med", "p(95)", "count", "rate", "passes", "fails", "value", "thresholds", "ok",
        "root_group", "groups", "checks", "path", "name", "state", "testRunDurationMs",
        "benchmark", "parameters", "job", "measure", "unit", "direction", "samples", "error", "environment",
        "group_id", "function_id", "value_str", "full_id", "throughput", "Bytes", "Elements", "mean", "median", "std_dev",
        "point_estimate", "confidence_interval", "confidence_level", "lower_bound", "upper_bound", "iters", "times",
        "reason", "id", "estimate", "measured_values", "iteration_count", "per_iteration", "Action", "Package", "Output",
    ];

    private static readonly string[] _strings =
    [
        "NaN", "Infinity", "", "ns", "ms", "s", "B", "msgs/s", "time", "trend", "rate", "counter", "gauge", "time", "data", "default",
        "Workload", "Result", "Actual", "higher_is_better", "lower", "benchmark-complete", "output", "elements", "bytes",
        "BenchmarkX-8\t100\t12 ns/op\n", "BenchmarkY-4 \t", " 5\t-1 ns/op\n", "--- FAIL: BenchmarkZ-2\n", "pkg: a\n",
        "Gen0Collects", "Allocated Memory", "T.M: Job-ABCDEF(X=1) [N=1]", "N=1&M=2&&=", "::g::c", "x\u0000y", "é\uFFFD",
    ];

    private static readonly string[] _numbers =
    [
        "0", "1", "-1", "12", "0.5", "-0.0", "1e18", "1.1e18", "-1e18", "1e300", "1e-300", "5e-324", "1e999", "-1e999",
        "9223372036854775807", "9223372036854775808", "18446744073709551616", "2147483648", "12.000", "3", "999999999999999999999",
    ];

    private static void Value(StringBuilder sb, Random r, int depth)
    {
        switch (depth > 5 ? r.Next(3) : r.Next(6))
        {
            case 0: sb.Append(_numbers[r.Next(_numbers.Length)]); break;
            case 1: sb.Append('"').Append(Escape(_strings[r.Next(_strings.Length)])).Append('"'); break;
            case 2: sb.Append(r.Next(3) switch { 0 => "null", 1 => "true", _ => "false" }); break;
            case 3:
                sb.Append('[');
                for (var i = r.Next(4); i > 0; i--) { Value(sb, r, depth + 1); if (i > 1) sb.Append(','); }
                sb.Append(']');
                break;
            default: Object(sb, r, depth + 1); break;
        }
    }

    private static void Object(StringBuilder sb, Random r, int depth)
    {
        sb.Append('{');
        for (var i = r.Next(7); i > 0; i--)
        {
            sb.Append('"').Append(_keys[r.Next(_keys.Length)]).Append("\":");
            Value(sb, r, depth);
            if (i > 1) sb.Append(',');
        }
        sb.Append('}');
    }

    private static string Json(Random r, Action<StringBuilder> build)
    {
        var sb = new StringBuilder();
        build(sb);
        return sb.ToString();
    }

    private static string Escape(string s) => s.Replace("\\", "\\\\").Replace("\"", "\\\"").Replace("\n", "\\n").Replace("\t", "\\t").Replace("\u0000", "\\u0000");

    [Fact]
    public void Valid_json_with_hostile_content_in_every_format_skeleton()
    {
        var r = new Random(1234);
        for (var i = 0; i < 500 * _scale; i++)
        {
            string Obj() => Json(r, sb => Object(sb, r, 0));
            string Any() => Json(r, sb => Value(sb, r, 0));
            var bdnBench = "{\"Type\":\"T\",\"Method\":\"M\"," + Obj()[1..];
            if (bdnBench.EndsWith(",}", StringComparison.Ordinal) || bdnBench == "{\"Type\":\"T\",\"Method\":\"M\",}") bdnBench = bdnBench.Replace(",}", "}");
            var cases = new (string Name, string Text)[]
            {
                ("bdn.json", $"{{\"Title\":\"t\",\"HostEnvironmentInfo\":{Any()},\"Benchmarks\":[{bdnBench},{Obj()}]}}"),
                ("k6.json", $"{{\"metrics\":{{\"http_req_duration\":{Obj()},\"x{{a:b}}\":{Obj()}}},\"root_group\":{Obj()}}}"),
                ("generic.json", $"{{\"results\":[{Obj()},{Any()}],\"environment\":{Any()}}}"),
                ("cc.ndjson", $"{{\"reason\":\"benchmark-complete\",\"id\":\"a\",\"mean\":{Obj()},\"throughput\":{Any()}}}\n{Obj()}\n"),
                ("go.json", $"{{\"Action\":\"output\",\"Package\":\"p\",\"Output\":{Any()}}}\n{Obj()}\n"),
            };
            foreach (var (name, text) in cases) ParserFuzzTests.Survives([Text(name, text)], $"#{i} {name}: {text}");
            ParserFuzzTests.Survives(
            [
                Text("b/new/benchmark.json", Obj()), Text("b/new/estimates.json", "{\"mean\":" + Obj() + "}"), Text("b/new/sample.json", Any()),
                Text("c/new/benchmark.json", "{\"group_id\":\"g\",\"throughput\":" + Any() + "}"), Text("c/new/estimates.json", Obj()),
            ], $"#{i} tree");
        }
    }

    [Fact]
    public void Valid_documents_with_extreme_numbers_in_the_value_positions()
    {
        foreach (var n in _numbers)
        {
            string F(string template) => template.Replace("@", n, StringComparison.Ordinal);
            var bdn = F("""{"Title":"t","Benchmarks":[{"Type":"T","Method":"M","Statistics":{"Mean":@,"N":@,"ConfidenceInterval":{"Level":@,"Lower":@}},"Memory":{"Gen0Collections":@,"TotalOperations":@,"BytesAllocatedPerOperation":@},"Measurements":[{"IterationMode":"Workload","IterationStage":"Result","Operations":@,"Nanoseconds":@}]}]}""");
            ParserFuzzTests.Survives([Text("bdn.json", bdn)], $"bdn {n}");
            var k6 = F("""{"metrics":{"http_reqs":{"type":"counter","contains":"default","values":{"count":@,"rate":@}},"checks":{"passes":@,"fails":@}}}""");
            ParserFuzzTests.Survives([Text("k6.json", k6)], $"k6 {n}");
            var tree = new[]
            {
                Text("x/new/benchmark.json", F("""{"group_id":"g","throughput":{"Bytes":@}}""")),
                Text("x/new/estimates.json", F("""{"mean":{"point_estimate":@,"confidence_interval":{"lower_bound":@}}}""")),
                Text("x/new/sample.json", F("""{"iters":[@],"times":[@]}""")),
            };
            ParserFuzzTests.Survives(tree, $"tree {n}");
            ParserFuzzTests.Survives([Text("g.txt", F("BenchmarkX-8 1 @ ns/op @ MB/s @ custom\n"))], $"go {n}");
            ParserFuzzTests.Survives([Text("l.txt", F("test x ... bench: @ ns/iter (+/- 1)\n"))], $"libtest {n}");
            ParserFuzzTests.Survives([Text("j.json", F("""{"results":[{"benchmark":"b","unit":"s","value":@,"samples":[@,@]}]}"""))], $"generic {n}");
        }
    }
}
