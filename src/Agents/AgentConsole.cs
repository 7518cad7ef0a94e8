namespace PerfService.Agents;

/// <summary>What a person watching the agent sees: timestamped progress lines, harness output indented under
/// them.</summary>
public sealed class AgentConsole(TextWriter writer, TimeProvider clock, bool showOutput = true)
{
    private readonly Lock _lock = new();

    public static AgentConsole Silent { get; } = new(TextWriter.Null, TimeProvider.System);

    public void Line(string message)
    {
        lock (_lock)
            writer.WriteLine($"{clock.GetLocalNow():HH:mm:ss} {message}");
    }

    public void Output(string line)
    {
        if (!showOutput)
            return;
        lock (_lock)
            writer.WriteLine($"         │ {line}");
    }
}
