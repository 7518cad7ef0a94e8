using System.CommandLine;
using PerfService.ChangePointEval;

return await new RootCommand("detect and detect-eval: the change-point detector offline, and its accuracy on a labelled corpus")
{
    DetectCommand.Create(),
    DetectCommand.CreateEvaluation(),
}.Parse(args).InvokeAsync();
