using PerfService.Core.Parsing;
using PerfService.Core.Parsing.K6;
using PerfService.Core.Results;
using static PerfService.Tests.Parsing.ParsingFixtures;

namespace PerfService.Tests.Parsing;

public class K6SummaryParserTests
{
    private const string Folder = "k6";
    private static readonly K6SummaryParser _parser = new();

    private static ParseResult Parse(string name) => _parser.Parse([File(Folder, name)]);

    [Fact]
    public void HandleSummary_percentiles_become_measures_of_the_metric()
    {
        var result = Parse("benc-uk-handlesummary-http-submetric-p99.json");
        // metrics.http_req_duration.values: p(95) 30.0256841, p(99) 39.577136380000084, med 20.090773, avg 21.37513127107059.
        var p95 = Single(result, "http_req_duration", "p95");
        Assert.Equal((30.0256841, "ms", Direction.LowerIsBetter), (p95.Value!.Value, p95.Unit, p95.Direction));
        Assert.Equal(39.577136380000084, Single(result, "http_req_duration", "p99").Value);
        Assert.Equal(20.090773, Single(result, "http_req_duration", "med").Value);
        Assert.Equal(21.37513127107059, Single(result, "http_req_duration", "avg").Value);
        // The submetric keeps its tag in the name: values.p(95) 28.97347239999998.
        Assert.Equal(28.97347239999998, Single(result, "http_req_duration{expected_response:true}", "p95").Value);
        // http_reqs.values.rate 35.94634922417172 req/s, higher is better.
        var rate = Single(result, "http_reqs", "rate");
        Assert.Equal((35.94634922417172, "req/s", Direction.HigherIsBetter), (rate.Value!.Value, rate.Unit, rate.Direction));
        // http_req_failed: rate 0.39749430523917995 (349 failed of 878), lower is better.
        var failed = Single(result, "http_req_failed", "rate");
        Assert.Equal((349.0 / 878, Direction.LowerIsBetter), (failed.Value!.Value, failed.Direction));
        Assert.Equal(0.39749430523917995, failed.Value!.Value, 15);
        // checks: passes 529, fails 349.
        Assert.Equal(529, Single(result, "checks", "passes").Value);
        Assert.Equal(Direction.LowerIsBetter, Single(result, "checks", "fails").Direction);
        // A per-check result for root_group.checks[0] "::Status is ok": 90 passes, 349 fails.
        Assert.Equal(90, Single(result, "checks(check=::Status is ok)", "passes").Value);
        Assert.Equal(349, Single(result, "checks(check=::Status is ok)", "fails").Value);
        Assert.Equal(439, Single(result, "checks(check=::Example group::NOT 500)", "passes").Value);
        // vus/vus_max are configuration, not measurements.
        Assert.DoesNotContain(result.Results, r => r.Name is "vus" or "vus_max");
        Assert.Equal("20", result.Environment["k6.vus_max"]);
        Assert.Empty(result.Warnings); // both thresholds are ok:true
    }

    [Fact]
    public void Legacy_summary_export_infers_types_and_recomputes_the_check_rate()
    {
        var result = Parse("szboynono-summary-export-legacy-compact.json");
        // "http_req_duration":{"avg":50.5104724137931,…,"p(90)":55.070119999999996,"p(95)":60.26172}
        Assert.Equal(60.26172, Single(result, "http_req_duration", "p95").Value);
        Assert.Equal("ms", Single(result, "http_req_duration", "p95").Unit);
        Assert.Equal(55.070119999999996, Single(result, "http_req_duration", "p90").Value);
        // "checks":{"fails":0,"passes":29,"value":0}: value is a known-wrong 0, the rate is 29/29.
        Assert.Equal(1.0, Single(result, "checks", "rate").Value);
        // "http_reqs":{"count":29,"rate":2.6541534375803657}
        Assert.Equal(2.6541534375803657, Single(result, "http_reqs", "rate").Value);
        Assert.Equal(320131, Single(result, "data_received", "count").Value);
        Assert.Equal("B", Single(result, "data_received", "count").Unit);
    }

