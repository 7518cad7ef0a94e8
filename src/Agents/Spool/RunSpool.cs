using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using PerfService.Agents.Client;
using PerfService.Core.Contracts;
using PerfService.Core.Parsing;

namespace PerfService.Agents.Spool;

/// <summary>One upload waiting to be posted: its idempotency key, its metadata (a result set's <paramref name="Run"/>
/// or a profile's <paramref name="Profile"/>) and its files (a profile has one).</summary>
public sealed record SpoolEntry(
    string Key,
    RunMetadata? Run,
    IReadOnlyList<Artifact> Files,
    ProfileUploadMetadata? Profile = null
);

/// <summary>
/// Every result set and every profile lands here before it is posted, and leaves only once the service has it (or
/// refused it), so an unreachable service or an agent restart loses nothing. Layout: {root}/&lt;key&gt;/entry.json +
/// files/…; an entry is written under .tmp/ and renamed into place, so a half-written entry is never posted.
/// </summary>
/// <param name="time">Orders the entries (oldest first); the agent's clock, the system's unless a test fakes
/// it.</param>
public sealed class RunSpool(string root, TimeProvider? time = null)
{
    private readonly TimeProvider _time = time ?? TimeProvider.System;

    private const string EntryFile = "entry.json";
    private const string TempDir = ".tmp";
    public const string RejectedDir = "rejected";

    public string Root => root;

    // Profile is absent from the entries of agents that spooled result sets only: they read as result sets.
    private sealed record EntryJson(
        string Key,
        RunMetadata? Run,
        DateTimeOffset SpooledAt,
        ProfileUploadMetadata? Profile = null
    );

    /// <exception cref="IOException">The disk is full or the spool is not writable; nothing was kept.</exception>
    public void Write(string key, RunMetadata run, IReadOnlyList<Artifact> files) =>
        Write(new EntryJson(key, run, _time.GetUtcNow()), files);

    /// <exception cref="IOException">The disk is full or the spool is not writable; nothing was kept.</exception>
    public void Write(string key, ProfileUploadMetadata profile, Artifact file) =>
        Write(new EntryJson(key, null, _time.GetUtcNow(), profile), [file]);

    private void Write(EntryJson entry, IReadOnlyList<Artifact> files)
    {
        var key = entry.Key;
        var temp = Path.Combine(root, TempDir, Guid.NewGuid().ToString("N"));
        try
        {
            foreach (var file in files)
            {
                var path = Contained(Path.Combine(temp, "files"), file.Path);
                Directory.CreateDirectory(Path.GetDirectoryName(path)!);
                File.WriteAllBytes(path, file.Content.ToArray());
            }
            Directory.CreateDirectory(temp);
            File.WriteAllText(Path.Combine(temp, EntryFile), JsonSerializer.Serialize(entry, PerfServiceClient.Json));
            var target = Path.Combine(root, DirectoryName(key));
            // A newer upload under the same key replaces one that was never posted: the service keeps one per key
            // anyway.
            if (Directory.Exists(target))
                Directory.Delete(target, recursive: true);
            Directory.Move(temp, target);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            TryDelete(temp);
            throw new IOException($"cannot write to the spool {root}: {e.Message}", e);
        }
    }

    /// <summary>Keys waiting to be posted, oldest first. Leftovers of writes cut short are removed.</summary>
    public IReadOnlyList<string> Pending()
    {
        if (!Directory.Exists(root))
            return [];
        TryDelete(Path.Combine(root, TempDir));
        var entries = new List<EntryJson>();
        foreach (
            var dir in Directory
                .EnumerateDirectories(root)
                .Where(d => Path.GetFileName(d) is not (TempDir or RejectedDir))
        )
        {
            try
            {
                entries.Add(ReadEntry(dir));
            }
            catch (Exception e) when (e is IOException or JsonException or NullReferenceException)
            {
                // Not something this agent wrote (or damaged by hand): set it aside rather than fail every drain.
                MoveToRejected(dir, $"unreadable spool entry: {e.Message}");
            }
        }
        return entries.OrderBy(e => e.SpooledAt).Select(e => e.Key).ToList();
    }

    private static EntryJson ReadEntry(string dir) =>
        JsonSerializer.Deserialize<EntryJson>(File.ReadAllText(Path.Combine(dir, EntryFile)), PerfServiceClient.Json)
            is { } entry
        && (entry.Run is null) != (entry.Profile is null)
            ? entry
            : throw new IOException($"{dir}/{EntryFile} holds neither a result set nor a profile");

    public SpoolEntry Read(string key)
    {
        var dir = Path.Combine(root, DirectoryName(key));
        var entry = ReadEntry(dir);
        var filesDir = Path.Combine(dir, "files");
        var files = Directory.Exists(filesDir)
            ? Directory
                .EnumerateFiles(filesDir, "*", SearchOption.AllDirectories)
                .Select(f => new Artifact(
                    Path.GetRelativePath(filesDir, f).Replace(Path.DirectorySeparatorChar, '/'),
                    File.ReadAllBytes(f)
                ))
                .OrderBy(a => a.Path, StringComparer.Ordinal)
                .ToList()
            : [];
        return new SpoolEntry(entry.Key, entry.Run, files, entry.Profile);
    }

    public void Delete(string key) => TryDelete(Path.Combine(root, DirectoryName(key)));

    /// <summary>The service refused it: keep it for a human under rejected/, with the reason, and stop posting
    /// it.</summary>
    public void Reject(string key, string reason) => MoveToRejected(Path.Combine(root, DirectoryName(key)), reason);

    private void MoveToRejected(string from, string reason)
    {
        var to = Path.Combine(root, RejectedDir, $"{Path.GetFileName(from)}-{_time.GetUtcNow():yyyyMMddHHmmssfff}");
        Directory.CreateDirectory(Path.GetDirectoryName(to)!);
        Directory.Move(from, to);
        File.WriteAllText(Path.Combine(to, "rejected.txt"), reason + "\n");
    }

    /// <summary>The key as a folder name: unsafe characters become '_', plus a hash when anything was replaced so
    /// that two keys never share a folder.</summary>
    public static string DirectoryName(string key)
    {
        var safe = new string(
            key.Select(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.' ? c : '_').ToArray()
        );
        if (safe == key && !key.StartsWith('.'))
            return key;
        return $"{safe.TrimStart('.')}-{Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(key)))[..8]}";
    }

    private static string Contained(string dir, string relative)
    {
        var full = Path.GetFullPath(Path.Combine(dir, relative));
        if (!full.StartsWith(Path.GetFullPath(dir) + Path.DirectorySeparatorChar, StringComparison.Ordinal))
            throw new IOException($"file path {relative} leaves the spool entry");
        return full;
    }

    private static void TryDelete(string dir)
    {
        try
        {
            if (Directory.Exists(dir))
                Directory.Delete(dir, recursive: true);
        }
        catch (IOException)
        {
            // Best effort: a leftover is cleaned on the next Pending().
        }
    }
}
