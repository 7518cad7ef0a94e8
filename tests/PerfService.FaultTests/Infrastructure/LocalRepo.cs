using System.Diagnostics;

namespace PerfService.FaultTests.Infrastructure;

/// <summary>
/// A tiny git repository whose perf.json declares one `json` harness suite. Its command is bench.sh, which records its
/// pid in {control}/started, sleeps a second when {control}/slow exists, and while {control}/hold exists waits (up to 2 minutes) for {control}/release before it
/// writes three generic-JSON results to $PERF_OUTPUT. The agents get the control folder as FAULT_CONTROL.
/// </summary>
public sealed class LocalRepo
{
    public const string Suite = "held";
    public const int ResultsPerRun = 3;

    private const string Script = """
        #!/bin/sh
        c="$FAULT_CONTROL"
        echo $$ >> "$c/started"
        if [ -f "$c/slow" ]; then sleep 1; fi
        if [ -f "$c/hold" ]; then
          i=0
          while [ ! -f "$c/release" ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done
        fi
        cat > "$PERF_OUTPUT" <<JSON
        {"results":[
          {"benchmark":"Fault.Held.A","unit":"ns","samples":[10,11,12]},
          {"benchmark":"Fault.Held.B","unit":"ns","samples":[20,21,22]},
          {"benchmark":"Fault.Held.C","unit":"ns","samples":[30,31,32]}
        ]}
        JSON
        echo $$ >> "$c/finished"
        """;

    private LocalRepo(string path, string control, IReadOnlyList<string> commits)
    {
        Path = path;
        Control = control;
        Commits = commits;
    }

    public string Path { get; }
    public string Control { get; }
    public IReadOnlyList<string> Commits { get; }

    public static LocalRepo Create(string path, string control, int commits = 1)
    {
        Git.Init(path);
        Directory.CreateDirectory(control);
        File.WriteAllText(System.IO.Path.Combine(path, "perf.json"), $$"""
            { "suites": [ { "name": "{{Suite}}", "harness": "json", "folder": ".", "command": "sh bench.sh", "timeoutSeconds": 300 } ] }
            """);
        File.WriteAllText(System.IO.Path.Combine(path, "bench.sh"), Script.ReplaceLineEndings("\n") + "\n");
        var shas = new List<string>();
        for (var i = 0; i < commits; i++)
        {
            File.WriteAllText(System.IO.Path.Combine(path, "revision.txt"), $"{i}\n");
            shas.Add(Git.Commit(path, $"revision {i}"));
        }
        return new LocalRepo(path, control, shas);
    }

    public void Hold() => File.WriteAllText(System.IO.Path.Combine(Control, "hold"), "");
    public void Unhold() => File.Delete(System.IO.Path.Combine(Control, "hold"));
    /// <summary>Every harness run takes a second more (so that two agents get to share the work).</summary>
    public void Slow() => File.WriteAllText(System.IO.Path.Combine(Control, "slow"), "");
    public void Release() => File.WriteAllText(System.IO.Path.Combine(Control, "release"), "");

    /// <summary>How many harness runs have started so far.</summary>
    public int Started => Lines("started").Count;
    public int Finished => Lines("finished").Count;

    /// <summary>Lets any harness still waiting finish, and kills what is left of harnesses whose agent was killed.</summary>
    public void Cleanup()
    {
        Release();
        foreach (var pid in Lines("started").Except(Lines("finished")))
        {
            try
            {
                using var p = Process.GetProcessById(int.Parse(pid));
                if (p.ProcessName is "sh" or "dash" or "bash") p.Kill(entireProcessTree: true);
            }
            catch (Exception e) when (e is ArgumentException or InvalidOperationException or System.ComponentModel.Win32Exception)
            {
                // Already gone.
            }
        }
    }

    private List<string> Lines(string file)
    {
        var full = System.IO.Path.Combine(Control, file);
        return File.Exists(full) ? File.ReadAllLines(full).Where(l => l.Length > 0).ToList() : [];
    }
}
