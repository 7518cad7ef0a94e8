using System.CommandLine;
using PerfService.CompareEval;

return await new RootCommand("compare-eval: pull-request verdicts on synthetic pull requests with known changes")
{
    CompareEvalCommand.Create(),
}.Parse(args).InvokeAsync();
