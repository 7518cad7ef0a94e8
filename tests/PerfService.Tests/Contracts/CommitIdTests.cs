using PerfService.Core.Contracts;

namespace PerfService.Tests.Contracts;

public class CommitIdTests
{
    [Theory]
    [InlineData("a1b2", true, false)]
    [InlineData("A1B2C3D4E5F6", true, false)]
    [InlineData("1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d", true, true)]
    [InlineData("1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d1a2b3c4d5e6f708192a3b4c", true, false)] // 63 digits
    [InlineData("1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d1a2b3c4d5e6f708192a3b4c5", true, true)] // 64: SHA-256
    [InlineData("1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d1a2b3c4d5e6f708192a3b4c5d", false, false)] // 65
    [InlineData("abc", false, false)]
    [InlineData("--upload-pack=touch /tmp/x", false, false)]
    [InlineData("-c", false, false)]
    [InlineData("HEAD~1", false, false)]
    [InlineData("main", false, false)]
    [InlineData("a1b2 ", false, false)]
    [InlineData("a1b2\n", false, false)] // a regex's '$' would let a trailing newline through
    [InlineData("", false, false)]
    [InlineData(null, false, false)]
    public void Only_hexadecimal_ids_pass_and_webhooks_need_full_ones(string? value, bool valid, bool full)
    {
        Assert.Equal(valid, CommitId.IsValid(value));
        Assert.Equal(full, CommitId.IsFull(value));
    }
}
