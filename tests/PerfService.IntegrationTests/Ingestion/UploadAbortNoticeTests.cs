using System.Text;
using PerfService.Ingestion;
using static PerfService.IntegrationTests.Ingestion.BareUploads;

namespace PerfService.IntegrationTests.Ingestion;

/// <summary>
/// The order Kestrel reports a dropped connection in: the request body fails at once, and <c>RequestAborted</c> is
/// cancelled afterwards from the thread pool, so on a busy machine the reader sees the failure first, of whatever kind
/// the moment of the drop gave. Over a real socket the order cannot be chosen (UploadAbortTests cuts real uploads); here
/// the body fails mid-way and the abort is announced after it, or never. (The load test's rare 500, a
/// NullReferenceException at ReadFormAsync, was no abort but a race in the framework's form read: FormReadRaceTests.)
/// </summary>
public class UploadAbortNoticeTests
{
    [Fact]
    public async Task A_body_that_fails_before_the_abort_is_announced_is_a_client_abort_not_a_server_error()
    {
        using var aborted = new CancellationTokenSource();
        // The abort is announced as Kestrel announces it, after the body has failed: here 200 ms later, as when the
        // thread pool is busy.
        var http = Request(new FailingBody(() => aborted.CancelAfter(TimeSpan.FromMilliseconds(200))), aborted.Token);

        var e = await Assert.ThrowsAsync<UploadException>(() => Reader.ReadAsync(http.Request, CancellationToken.None));
        Assert.Equal(UploadReader.ClientClosedRequest, e.Status);
    }

    [Fact]
    public async Task A_failure_without_an_abort_stays_the_services_own()
    {
        using var never = new CancellationTokenSource();
        var http = Request(new FailingBody(() => { }), never.Token);

        var started = TimeProvider.System.GetTimestamp();
        await Assert.ThrowsAsync<NullReferenceException>(() => Reader.ReadAsync(http.Request, CancellationToken.None));
        // It waited for an abort that did not come, then let the failure through (a 500 and an error in the log).
        Assert.True(TimeProvider.System.GetElapsedTime(started) >= UploadReader.AbortNotice - TimeSpan.FromMilliseconds(50));
    }

    /// <summary>A multipart body whose second read fails as the form reader failed under load, then runs
    /// <c>onFailure</c> (the abort's announcement, if any).</summary>
    private sealed class FailingBody(Action onFailure) : MemoryStream(Encoding.ASCII.GetBytes(
        "--b\r\nContent-Disposition: form-data; name=\"files\"; filename=\"r.json\"\r\n\r\n{\"results\": [" + new string(' ', 8192)))
    {
        private int _reads;

        public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
        {
            if (++_reads < 2) return base.ReadAsync(buffer[..Math.Min(buffer.Length, 256)], cancellationToken);
            onFailure();
            throw new NullReferenceException("Object reference not set to an instance of an object.");
        }

        public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
            ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();
    }
}
