using System.Buffers.Text;
using System.Globalization;
using System.Text;

namespace PerfService.Hosting.Http;

/// <summary>
/// Opaque page cursors: base64url of the last row's sort key (an id, or "ticks:id" where the order is by time).
/// Clients only pass back the <c>next</c> link they were given.
/// </summary>
internal static class Cursor
{
    public static string Encode(long id) => Encode(id.ToString(CultureInfo.InvariantCulture));

    public static string Encode(DateTimeOffset at, long id) =>
        Encode(at.UtcTicks.ToString(CultureInfo.InvariantCulture) + ":" + id.ToString(CultureInfo.InvariantCulture));

    public static bool TryDecodeId(string? cursor, out long id)
    {
        id = 0;
        return Decode(cursor) is { } text
            && long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out id);
    }

    public static bool TryDecodeTimeAndId(string? cursor, out DateTimeOffset at, out long id)
    {
        at = default;
        id = 0;
        var parts = Decode(cursor)?.Split(':');
        if (
            parts is not [var ticks, var last]
            || !long.TryParse(ticks, NumberStyles.None, CultureInfo.InvariantCulture, out var t)
            || t > DateTimeOffset.MaxValue.UtcTicks
            || !long.TryParse(last, NumberStyles.None, CultureInfo.InvariantCulture, out id)
        )
            return false;
        at = new DateTimeOffset(t, TimeSpan.Zero);
        return true;
    }

    /// <summary>The request's own URL with the cursor replaced: the <c>next</c> link of a page.</summary>
    public static string NextLink(HttpRequest request, string cursor)
    {
        var query = request
            .Query.Where(q => q.Key != "cursor")
            .SelectMany(q => q.Value.Select(v => KeyValuePair.Create(q.Key, v)))
            .Append(KeyValuePair.Create("cursor", (string?)cursor));
        return request.PathBase + request.Path + QueryString.Create(query);
    }

    private static string Encode(string text) => Base64Url.EncodeToString(Encoding.UTF8.GetBytes(text));

    private static string? Decode(string? cursor)
    {
        if (string.IsNullOrEmpty(cursor) || cursor.Length > 100)
            return null;
        try
        {
            return Encoding.UTF8.GetString(Base64Url.DecodeFromChars(cursor));
        }
        catch (FormatException)
        {
            return null;
        }
    }
}
