using System.CommandLine;
using PerfService.Demo;

return await DemoCommand.Create().Parse(args).InvokeAsync();
