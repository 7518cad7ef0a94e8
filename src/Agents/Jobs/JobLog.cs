namespace PerfService.Agents.Jobs;

/// <summary>
/// The log of the running job: harness output and the agent's own notes. Lines are echoed to the console as they
/// come and handed to the service in batches (each heartbeat takes what is new). Thread-safe: the harness's stdout
/// and stderr readers and the heartbeat loop use it at once. Bounded, so an unreachable service cannot make it grow
/// without end.
/// </summary>
public sealed class JobLog(AgentConsole console)
{
    private const int MaxPending = 20_000;
    private const int MaxBatch = 1_000;
    private const int MaxLineLength = 4_000;
    private readonly Queue<string> _pending = new();
    private int _dropped;
    private string? _progress;

    public string? Progress
    {
        get
        {
            lock (_pending)
                return _progress;
        }
        set
        {
            lock (_pending)
                _progress = value;
        }
    }

    /// <summary>A line of the agent's own (a note, a warning): shown plainly on the console.</summary>
    public void Note(string line)
    {
        console.Line(line);
        Add(line);
    }

    /// <summary>A line of harness or git output: shown indented on the console.</summary>
    public void Output(string line)
    {
        console.Output(line);
        Add(line);
    }

    /// <summary>The lines not yet sent, at most one batch; the rest stay for the next call.</summary>
    public IReadOnlyList<string> TakeNew()
    {
        lock (_pending)
        {
            var batch = new List<string>(Math.Min(_pending.Count + 1, MaxBatch));
            if (_dropped > 0)
            {
                batch.Add($"… {_dropped} log lines dropped while the service could not be reached");
                _dropped = 0;
            }
            while (batch.Count < MaxBatch && _pending.TryDequeue(out var line))
                batch.Add(line);
            return batch;
        }
    }

    /// <summary>Lines a batch took that never reached the service, back in front of the rest, so the job's
    /// completion carries them.</summary>
    public void PutBack(IReadOnlyList<string> batch)
    {
        lock (_pending)
        {
            var rest = _pending.ToArray();
            _pending.Clear();
            foreach (var line in batch.Concat(rest))
                _pending.Enqueue(line);
        }
    }

    private void Add(string line)
    {
        if (line.Length > MaxLineLength)
            line = line[..MaxLineLength] + "…";
        lock (_pending)
        {
            _pending.Enqueue(line);
            while (_pending.Count > MaxPending)
            {
                _pending.Dequeue();
                _dropped++;
            }
        }
    }
}
