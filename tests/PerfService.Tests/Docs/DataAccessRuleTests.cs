using System.Text.RegularExpressions;
using PerfService.Tests.Deploy;

namespace PerfService.Tests.Docs;

/// <summary>
/// STYLE.md's data-access rule holds in <c>src/PerfService</c>: SQL is sent in two ways only (EF's interpolated
/// <c>SqlQuery</c>/<c>ExecuteSql</c>, and the NpgsqlDataSource for COPY, streamed reads and LISTEN), only by the files
/// STYLE.md lists with their way, and columns are never read by position. A pure scan of the source files.
/// </summary>
public sealed partial class DataAccessRuleTests
{
    private static string Source => Path.Combine(DeployFiles.RepoRoot, "src", "PerfService");

    [Fact]
    public void EverySqlSenderIsListedWithItsWayAndNothingElseSendsSql()
    {
        var listed = ListedFiles();
        Assert.NotEmpty(listed);
        var findings = new List<string>();
        var senders = new Dictionary<string, HashSet<string>>();
        foreach (var file in SourceFiles())
        {
            var relative = Path.GetRelativePath(Source, file).Replace('\\', '/');
            var lines = File.ReadAllLines(file);
            foreach (var f in Findings(lines))
            {
                if (f.Way is null) findings.Add($"src/PerfService/{relative}:{f.Line}: {f.What}");
                else
                {
                    (senders.TryGetValue(relative, out var ways) ? ways : senders[relative] = []).Add(f.Way);
                    var where = $"src/PerfService/{relative}:{f.Line}: sends SQL through {f.Way} ({f.What})";
                    if (!listed.TryGetValue(relative, out var way)) findings.Add($"{where} but is not listed in STYLE.md's data-access table");
                    else if (way != f.Way) findings.Add($"{where}; STYLE.md lists it as {way}");
                }
            }
        }
        foreach (var (file, way) in listed.Where(l => !senders.ContainsKey(l.Key)))
            findings.Add($"STYLE.md lists src/PerfService/{file} ({way}), which sends no SQL (or does not exist): take it off");
        Assert.True(findings.Count == 0, string.Join("\n", findings));
    }

    [Fact]
    public void TheScanFindsEachWayAThirdWayAndPositionalReads()
    {
        Assert.Equal(["EF"], Ways("        var rows = await db.Database.SqlQuery<Row>($\"SELECT id FROM runs\").ToListAsync(ct);"));
        Assert.Equal(["EF"], Ways("        await db.Database.ExecuteSqlAsync($\"SELECT pg_notify({Channel}, '')\", ct);"));
        Assert.Equal(["Npgsql"], Ways("        await using var cmd = dataSource.CreateCommand(Sql);"));
        Assert.Equal(["Npgsql"], Ways("        await using var copy = await conn.BeginBinaryImportAsync(\"COPY results FROM STDIN (FORMAT BINARY)\", ct);"));
        Assert.Equal(["Npgsql"], Ways("        await using var cmd = new NpgsqlCommand(\"LISTEN x\", conn);"));

        Assert.Single(Problems("        await db.Database.ExecuteSqlRawAsync(\"DELETE FROM runs\");"));
        Assert.Single(Problems("        db.Database.ExecuteSqlInterpolatedAsync($\"DELETE FROM runs WHERE id = {id}\");"));
        Assert.Single(Problems("        db.SeriesStates.FromSqlInterpolated($\"SELECT * FROM series_states\");"));
        Assert.Single(Problems("        db.Runs.FromSql($\"SELECT * FROM runs\");"));
        Assert.Single(Problems("        db.Database.SqlQueryRaw<long>(\"SELECT 1\");"));
        Assert.Single(Problems("        var conn = db.Database.GetDbConnection();"));
        Assert.Single(Problems("        db.Database.SqlQuery<long>(FormattableStringFactory.Create(sql, id));"));
        Assert.Single(Problems("        var id = reader.GetInt64(0);"));
        Assert.Single(Problems("        if (r.IsDBNull(3)) return null;"));
        Assert.Single(Problems("        var at = reader.GetFieldValue<DateTimeOffset>(5);"));
        Assert.Single(Problems("        await using var stored = await reader.GetStreamAsync(0, ct);"));

        // Reads by name, ordinals looked up by name, and look-alikes that send no SQL pass.
        Assert.Empty(Findings([
            "        var (id, sha) = (reader.GetOrdinal(\"id\"), reader.GetOrdinal(\"sha\"));",
            "        found[reader.GetInt64(id)] = reader.GetString(sha);",
            "        var holder = r.IsDBNull(\"name\") ? \"?\" : r.GetString(\"name\");",
            "        return Prefix + Base64Url(RandomNumberGenerator.GetBytes(32));",
            "            CreateCommand(services), ListCommand(services),",
            "        // dataSource.CreateCommand(\"SELECT 1\") in a comment is not a call",
        ]));
    }

