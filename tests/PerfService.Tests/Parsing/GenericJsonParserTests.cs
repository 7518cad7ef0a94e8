using PerfService.Core.Parsing;
using PerfService.Core.Parsing.Generic;
using PerfService.Core.Results;
using static PerfService.Tests.Parsing.ParsingFixtures;

namespace PerfService.Tests.Parsing;

public class GenericJsonParserTests
{
    private static readonly GenericJsonParser _parser = new();

    private static ParseResult Parse(string json) => _parser.Parse([Text("perper.json", json)]);

    [Fact]
    public void The_documented_example_parses_as_documented()
    {
        // The example of GENERIC_JSON.md, verbatim in substance.
        var result = Parse("""
            {
              "environment": { "cpu": "AMD EPYC 7763", "os": "Ubuntu 24.04", "broker": "rabbitmq 3.13" },
              "results": [
                { "benchmark": "Perper.Messaging.PublishSubscribe", "parameters": { "payload": "1KB", "subscribers": 4 }, "job": null,
                  "measure": "msgs/s", "unit": "msgs/s", "direction": "higher_is_better", "value": 123456.7, "samples": [121000.0, 125200.5, 124169.6] },
                { "benchmark": "Perper.Messaging.PublishSubscribe", "parameters": { "payload": "1KB", "subscribers": 4 },
                  "measure": "time", "unit": "ms", "samples": [0.81, 0.79, 0.84] },
                { "benchmark": "Perper.Messaging.Reconnect", "unit": "ms", "error": "broker did not come back within 30 s" }
              ]
            }
            """);
        Assert.Equal("json", result.Format);
        var rate = Single(result, "Perper.Messaging.PublishSubscribe(payload=1KB, subscribers=4)", "msgs/s");
        Assert.Equal((123456.7, "msgs/s", Direction.HigherIsBetter), (rate.Value!.Value, rate.Unit, rate.Direction));
        Assert.Null(rate.Job);
        Assert.Equal([121000.0, 125200.5, 124169.6], rate.Samples!);
        Assert.Equal(3, rate.Summary!.N);

        var time = Single(result, "Perper.Messaging.PublishSubscribe(payload=1KB, subscribers=4)");
        Assert.Equal("ns", time.Unit); // converted from ms
        Assert.Equal([810000.0, 790000.0, 840000.0], time.Samples!);
        Assert.Equal((810000.0 + 790000.0 + 840000.0) / 3, time.Value!.Value, 6); // value defaults to the mean of the samples
        Assert.Equal(810000.0, time.Summary!.Median);

        var failed = Single(result, "Perper.Messaging.Reconnect");
        Assert.Equal(("broker did not come back within 30 s", (double?)null), (failed.Error, failed.Value));
        Assert.Equal("rabbitmq 3.13", result.Environment["broker"]);
    }

    [Fact]
    public void Direction_defaults_by_unit()
    {
        var result = Parse("""{"results":[{"benchmark":"a","unit":"req/s","value":5},{"benchmark":"b","unit":"B","value":5}]}""");
        Assert.Equal(Direction.HigherIsBetter, Single(result, "a", "req/s").Direction);
        Assert.Equal(Direction.LowerIsBetter, Single(result, "b", "B").Direction);
    }

    [Theory]
    [InlineData("""{"results":[{"benchmark":"a","unit":"ms"}]}""", "$.results[0]", "expected \"value\" or \"samples\"")]
    [InlineData("""{"results":[{"benchmark":"a","unit":"ms","samples":[1,"NaN"]}]}""", "$.results[0].samples[1]", "the string \"NaN\"")]
    [InlineData("""{"results":[{"benchmark":"a","unit":"ms","samples":[1,1e300]}]}""", "$.results[0].samples[1]", "absurdly large")]
    [InlineData("""{"results":[{"benchmark":"a","unit":"ms","value":1},{"benchmark":"b","unit":"ms","samples":[1,2,-3]}]}""", "$.results[1].samples[2]", "≥ 0")]
    [InlineData("""{"results":[{"benchmark":"a","unit":"ms","value":-1}]}""", "$.results[0].value", "≥ 0")]
    [InlineData("""{"results":[{"benchmark":"a","measure":"time","unit":"msgs","value":1}]}""", "$.results[0].unit", "time unit")]
    [InlineData("""{"results":[{"benchmark":"a","unit":"x","direction":"up","value":1}]}""", "$.results[0].direction", "higher_is_better")]
    [InlineData("""{"results":[{"unit":"x","value":1}]}""", "$.results[0].benchmark", "missing")]
    [InlineData("""{"results":[{"benchmark":"a","unit":"x","value":1,"error":"boom"}]}""", "$.results[0].value", "error has no value")]
    [InlineData("""{"results":[]}""", "$.results", "empty")]
    [InlineData("""{"results":[{"benchmark":"a","unit":"x","samples":[]}]}""", "$.results[0].samples", "empty")]
    [InlineData("""{"results":[{"benchmark":"a","unit":"x","value":1,"parameters":{"k":[1]}}]}""", "$.results[0].parameters.k", "string, number or boolean")]
    public void Invalid_input_names_the_json_path(string json, string location, string reason)
    {
        var ex = Assert.Throws<ParseException>(() => Parse(json));
        Assert.Equal(("perper.json", location), (ex.File, ex.Location));
        Assert.Contains(reason, ex.Reason);
    }

    [Fact]
    public void Negative_values_are_allowed_for_non_time_measures()
    {
        Assert.Equal(-3, Single(Parse("""{"results":[{"benchmark":"a","unit":"delta","value":-3}]}"""), "a", "delta").Value);
    }
}
