namespace PerfService.Agents.Jobs;

/// <summary>The job cannot go on; <see cref="Exception.Message"/> is what the job log and the complete call
/// carry.</summary>
public sealed class JobFailedException(string message) : Exception(message);
