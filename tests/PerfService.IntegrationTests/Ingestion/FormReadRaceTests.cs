using System.Text;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using static PerfService.IntegrationTests.Ingestion.BareUploads;

namespace PerfService.IntegrationTests.Ingestion;

/// <summary>
/// ASP.NET Core's <c>FormFeature.ReadFormAsync</c> stores the read's task in a field and returns the field, which the
/// read clears as it publishes the form on another thread; on a saturated machine it returned null now and then, and
/// the upload failed with a 500 (UploadReader.ReadFormAsync). No test can time that race; this one leaves the state it
/// leaves: no task, and the form published a moment later.
/// </summary>
public class FormReadRaceTests
{
    [Fact]
    public async Task A_form_read_that_returns_no_task_still_yields_the_upload_once_the_form_is_published()
    {
        var file = Encoding.UTF8.GetBytes("""{"results": []}""");
        var form = new FormCollection(
            new() { ["run"] = """{"project": "race", "commit": "abc123", "profile": "ryzen"}""" },
            new FormFileCollection { new FormFile(new MemoryStream(file), 0, file.Length, "files", "out/r.json") }
        );
        var http = Request(Stream.Null, CancellationToken.None);
        var raced = new RacedFormFeature(form);
        http.Features.Set<IFormFeature>(raced);

        using var upload = await Reader.ReadAsync(http.Request, CancellationToken.None);

        Assert.Equal("race", upload.Metadata.Project);
        var stored = Assert.Single(upload.Files);
        Assert.Equal("out/r.json", stored.Path);
        Assert.Equal(file, stored.Content.ToArray());
        Assert.Equal(1, raced.ReadsWithoutTask);
    }

    /// <summary>The feature as the race leaves it: reading returns no task; the form is there when the framework's
    /// extension looks (so it keeps this feature), then missing for two looks (the read has cleared its task and not yet
    /// stored the form), then there.</summary>
    private sealed class RacedFormFeature(IFormCollection form) : IFormFeature
    {
        private int _looks;

        public int ReadsWithoutTask { get; private set; }

        public bool HasFormContentType => true;

        public IFormCollection? Form
        {
            get => ++_looks is 2 or 3 ? null : form;
            set => throw new InvalidOperationException("the reader never sets the form");
        }

        public IFormCollection ReadForm() => throw new InvalidOperationException("the reader reads asynchronously");

        public Task<IFormCollection> ReadFormAsync(CancellationToken cancellationToken)
        {
            ReadsWithoutTask++;
            return null!;
        }
    }
}
