using PerfService.Dashboard;
using PerfService.Hosting.Http;

namespace PerfService.IntegrationTests.Dashboard;

public class BenchmarkSearchTests(HistoryApp app) : IClassFixture<HistoryApp>
{
    private const string Benchmarks = $"/api/v1/projects/{HistoryApp.Project}/benchmarks";

    [Fact]
    public async Task Search_by_name_is_a_case_insensitive_substring_with_suite_and_measures()
    {
        var page = (await app.CreateClient().GetFromJsonAsync<Page<BenchmarkItemDto>>($"{Benchmarks}?q=haxmap"))!;
        Assert.Equal(2, page.Items.Count);
        Assert.All(page.Items, b => Assert.Contains("HaxMap", b.Name));
        Assert.All(page.Items, b => Assert.Equal("maps", b.Suite));
        Assert.Equal(["alloc", "allocs", "time"], page.Items[0].Measures.Select(m => m.Name));
        Assert.Null(page.Next);
    }

    [Fact]
    public async Task Like_wildcards_in_the_query_are_taken_literally()
    {
        // As wildcards these would match BenchmarkHaxMapReadsOnly.
        Assert.Empty((await app.CreateClient().GetFromJsonAsync<Page<BenchmarkItemDto>>($"{Benchmarks}?q=Hax_ap"))!.Items);
        Assert.Empty((await app.CreateClient().GetFromJsonAsync<Page<BenchmarkItemDto>>($"{Benchmarks}?q=Hax%25Only"))!.Items);
    }

    [Fact]
    public async Task Parameters_filter_by_containment_and_suite_by_name()
    {
        var n1000 = (await app.CreateClient().GetFromJsonAsync<Page<BenchmarkItemDto>>($"{Benchmarks}?param.N=1000"))!;
        Assert.NotEmpty(n1000.Items);
        Assert.All(n1000.Items, b => Assert.Equal("1000", b.Parameters["N"]));
        Assert.All(n1000.Items, b => Assert.Equal("newday", b.Suite));
        Assert.Empty((await app.CreateClient().GetFromJsonAsync<Page<BenchmarkItemDto>>($"{Benchmarks}?param.N=7"))!.Items);

        var suite = (await app.CreateClient().GetFromJsonAsync<Page<BenchmarkItemDto>>($"{Benchmarks}?suite=maps&limit=1000"))!;
        Assert.Equal(6, suite.Items.Count);
        Assert.Empty((await app.CreateClient().GetFromJsonAsync<Page<BenchmarkItemDto>>($"{Benchmarks}?suite=maps&param.N=1000"))!.Items);
    }

    [Fact]
    public async Task Cursor_pages_cover_every_benchmark_exactly_once()
    {
        var client = app.CreateClient();
        var all = (await client.GetFromJsonAsync<Page<BenchmarkItemDto>>($"{Benchmarks}?limit=1000"))!.Items.Select(b => b.Id).ToList();
        var paged = new List<long>();
        for (var url = $"{Benchmarks}?limit=2"; url is not null;)
        {
            var page = (await client.GetFromJsonAsync<Page<BenchmarkItemDto>>(url))!;
            Assert.InRange(page.Items.Count, 1, 2);
            paged.AddRange(page.Items.Select(b => b.Id));
            url = page.Next;
        }
        Assert.Equal(all, paged);
        Assert.Equal(paged.Count, paged.Distinct().Count());
    }

    [Fact]
    public async Task A_forged_cursor_is_a_bad_request()
    {
        var response = await app.CreateClient().GetAsync($"{Benchmarks}?cursor=bm90LWEtbnVtYmVy");
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
    }
}