    [Fact]
    public void AFindingNamesTheLine()
    {
        var finding = Assert.Single(Findings(["using Npgsql;", "", "        var id = reader.GetInt64(0);"]));
        Assert.Equal(3, finding.Line);
        Assert.Contains("GetInt64(0)", finding.What);
    }

    private sealed record Finding(int Line, string? Way, string What);

    private static List<string> Ways(string line) => Findings([line]).Select(f => f.Way ?? "problem: " + f.What).ToList();

    private static List<Finding> Problems(string line) => Findings([line]).Where(f => f.Way is null).ToList();

    /// <summary>Per line (1-based): SQL sent through a way (<c>Way</c> "EF" or "Npgsql"), or a problem (<c>Way</c> null).</summary>
    private static IEnumerable<Finding> Findings(IReadOnlyList<string> lines)
    {
        for (var i = 0; i < lines.Count; i++)
        {
            var code = lines[i].TrimStart();
            if (code.StartsWith("//", StringComparison.Ordinal)) continue;
            foreach (Match m in ThirdWay().Matches(code))
                yield return new Finding(i + 1, null,
                    $"{m.Value}: a third way of sending SQL (use SqlQuery/ExecuteSql interpolated, or the NpgsqlDataSource)");
            foreach (Match m in Positional().Matches(code))
                yield return new Finding(i + 1, null,
                    $"{m.Value.TrimStart('.')}: a column read by position (read it by name: GetOrdinal(\"name\") once per reader)");
            if (EfWay().Match(code) is { Success: true } ef) yield return new Finding(i + 1, "EF", Call(ef));
            if (NpgsqlWay().Match(code) is { Success: true } npgsql) yield return new Finding(i + 1, "Npgsql", Call(npgsql));
        }
    }

    private static string Call(Match m) => m.Value.TrimStart('.').TrimEnd('(').Trim();

    private static IEnumerable<string> SourceFiles() =>
        Directory.EnumerateFiles(Source, "*.cs", SearchOption.AllDirectories)
            .Where(f => !Path.GetRelativePath(Source, f).Replace('\\', '/').Split('/').Any(part => part is "bin" or "obj"))
            .Order(StringComparer.Ordinal);

    /// <summary>The rows <c>| `path` | EF or Npgsql | …</c> of STYLE.md's "Data access" section.</summary>
    private static Dictionary<string, string> ListedFiles()
    {
        var style = File.ReadAllText(Path.Combine(DeployFiles.RepoRoot, "STYLE.md"));
        var start = style.IndexOf("## Data access", StringComparison.Ordinal);
        Assert.True(start >= 0, "STYLE.md has no '## Data access' section");
        var end = style.IndexOf("\n## ", start + 1, StringComparison.Ordinal);
        var section = end < 0 ? style[start..] : style[start..end];
        return ListedRow().Matches(section).ToDictionary(m => m.Groups["file"].Value, m => m.Groups["way"].Value);
    }

    [GeneratedRegex(@"^\| `(?<file>[^`]+\.cs)` \| (?<way>EF|Npgsql) \|", RegexOptions.Multiline)]
    private static partial Regex ListedRow();

    [GeneratedRegex(@"\.(SqlQuery|ExecuteSql|ExecuteSqlAsync)\b(?!Raw|Interpolated)")]
    private static partial Regex EfWay();

    [GeneratedRegex(@"\bnew Npgsql(Batch)?Command\b|\bNpgsqlBatchCommand\b|\.(CreateCommand|CreateBatch)\(|\.Begin(BinaryImport|BinaryExport|TextImport|TextExport|RawBinaryCopy)(Async)?\(|\.Execute(Reader|NonQuery|Scalar)(Async)?\(")]
    private static partial Regex NpgsqlWay();

    [GeneratedRegex(@"\b(ExecuteSqlRaw|ExecuteSqlInterpolated|SqlQueryRaw|FromSqlRaw|FromSqlInterpolated|GetDbConnection|FormattableStringFactory)\w*|\.FromSql\(|\bnew (Sql|Db|Odbc|OleDb)Command\b")]
    private static partial Regex ThirdWay();

    // A data reader's getters with a literal ordinal; GetBytes/GetChars only with their reader arity (a buffer follows).
    [GeneratedRegex(@"\.(Get(Boolean|Byte|Char|DateTime|Decimal|Double|FieldValue|FieldValueAsync|Float|Guid|Int16|Int32|Int64|String|Stream|StreamAsync|TextReader|TextReaderAsync|Value|TimeSpan|DataTypeName|FieldType|Name|PostgresType|Data)|IsDBNull|IsDBNullAsync)(<[^>()]*>)?\(\s*\d+\s*[,)]|\.Get(Bytes|Chars)\(\s*\d+\s*,")]
    private static partial Regex Positional();
}
