namespace PerfService.TestSupport;

public static class Eventually
{
    /// <summary>Polls until <paramref name="done"/> holds or the timeout passes; returns the last value either way.</summary>
    public static async Task<T> WaitAsync<T>(Func<Task<T>> probe, Func<T, bool> done, TimeSpan timeout, int pollMs = 200)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (true)
        {
            var value = await probe();
            if (done(value) || DateTime.UtcNow > deadline) return value;
            await Task.Delay(pollMs);
        }
    }

    public static Task<bool> TrueAsync(Func<bool> condition, TimeSpan timeout) =>
        WaitAsync(() => Task.FromResult(condition()), b => b, timeout, 100);
}
