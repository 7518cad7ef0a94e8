using System.Reflection;
using System.Text.Json;
using Microsoft.AspNetCore.Http.Json;
using Microsoft.AspNetCore.Http.Metadata;
using Microsoft.Extensions.Options;

namespace PerfService.Dashboard;

internal sealed record SeriesDocument(
    SeriesBenchmarkDto Benchmark,
    MeasureDto Measure,
    string Branch,
    IReadOnlyList<SeriesLine> Lines,
    IReadOnlyList<SeriesMarkerDto> Markers,
    string? Next
);

/// <summary>
/// A series written straight to the response with <see cref="Utf8JsonWriter"/>, flushed as it goes. At 10,000 points,
/// building a <see cref="SeriesDto"/> of records and serializing it took about as long as the query. Two shapes: points
/// (<see cref="SeriesDto"/>, the default) and columns (<see cref="SeriesColumnsDto"/>, what the dashboard reads).
/// The small parts (benchmark, measure, markers) go through the app's serializer options like every other response.
/// Not compressed here: gzip of a 10,000-point body costs 4 to 25 ms of CPU, more than sending it over loopback; a
/// reverse proxy in front can compress for remote browsers.
/// </summary>
internal sealed class SeriesJson(SeriesDocument doc, bool columns) : IResult, IEndpointMetadataProvider
{
    private const int FlushEvery = 32 * 1024;
    private static readonly JsonEncodedText BenchmarkName = JsonEncodedText.Encode("benchmark"),
        MeasureName = JsonEncodedText.Encode("measure"),
        BranchName = JsonEncodedText.Encode("branch"),
        LinesName = JsonEncodedText.Encode("lines"),
        ProfileName = JsonEncodedText.Encode("profile"),
        MarkersName = JsonEncodedText.Encode("markers"),
        NextName = JsonEncodedText.Encode("next"),
        PointsName = JsonEncodedText.Encode("points"),
        RunIdName = JsonEncodedText.Encode("runId"),
        CommitName = JsonEncodedText.Encode("commit"),
        SeriesAtName = JsonEncodedText.Encode("seriesAt"),
        ValueName = JsonEncodedText.Encode("value"),
        CiLowerName = JsonEncodedText.Encode("ciLower"),
        CiUpperName = JsonEncodedText.Encode("ciUpper"),
        SampleCountName = JsonEncodedText.Encode("sampleCount"),
        ShasName = JsonEncodedText.Encode("shas"),
        RunIdsName = JsonEncodedText.Encode("runIds"),
        CommitsName = JsonEncodedText.Encode("commits"),
        TimesName = JsonEncodedText.Encode("times"),
        ValuesName = JsonEncodedText.Encode("values"),
        LowerName = JsonEncodedText.Encode("lower"),
        UpperName = JsonEncodedText.Encode("upper"),
        SamplesName = JsonEncodedText.Encode("samples");

    private Utf8JsonWriter _json = null!;
    private HttpResponse _response = null!;
    private long _flushed;

    public async Task ExecuteAsync(HttpContext http)
    {
        _response = http.Response;
        _response.ContentType = "application/json; charset=utf-8";
        var options = http.RequestServices.GetRequiredService<IOptions<JsonOptions>>().Value.SerializerOptions;
        await using (
            _json = new Utf8JsonWriter(
                _response.BodyWriter,
                new JsonWriterOptions { Encoder = options.Encoder, SkipValidation = true }
            )
        )
        {
            _json.WriteStartObject();
            _json.WritePropertyName(BenchmarkName);
            JsonSerializer.Serialize(_json, doc.Benchmark, options);
            _json.WritePropertyName(MeasureName);
            JsonSerializer.Serialize(_json, doc.Measure, options);
            _json.WriteString(BranchName, doc.Branch);
            if (columns)
                await WriteColumnsAsync();
            else
                await WritePointsAsync();
            _json.WritePropertyName(MarkersName);
            JsonSerializer.Serialize(_json, doc.Markers, options);
            _json.WriteString(NextName, doc.Next);
            _json.WriteEndObject();
        }
        await _response.BodyWriter.FlushAsync(http.RequestAborted);
    }

