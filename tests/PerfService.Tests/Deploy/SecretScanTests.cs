using System.Text.RegularExpressions;

namespace PerfService.Tests.Deploy;

/// <summary>Nothing under deploy/ looks like a real secret: tokens, private keys, passwords are placeholders only.</summary>
public sealed partial class SecretScanTests
{
    [Fact]
    public void NoFileUnderDeployHoldsSomethingThatLooksLikeASecret()
    {
        var files = Directory.EnumerateFiles(DeployFiles.DeployDir, "*", SearchOption.AllDirectories).ToList();
        Assert.NotEmpty(files);
        var findings = files.SelectMany(f => Findings(File.ReadAllText(f)).Select(x => $"{DeployFiles.Relative(f)}: {x}")).ToList();
        Assert.True(findings.Count == 0, string.Join("\n", findings));
    }

    [Fact]
    public void TheScanFindsRealLookingSecrets()
    {
        // Made up at run time, so that no file of the repository holds one.
        var random = Convert.ToBase64String(Enumerable.Range(0, 48).Select(i => (byte)(i * 37 + 11)).ToArray());
        var token = "perf_" + random.Replace('+', '-').Replace('/', '_').TrimEnd('=')[..43];
        Assert.NotEmpty(Findings($"PERF_TOKEN={token}"));
        Assert.NotEmpty(Findings($"-----BEGIN RSA PRIVATE KEY-----\n{random}\n{random}\n-----END RSA PRIVATE KEY-----"));
        Assert.NotEmpty(Findings($"GitHub__PrivateKeyPem=-----BEGIN PRIVATE KEY-----\\n{random}\\n-----END PRIVATE KEY-----"));
        Assert.NotEmpty(Findings("Host=db;Password=hunter2;Database=perf"));
        Assert.NotEmpty(Findings("ghp_" + new string('a', 36)));
        // ... and leaves placeholders alone.
        Assert.Empty(Findings("PERF_TOKEN=REPLACE_ME_AGENT_TOKEN\nHost=db;Password=REPLACE_ME;Database=perf\nPassword=${POSTGRES_PASSWORD:?set it}"));
        Assert.Empty(Findings("-----BEGIN RSA PRIVATE KEY-----\nREPLACE_ME_WITH_THE_GITHUB_APP_PRIVATE_KEY\n-----END RSA PRIVATE KEY-----"));
    }

    internal static IEnumerable<string> Findings(string text)
    {
        foreach (Match m in PerfToken().Matches(text)) yield return $"a PerfService token ({m.Value[..9]}...)";
        foreach (Match m in GitHubToken().Matches(text)) yield return $"a GitHub token ({m.Value[..6]}...)";
        foreach (Match m in PrivateKey().Matches(text))
        {
            // A key body is base64: a long run of it is a key, a placeholder word is not.
            if (Base64Run().IsMatch(m.Groups["body"].Value.Replace("\\n", "\n", StringComparison.Ordinal))) yield return "a PEM private key";
        }
        foreach (Match m in Password().Matches(text))
        {
            var value = m.Groups["value"].Value;
            if (!value.StartsWith('$') && !value.Contains("REPLACE_ME", StringComparison.Ordinal)) yield return "a password in a connection string";
        }
    }

    [GeneratedRegex(@"perf_[A-Za-z0-9_-]{40,}")]
    private static partial Regex PerfToken();

    [GeneratedRegex(@"\b(gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})")]
    private static partial Regex GitHubToken();

    [GeneratedRegex(@"-----BEGIN [A-Z ]*PRIVATE KEY-----(?<body>.*?)-----END [A-Z ]*PRIVATE KEY-----", RegexOptions.Singleline)]
    private static partial Regex PrivateKey();

    [GeneratedRegex(@"[A-Za-z0-9+/]{40,}")]
    private static partial Regex Base64Run();

    [GeneratedRegex(@"Password=(?<value>[^;""'\s]+)", RegexOptions.IgnoreCase)]
    private static partial Regex Password();
}
