using System.Text;
using FsCheck;
using FsCheck.Fluent;
using FsCheck.Xunit;
using PerfService.Core.Parsing;
using Xunit.Sdk;
using static PerfService.Tests.Parsing.ParsingFixtures;

namespace PerfService.Tests.Parsing;

/// <summary>
/// Hostile and broken input for every parser and for auto-detection: truncated at every length, garbled bytes,
/// random bytes and random token soup. The only acceptable failure is a <see cref="ParseException"/>; nothing may
/// hang, crash or yield NaN/Infinity. Random sources are seeded, so a failure reproduces.
/// </summary>
public class ParserFuzzTests
{
    /// <summary>
    /// A hang guard, not a speed limit (speed is measured in benches/): far beyond what any small input takes, so only a
    /// parser stuck in a loop reaches it.
    /// </summary>
    private static readonly TimeSpan _bound = TimeSpan.FromSeconds(60);

    /// <summary>PERF_FUZZ_SCALE=20 (say) makes the seeded loops 20× longer for a deeper local or nightly hunt.</summary>
    private static readonly int _scale = int.TryParse(Environment.GetEnvironmentVariable("PERF_FUZZ_SCALE"), out var s) && s > 0 ? s : 1;

    /// <summary>Parses with every format and auto-detects, inside a time bound.</summary>
    internal static void Survives(IReadOnlyList<Artifact> files, string context)
    {
        // A thread of its own: on a 2-core machine with every test class running at once, a pool thread could wait
        // for the pool to grow and be mistaken for a hang.
        var task = Task.Factory.StartNew(() =>
        {
            foreach (var format in ResultParsers.Formats)
            {
                try
                {
                    AssertSane(ResultParsers.Parse(files, format), $"{context} [{format}]");
                }
                catch (ParseException e)
                {
                    if (string.IsNullOrEmpty(e.File) || string.IsNullOrEmpty(e.Reason)) throw new XunitException($"{context} [{format}]: vague ParseException");
                }
                catch (Exception e) when (e is not XunitException)
                {
                    throw new XunitException($"{context} [{format}]: {e.GetType().Name}: {e.Message}\n{e.StackTrace}");
                }
            }
            try
            {
                Assert.Contains(ResultParsers.Detect(files).Split('+')[0], ResultParsers.Formats);
            }
            catch (ParseException) { }
            catch (Exception e) when (e is not XunitException)
            {
                throw new XunitException($"{context} [detect]: {e.GetType().Name}: {e.Message}\n{e.StackTrace}");
            }
        }, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
        if (!task.Wait(_bound)) throw new XunitException($"{context}: no answer within {_bound.TotalSeconds} s");
    }

    public static TheoryData<string> SmallFixtures() =>
    [
        "k6/szboynono-summary-export-legacy-compact.json",
        "k6/benc-uk-handlesummary-grpc-custom-metrics.json",
        "benchmarkdotnet/bencher-bdn0.9.9-legacy-schema-report.json",
        "criterion/bencher-libtest-bench-FAILED.txt",
        "criterion/gab-criterion-bencher-format-with-warnings.txt",
        "gobench/goperf-benchstat-unit-metadata-custom-units.txt",
        "gobench/bencher-space-separated-auxmetric.txt",
        "criterion/cryptobench-criterion-0.5.1",
    ];

    [Theory]
    [MemberData(nameof(SmallFixtures))]
    public void Every_prefix_of_a_small_fixture(string fixture)
    {
        var files = Load(fixture);
        // For a tree, cut the largest file (sample.json) and keep the others whole.
        var target = files.Select((f, i) => (f, i)).MaxBy(x => x.f.Content.Length).i;
        for (var length = 0; length < files[target].Content.Length; length++)
        {
            var cut = files.ToArray();
            cut[target] = cut[target] with { Content = cut[target].Content[..length] };
            Survives(cut, $"{fixture} cut at {length}");
        }
    }

    public static TheoryData<string> AllFixtures() => [.. ParsingFixtures.AllUnits()];

    [Theory]
    [MemberData(nameof(AllFixtures))]
    public void Random_cut_points_and_garbled_bytes_of_every_fixture(string fixture)
    {
        var files = Load(fixture);
        var random = new Random(StableSeed(fixture));
        var big = files.Sum(f => f.Content.Length) > 50_000;
        for (var round = 0; round < (big ? 12 : 40) * _scale; round++)
        {
            var target = random.Next(files.Count);
            var bytes = files[target].Content.ToArray();
            var mutant = files.ToArray();
            mutant[target] = mutant[target] with { Content = round % 2 == 0 ? bytes[..random.Next(bytes.Length + 1)] : Garble(bytes, random) };
            Survives(mutant, $"{fixture} round {round}");
        }
    }

    // string.GetHashCode is randomised per process; a failure must reproduce, so the seed is computed.
    private static int StableSeed(string text) => text.Aggregate(17, (h, c) => unchecked(h * 31 + c));

    [Fact]
    public void Seeded_token_soup_in_every_position()
    {
        var random = new Random(4242);
        for (var i = 0; i < 400 * _scale; i++)
        {
            var text = string.Concat(Enumerable.Range(0, random.Next(1, 60)).Select(_ => TokenSoupArbitrary.Tokens[random.Next(TokenSoupArbitrary.Tokens.Length)]));
            Survives([Text("soup.txt", text)], $"seeded soup #{i} '{text}'");
            Survives([Text("soup.json", "{\"metrics\":{\"m\":{" + text)], $"seeded k6 soup #{i}");
            Survives([Text("soup.json", "{\"Title\":\"t\",\"Benchmarks\":[{\"Type\":\"T\",\"Method\":\"M\"," + text)], $"seeded bdn soup #{i}");
            Survives([Text("soup.json", "{\"results\":[{\"benchmark\":\"b\"," + text)], $"seeded generic soup #{i}");
        }
    }

    /// <summary>Byte flips, nasty tokens spliced in, and deleted or duplicated ranges.</summary>
    private static byte[] Garble(byte[] bytes, Random random)
    {
        string[] nasty = ["NaN", "-1", "1e999", "-0", "\"", "{", "[", "]", "}", ",", ":", "null", "\n", "\t", " ns/op", "Infinity", "1e300", "\uFFFF", "é", "\0"];
        var list = bytes.ToList();
        for (var edits = random.Next(1, 8); edits > 0 && list.Count > 0; edits--)
        {
            var at = random.Next(list.Count);
            switch (random.Next(4))
            {
                case 0: list[at] = (byte)random.Next(256); break;
                case 1: list.InsertRange(at, Encoding.UTF8.GetBytes(nasty[random.Next(nasty.Length)])); break;
                case 2: list.RemoveRange(at, Math.Min(random.Next(1, 64), list.Count - at)); break;
                default: list.InsertRange(at, list.Skip(at).Take(random.Next(1, 64)).ToList()); break;
            }
        }
        return [.. list];
    }

    [Property(MaxTest = 300)]
    public void Random_bytes(byte[] bytes) => Survives([new Artifact("random.bin", bytes)], $"random {bytes.Length} bytes");

    public sealed record TokenSoup(string Text);

    /// <summary>Random sequences of the tokens the parsers look for, which reach far deeper than random bytes.</summary>
    public static class TokenSoupArbitrary
    {
        public static readonly string[] Tokens =
        [
            "{", "}", "[", "]", ",", ":", "\"", "\n", "\t", " ", "0", "7", "1.5", "-2", "1e9", "NaN", "null", "true",
            "\"Benchmarks\"", "\"Title\"", "\"Statistics\"", "\"Mean\"", "\"metrics\"", "\"values\"", "\"p(95)\"", "\"type\"", "\"trend\"",
            "\"results\"", "\"benchmark\"", "\"unit\"", "\"value\"", "\"samples\"", "\"reason\"", "\"benchmark-complete\"", "\"id\"",
            "\"mean\"", "\"estimate\"", "\"Action\"", "\"output\"", "\"Output\"", "\"group_id\"", "\"point_estimate\"",
            "Benchmark", "BenchmarkX-8", "goos: linux", "pkg: a/b", "ns/op", "B/op", "MB/s", "--- FAIL: BenchmarkX",
            "test ", " ... bench:", " ns/iter", " ... FAILED", "(+/- 3)", "time:", "1,234", "Unit x better=higher",
        ];

        public static Arbitrary<TokenSoup> Soup() =>
            Gen.ArrayOf(Gen.Elements(Tokens)).Select(t => new TokenSoup(string.Concat(t))).ToArbitrary();
    }

    [Property(MaxTest = 500, Arbitrary = [typeof(TokenSoupArbitrary)])]
    public void Random_token_soup(TokenSoup soup)
    {
        Survives([Text("soup.txt", soup.Text)], $"soup '{soup.Text}'");
        Survives([Text("soup.json", "{" + soup.Text)], $"soup '{{{soup.Text}'");
        Survives([Text("a/new/estimates.json", soup.Text), Text("a/new/benchmark.json", soup.Text)], $"tree soup '{soup.Text}'");
    }

    [Theory]
    [InlineData('[')]
    [InlineData('{')]
    public void Deep_nesting_is_a_clear_error_for_every_format(char open)
    {
        var deep = new string(open, 200_000);
        if (open == '{') deep = string.Concat(Enumerable.Repeat("{\"a\":", 100_000));
        foreach (var format in ResultParsers.Formats)
        {
            var ex = Assert.Throws<ParseException>(() => ResultParsers.Parse([Text("deep.json", deep)], format));
            Assert.Equal("deep.json", ex.File);
        }
        var k6 = "{\"metrics\":" + deep;
        Assert.Contains("nested deeper than 64", Assert.Throws<ParseException>(() => ResultParsers.Parse([Text("k.json", k6)], "k6")).Reason);
    }

    [Fact]
    public void Huge_single_line_and_many_tiny_lines_finish_quickly()
    {
        Survives([Text("long.txt", "Benchmark" + new string('x', 2_000_000) + " 1 2 ns/op")], "one 2 MB line");
        Survives([Text("lines.txt", string.Concat(Enumerable.Repeat("BenchmarkA-8 1 2 ns/op\n", 100_000)))], "100k lines");
        Survives([Text("tests.txt", string.Concat(Enumerable.Repeat("---- a stdout ----\n", 50_000)))], "50k panic headers");
    }
}