    [Fact]
    public void Legacy_export_with_custom_rates_utf8_groups_and_inverted_passes()
    {
        var result = Parse("tiagonline-summary-export-nested-groups-utf8-custom-rates.json");
        // "http_req_failed": {"fails":38429,"passes":95,…}: passes are FAILED requests.
        var failed = Single(result, "http_req_failed", "passes");
        Assert.Equal((95.0, Direction.LowerIsBetter), (failed.Value!.Value, failed.Direction));
        Assert.Equal(Direction.HigherIsBetter, Single(result, "_3_success_rate_post", "rate").Direction);
        Assert.Equal(Direction.LowerIsBetter, Single(result, "_4_fail_rate", "rate").Direction);
        // Custom trend "_1_duration": legacy exports do not say it is a time, so it stays unitless.
        Assert.Equal((790.3916876000002, ""), (Single(result, "_1_duration", "p95").Value!.Value, Single(result, "_1_duration", "p95").Unit));
        // Group path with non-ASCII name, from root_group.groups["POST - Criação de Dados"].checks["status is 200"].
        Assert.Equal(51, Single(result, "checks(check=::POST - Criação de Dados::status is 200)", "fails").Value);
        Assert.Empty(result.Warnings); // "rate<0.05": false means not crossed in --summary-export
    }

    [Fact]
    public void Failed_thresholds_become_warnings()
    {
        var result = Parse("szboynono-handlesummary-early-nested-groups-thresholds.json");
        Assert.Contains("k6 threshold 'p(90) < 4' on http_req_duration failed", result.Warnings);
        Assert.Contains("k6 threshold 'count > 1000' on iterations failed", result.Warnings);
        Assert.DoesNotContain(result.Warnings, w => w.Contains("p(95) < 800"));
        // errorRate: rate 0, passes 0, fails 29: a custom rate counting errors, so lower is better.
        Assert.Equal((0.0, Direction.LowerIsBetter), (Single(result, "errorRate", "rate").Value!.Value, Single(result, "errorRate", "rate").Direction));
        Assert.Equal(44.55441999999999, Single(result, "http_req_duration", "p95").Value);
    }

    [Fact]
    public void Grpc_summary_without_http_metrics_and_custom_metrics()
    {
        var result = Parse("benc-uk-handlesummary-grpc-custom-metrics.json");
        Assert.DoesNotContain(result.Results, r => r.Name.StartsWith("http_", StringComparison.Ordinal));
        Assert.Equal(2.5228431999999996, Single(result, "grpc_req_duration", "p95").Value);
        Assert.Equal(2833.5502441831595, Single(result, "grpc_reqs", "rate").Value);
        // fake_trend has contains "default": unitless. fake_gauge is a gauge: value/min/max.
        Assert.Equal((948.0369835185951, ""), (Single(result, "fake_trend", "p95").Value!.Value, Single(result, "fake_trend", "p95").Unit));
        Assert.Equal(35.06111527257939, Single(result, "fake_gauge", "value").Value);
        Assert.Contains("k6 threshold 'rate >= 0.8' on fake_rate failed", result.Warnings);
    }

    [Fact]
    public void Non_finite_and_negative_values_are_rejected_with_their_path()
    {
        var ex = Assert.Throws<ParseException>(() => _parser.Parse([Text("k.json",
            """{"metrics":{"http_req_duration":{"type":"trend","contains":"time","values":{"avg":-1}}}}""")]));
        Assert.Equal("$.metrics.http_req_duration.values.avg", ex.Location);
        var odd = Assert.Throws<ParseException>(() => _parser.Parse([Text("k.json",
            """{"metrics":{"http_req_duration{expected_response:true}":{"type":"trend","contains":"time","values":{"p(95)":"NaN"}}}}""")]));
        Assert.Equal("$.metrics['http_req_duration{expected_response:true}'].values['p(95)']", odd.Location);
        Assert.Contains("the string \"NaN\"", odd.Reason);
    }

    [Fact]
    public void A_non_k6_object_is_rejected()
    {
        var ex = Assert.Throws<ParseException>(() => _parser.Parse([Text("k.json", """{"results":[]}""")]));
        Assert.Equal("$", ex.Location);
        Assert.Contains("k6 summary", ex.Reason);
    }
}
