using PerfService.SeedHistory;

var options = SeedOptions.Parse(args);
if (options is null)
{
    Console.Error.WriteLine(SeedOptions.Usage);
    return 2;
}
await new HistorySeeder(options, Console.Out).RunAsync();
return 0;
