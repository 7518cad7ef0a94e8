using System.Buffers;
using System.Diagnostics;
using System.IO.Compression;
using System.Text.Json;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.Options;
using PerfService.Core.Contracts;
using PerfService.Core.Parsing;

namespace PerfService.Ingestion;

/// <summary>
/// Reads <c>POST /api/v1/runs</c>: multipart/form-data with a <c>run</c> part (RunMetadata as JSON) and one
/// <c>files</c> part per file, named by its path relative to the upload root. Enforces the size limits and refuses
/// unsafe paths before anything is parsed or stored.
/// </summary>
public sealed class UploadReader(IOptions<IngestOptions> options, TimeProvider time, ILogger<UploadReader> logger)
{
    /// <summary>nginx's "client closed request": the answer to a request its client gave up on; nobody reads
    /// it.</summary>
    public const int ClientClosedRequest = 499;

    /// <summary>How long a failed read waits for the request to be seen aborted: Kestrel fails the body as soon as the
    /// connection drops, but cancels <c>RequestAborted</c> later, from the thread pool
    /// (<c>HttpProtocol.CancelRequestAbortedToken</c> schedules it), and on a busy machine that can come well after the
    /// read failed.</summary>
    public static readonly TimeSpan AbortNotice = TimeSpan.FromSeconds(2);

    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web) { MaxDepth = 16 };
    private readonly IngestOptions _options = options.Value;

    /// <summary>
    /// Reads the upload. A client that gives up half-way (a timeout, a killed agent, a reset connection) makes the
    /// framework's form reader fail in whatever way the moment of the reset gives (an I/O error, a cancellation, or
    /// worse): once the request is aborted, every such failure is the client's, logged as an abort and answered 499,
    /// never a 500. The abort may be announced after the failure (<see cref="AbortNotice"/>): a failure of any other
    /// kind waits for it that long before it is taken for the service's own.
    /// </summary>
    public async Task<Upload> ReadAsync(HttpRequest request, CancellationToken ct)
    {
        try
        {
            return await ReadUploadAsync(request, ct);
        }
        catch (Exception e) when (e is not UploadException)
        {
            if (!await AbortedAsync(request.HttpContext.RequestAborted))
                throw;
            // The client is gone: end the connection here, so that Kestrel does not try to drain a body whose reader
            // the failed read may have left marked as reading (it would log that as an error of its own).
            request.HttpContext.Abort();
            logger.LogInformation(
                "Upload aborted by the client ({Length} bytes announced; {Error}: {Message})",
                request.ContentLength,
                e.GetType().Name,
                e.Message
            );
            throw new UploadException(
                ClientClosedRequest,
                "Client closed request",
                "the client closed the connection before the upload was read"
            );
        }
    }

    private async Task<bool> AbortedAsync(CancellationToken aborted)
    {
        if (aborted.IsCancellationRequested)
            return true;
        try
        {
            await Task.Delay(AbortNotice, time, aborted);
            return false;
        }
        catch (OperationCanceledException)
        {
            return true;
        }
    }

    private async Task<Upload> ReadUploadAsync(HttpRequest request, CancellationToken ct)
    {
        if (request.ContentLength > _options.MaxBodyBytes)
            throw TooLarge($"the body is {request.ContentLength} bytes");
        var sizeFeature = request.HttpContext.Features.Get<IHttpMaxRequestBodySizeFeature>();
        if (sizeFeature is { IsReadOnly: false })
            sizeFeature.MaxRequestBodySize = _options.MaxBodyBytes;
        if (!request.HasFormContentType)
            throw new UploadException(
                415,
                "Unsupported media type",
                "expected multipart/form-data with a 'run' part and 'files' parts"
            );

        IFormCollection form;
        try
        {
            form = await ReadFormAsync(
                request,
                new FormOptions
                {
                    MultipartBodyLengthLimit = _options.MaxBodyBytes,
                    ValueLengthLimit = 1024 * 1024,
                    ValueCountLimit = _options.MaxFiles + 16,
                }
            );
        }
        catch (InvalidDataException e) when (e.Message.Contains("limit", StringComparison.OrdinalIgnoreCase))
        {
            throw TooLarge(e.Message);
        }
        catch (BadHttpRequestException e) when (e.StatusCode == StatusCodes.Status413PayloadTooLarge)
        {
            throw TooLarge(e.Message);
        }
        catch (BadHttpRequestException e) when (!request.HttpContext.RequestAborted.IsCancellationRequested)
        {
            // The body ended early (400) or came too slowly (408, Kestrel's minimum data rate): the client's doing.
            throw new UploadException(
                e.StatusCode,
                "Malformed upload",
                $"the multipart body could not be read: {e.Message}"
            );
        }
        catch (Exception e)
            when (e is InvalidDataException or IOException
                && !request.HttpContext.RequestAborted.IsCancellationRequested
            )
        {
            throw new UploadException(400, "Malformed upload", $"the multipart body could not be read: {e.Message}");
        }

        var metadata = ReadMetadata(form);
        if (form.Files.Count == 0)
            throw new UploadException(400, "No files", "the upload has no 'files' parts: attach the harness's output");
        if (form.Files.Count > _options.MaxFiles)
            throw TooLarge($"{form.Files.Count} files, at most {_options.MaxFiles} are accepted");

        var files = new List<Artifact>(form.Files.Count);
        var spooled = new List<IDisposable>();
        var budget = new UploadBudget(_options.MaxFileBytes, _options.MaxRequestBytes);
        try
        {
            foreach (var file in form.Files)
            {
                var path = SafePath.Check(file.FileName);
                files.Add(new Artifact(path, await ReadFileAsync(file, path, budget, spooled, ct)));
            }
            var duplicate = files.GroupBy(f => f.Path).FirstOrDefault(g => g.Count() > 1);
            if (duplicate is not null)
                throw new UploadException(400, "Duplicate file", $"'{duplicate.Key}' is uploaded twice", duplicate.Key);
        }
        catch
        {
            foreach (var s in spooled)
                s.Dispose();
            throw;
        }
        return new Upload(metadata, files) { Spooled = spooled };
    }

    /// <summary>How long a form read that returned no task may take to publish its form (<see
    /// cref="ReadFormAsync"/>): the read's own thread sets it right after the store the caller raced with.</summary>
    private static readonly TimeSpan FormPublishWait = TimeSpan.FromSeconds(1);

    /// <summary>
    /// ASP.NET Core's form read, guarded against a race inside it. <c>FormFeature.ReadFormAsync</c> stores the read's
    /// task in a field and then returns that field; the read, finishing on another thread, clears the field as it
    /// publishes the form. A caller preempted between the store and the return gets no task, and awaiting it threw a
    /// <see cref="NullReferenceException"/> with no frame of the framework's below ours (about one upload in 2,000 on a
    /// saturated 2-core machine under <c>./perf loadtest</c>, each a 500). The form is then read already, or about to
    /// be published.
    /// </summary>
    /// <remarks>Not the request's token: a read that ends by it leaves Kestrel's body reader marked as reading. A
    /// dropped connection fails the read by itself; a slow one meets Kestrel's minimum data rate.</remarks>
    private static async Task<IFormCollection> ReadFormAsync(HttpRequest request, FormOptions options)
    {
        var reading = request.ReadFormAsync(options, CancellationToken.None);
        if (reading is not null)
            return await reading;
        var feature = request.HttpContext.Features.GetRequiredFeature<IFormFeature>();
        var started = Stopwatch.GetTimestamp();
        var spin = new SpinWait();
        while (feature.Form is null)
        {
            if (Stopwatch.GetElapsedTime(started) > FormPublishWait)
                throw new InvalidOperationException(
                    "the form reader returned no task and published no form within " + FormPublishWait
                );
            spin.SpinOnce();
        }
        return feature.Form;
    }

    private static RunMetadata ReadMetadata(IFormCollection form)
    {
        string? json = form["run"];
        if (json is null && form.Files.GetFile("run") is { } runFile)
        {
            using var reader = new StreamReader(runFile.OpenReadStream());
            json = reader.ReadToEnd();
        }
        if (string.IsNullOrWhiteSpace(json))
            throw new UploadException(400, "Missing metadata", "the 'run' part (RunMetadata as JSON) is missing");
        if (Utf8Text.FirstReplaced(json) is { } field)
            throw new UploadException(
                400,
                "Malformed metadata",
                $"the 'run' part is not valid UTF-8 (at {field}): send the metadata as UTF-8 text",
                "run",
                field
            );
        try
        {
            return JsonSerializer.Deserialize<RunMetadata>(json, Json)
                ?? throw new UploadException(400, "Missing metadata", "the 'run' part is null");
        }
        catch (JsonException e)
        {
            throw new UploadException(
                400,
                "Malformed metadata",
                $"the 'run' part is not valid RunMetadata JSON: {e.Message}",
                "run",
                e.Path
            );
        }
    }

    /// <summary>Inflates one file, counting against the budget as it goes. Small files stay in memory; beyond the
    /// spool threshold the bytes go to a temporary file that is mapped, so a large file is never held twice.</summary>
    private async Task<ReadOnlyMemory<byte>> ReadFileAsync(
        IFormFile file,
        string path,
        UploadBudget budget,
        List<IDisposable> spooled,
        CancellationToken ct
    )
    {
        await using var raw = file.OpenReadStream();
        var gzipped = path.EndsWith(".gz", StringComparison.OrdinalIgnoreCase);
        await using var input = gzipped ? new GZipStream(raw, CompressionMode.Decompress) : raw;
        // Held in pooled blocks, returned when the upload is disposed as a spooled file is unmapped: arrays of their
        // own, the larger ones on the large-object heap, set off most of the web role's gen-2 collections under load.
        var memory = (MemoryStream?)PooledStreams.Get("upload");
        FileStream? spool = null;
        var chunk = ArrayPool<byte>.Shared.Rent(81920);
        long length = 0;
        try
        {
            int read;
            while ((read = await input.ReadAsync(chunk, ct)) > 0)
            {
                budget.Take(path, length, read, gzipped);
                length += read;
                if (spool is null && length > _options.SpoolThresholdBytes)
                {
                    spool = OpenSpool();
                    memory!.Position = 0;
                    await memory.CopyToAsync(spool, ct);
                    memory.Dispose();
                    memory = null;
                }
                if (spool is not null)
                    await spool.WriteAsync(chunk.AsMemory(0, read), ct);
                else
                    memory!.Write(chunk, 0, read);
            }
        }
        catch (InvalidDataException e)
        {
            spool?.Dispose();
            memory?.Dispose();
            throw new UploadException(400, "Malformed file", $"'{path}' is not valid gzip: {e.Message}", path);
        }
        catch
        {
            spool?.Dispose();
            memory?.Dispose();
            throw;
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(chunk);
        }
        if (memory is not null)
        {
            spooled.Add(memory);
            return memory.GetBuffer().AsMemory(0, (int)memory.Length);
        }
        await spool!.FlushAsync(ct);
        var mapped = MappedFile.Map(spool);
        spooled.Add(mapped);
        return mapped.Memory;
    }

    private FileStream OpenSpool()
    {
        var dir = string.IsNullOrEmpty(_options.SpoolDirectory) ? Path.GetTempPath() : _options.SpoolDirectory;
        Directory.CreateDirectory(dir);
        return new FileStream(
            Path.Combine(dir, $"perf-upload-{Guid.NewGuid():N}.tmp"),
            FileMode.CreateNew,
            FileAccess.ReadWrite,
            FileShare.None,
            81920,
            FileOptions.DeleteOnClose | FileOptions.Asynchronous
        );
    }

    internal static UploadException TooLarge(string detail, string? file = null) =>
        new(StatusCodes.Status413PayloadTooLarge, "Upload too large", detail, file);
}
