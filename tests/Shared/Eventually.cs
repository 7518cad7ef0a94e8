namespace PerfService.TestSupport;

/// <summary>
/// The one way tests wait for something that happens in the background: poll a probe until it holds or a timeout
/// passes, and return the last value either way so that the assertion after it can say what was seen instead.
/// </summary>
internal static class Eventually
{
    /// <summary>Generous: background jobs queue behind every other test class's on a loaded 2-core machine.</summary>
    public static readonly TimeSpan DefaultTimeout = TimeSpan.FromSeconds(180);

    public static async Task<T> WaitAsync<T>(Func<Task<T>> probe, Func<T, bool> done, TimeSpan? timeout = null, int pollMs = 200)
    {
        var deadline = DateTime.UtcNow + (timeout ?? DefaultTimeout);
        while (true)
        {
            // ConfigureAwait(false) so that the blocking form below cannot deadlock on a test framework's context.
            var value = await probe().ConfigureAwait(false);
            if (done(value) || DateTime.UtcNow > deadline) return value;
            // The poll interval: the one pause behind every wait on state in the tests.
            await Task.Delay(pollMs).ConfigureAwait(false);
        }
    }

    public static Task<bool> TrueAsync(Func<bool> condition, TimeSpan? timeout = null, int pollMs = 100) =>
        WaitAsync(() => Task.FromResult(condition()), b => b, timeout, pollMs);

    public static Task<bool> TrueAsync(Func<Task<bool>> condition, TimeSpan? timeout = null, int pollMs = 200) =>
        WaitAsync(condition, b => b, timeout, pollMs);

    /// <summary>The blocking form, for synchronous callers such as Selenium's driver.</summary>
    public static bool True(Func<bool> condition, TimeSpan timeout, int pollMs = 100) =>
        TrueAsync(condition, timeout, pollMs).GetAwaiter().GetResult();
}