    private async Task WritePointsAsync()
    {
        _json.WriteStartArray(LinesName);
        foreach (var line in doc.Lines)
        {
            _json.WriteStartObject();
            _json.WriteString(ProfileName, line.Profile);
            _json.WriteStartArray(PointsName);
            foreach (var p in line.Points)
            {
                _json.WriteStartObject();
                _json.WriteNumber(RunIdName, p.RunId);
                _json.WriteString(CommitName, p.Commit);
                _json.WriteString(SeriesAtName, p.At);
                _json.WritePropertyName(ValueName);
                Number(p.Value);
                _json.WritePropertyName(CiLowerName);
                Number(p.Lower);
                _json.WritePropertyName(CiUpperName);
                Number(p.Upper);
                _json.WriteNumber(SampleCountName, p.Samples);
                _json.WriteEndObject();
                await FlushWhenFullAsync();
            }
            _json.WriteEndArray();
            _json.WriteEndObject();
        }
        _json.WriteEndArray();
    }

    private async Task WriteColumnsAsync()
    {
        // A commit measured on several profiles is sent once: the lines hold indexes into "shas".
        var index = new Dictionary<string, int>(doc.Lines.Sum(l => l.Points.Count));
        var commits = new int[doc.Lines.Count][];
        _json.WriteStartArray(ShasName);
        for (var l = 0; l < commits.Length; l++)
        {
            var points = doc.Lines[l].Points;
            commits[l] = new int[points.Count];
            for (var i = 0; i < points.Count; i++)
            {
                var sha = points[i].Commit;
                if (!index.TryGetValue(sha, out var at))
                {
                    index.Add(sha, at = index.Count);
                    _json.WriteStringValue(sha);
                }
                commits[l][i] = at;
                await FlushWhenFullAsync();
            }
        }
        _json.WriteEndArray();

        _json.WriteStartArray(LinesName);
        for (var l = 0; l < commits.Length; l++)
        {
            var (line, lineCommits) = (doc.Lines[l], commits[l]);
            _json.WriteStartObject();
            _json.WriteString(ProfileName, line.Profile);
            await ColumnAsync(RunIdsName, line, (p, _) => _json.WriteNumberValue(p.RunId));
            await ColumnAsync(CommitsName, line, (_, i) => _json.WriteNumberValue(lineCommits[i]));
            await ColumnAsync(TimesName, line, (p, _) => _json.WriteNumberValue(p.At.ToUnixTimeMilliseconds()));
            await ColumnAsync(ValuesName, line, (p, _) => Number(p.Value));
            await ColumnAsync(LowerName, line, (p, _) => Number(p.Lower));
            await ColumnAsync(UpperName, line, (p, _) => Number(p.Upper));
            await ColumnAsync(SamplesName, line, (p, _) => _json.WriteNumberValue(p.Samples));
            _json.WriteEndObject();
        }
        _json.WriteEndArray();
    }

    private async Task ColumnAsync(JsonEncodedText name, SeriesLine line, Action<SeriesPoint, int> write)
    {
        _json.WriteStartArray(name);
        for (var i = 0; i < line.Points.Count; i++)
        {
            write(line.Points[i], i);
            await FlushWhenFullAsync();
        }
        _json.WriteEndArray();
    }

    // JSON has no NaN or infinity; one such value must not break the response half-way through the stream.
    private void Number(double? value)
    {
        if (value is { } v && double.IsFinite(v))
            _json.WriteNumberValue(v);
        else
            _json.WriteNullValue();
    }

    /// <summary>Hands what is written so far to the server every 32 KB: the body is never held whole.</summary>
    private ValueTask FlushWhenFullAsync()
    {
        var written = _json.BytesCommitted + _json.BytesPending;
        if (written - _flushed < FlushEvery)
            return ValueTask.CompletedTask;
        _flushed = written;
        _json.Flush();
        return FlushBodyAsync();
    }

    private async ValueTask FlushBodyAsync() =>
        await _response.BodyWriter.FlushAsync(_response.HttpContext.RequestAborted);

    // The other shapes are added to the OpenAPI document by SeriesOpenApi.
    public static void PopulateMetadata(MethodInfo method, EndpointBuilder builder) =>
        builder.Metadata.Add(
            new ProducesResponseTypeMetadata(StatusCodes.Status200OK, typeof(SeriesDto), ["application/json"])
        );
}
