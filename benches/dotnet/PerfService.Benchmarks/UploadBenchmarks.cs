using System.Globalization;
using System.Net.Http.Headers;
using System.Text;
using BenchmarkDotNet.Attributes;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using PerfService.Core.Parsing;
using PerfService.Ingestion;

namespace PerfService.Benchmarks;

/// <summary>
/// The steps of one upload before the database, on the load tool's middle-sized run (275 results × 20 samples,
/// generic JSON): reading the multipart body, parsing the results, compressing the file kept as the run's artifact.
/// What each allocates is the figure to watch (the memory diagnoser counts bytes, so it does not depend on the machine);
/// the baseline is one copy of the request body, the least any reader holds.
/// </summary>
[Config(typeof(BenchConfig))]
public class UploadBenchmarks
{
    private byte[] _body = [];
    private string _contentType = "";
    private byte[] _file = [];
    private Artifact[] _files = [];
    private UploadReader _reader = null!;

    [GlobalSetup]
    public async Task Setup()
    {
        _file = GenericResults(275, 20);
        _files = [new Artifact("results.json", _file)];
        using var content = new MultipartFormDataContent();
        content.Add(new StringContent("""{"project":"bench","commit":"0123456789abcdef0123456789abcdef01234567","branch":"main","profile":"m1-pro","suite":"bench"}""", Encoding.UTF8, "application/json"), "run");
        var part = new ByteArrayContent(_file);
        part.Headers.ContentType = new MediaTypeHeaderValue("application/json");
        content.Add(part, "files", "results.json");
        _body = await content.ReadAsByteArrayAsync();
        _contentType = content.Headers.ContentType!.ToString();
        _reader = new UploadReader(Options.Create(new IngestOptions()), TimeProvider.System, NullLogger<UploadReader>.Instance);
        Console.WriteLine($"// body {_body.Length:N0} bytes, file {_file.Length:N0} bytes");
    }

    [Benchmark(Baseline = true)]
    public byte[] CopyTheBody() => _body.ToArray();

    [Benchmark]
    public async Task<int> ReadTheUpload()
    {
        var http = new DefaultHttpContext();
        http.Request.Method = "POST";
        http.Request.ContentType = _contentType;
        http.Request.ContentLength = _body.Length;
        http.Request.Body = new MemoryStream(_body, writable: false);
        using var upload = await _reader.ReadAsync(http.Request, CancellationToken.None);
        return upload.Files.Count;
    }

    [Benchmark]
    public int ParseTheResults() => ResultParsers.Parse(_files, "json").Results.Count;

    [Benchmark]
    public int CompressTheArtifact() => Gzip.Compress(_file).Length;

    /// <summary>The load tool's generic-JSON payload shape: named results with parameters and raw samples.</summary>
    private static byte[] GenericResults(int results, int samples)
    {
        var random = new Random(7);
        var sb = new StringBuilder("{\"results\":[");
        for (var i = 0; i < results; i++)
        {
            if (i > 0) sb.Append(',');
            sb.Append("{\"benchmark\":\"Load.Workload").Append(i % 25).Append(".Op").Append(i)
                .Append("\",\"parameters\":{\"size\":").Append(1 << (i % 10)).Append("},\"unit\":\"ns\",\"samples\":[");
            for (var s = 0; s < samples; s++)
            {
                if (s > 0) sb.Append(',');
                sb.Append((50 + 13.7 * i * (1 + 0.04 * random.NextDouble())).ToString("0.###", CultureInfo.InvariantCulture));
            }
            sb.Append("]}");
        }
        return Encoding.UTF8.GetBytes(sb.Append("]}").ToString());
    }
}
