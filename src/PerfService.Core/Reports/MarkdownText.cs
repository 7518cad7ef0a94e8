using System.Text;

namespace PerfService.Core.Reports;

/// <summary>
/// Makes user-supplied text (benchmark names, reasons, profile names) inert inside a GitHub markdown table cell:
/// no HTML, no formatting, no links (URLs, www. hosts, issue and commit references), no mentions, no broken rows.
/// Names come from anyone who can open a pull request.
/// </summary>
public static class MarkdownText
{
    public const int MaxCellLength = 300;

    public static string Escape(string? text, int maxLength = MaxCellLength)
    {
        if (string.IsNullOrEmpty(text))
            return "";
        var cut = text.Length > maxLength;
        var end = cut ? maxLength : text.Length;
        if (cut && char.IsHighSurrogate(text[end - 1]))
            end--;

        var sb = new StringBuilder(end + 16);
        var hexRun = 0;
        for (var i = 0; i < end; i++)
        {
            var c = text[i];
            // GitHub links a word of 7 or more hex digits to the commit it names: a zero-width space every 6 digits
            // leaves no such word (the space is a word boundary to GitHub, invisible to the reader).
            hexRun = char.IsAsciiHexDigit(c) ? hexRun + 1 : 0;
            if (hexRun > 6 && hexRun % 6 == 1)
                sb.Append(ZeroWidthSpace);
            if (Autolinks(text, i))
                sb.Append(ZeroWidthSpace);
            switch (c)
            {
                case '&':
                    sb.Append("&amp;");
                    break;
                case '<':
                    sb.Append("&lt;");
                    break;
                case '>':
                    sb.Append("&gt;");
                    break;
                // A zero-width space after '@' keeps "@org/team" in a benchmark name from notifying anyone.
                case '@':
                    sb.Append('@').Append(ZeroWidthSpace);
                    break;
                // "#123", "owner/repo#1" and "GH-123" are issue references: broken the same way.
                case '#':
                    sb.Append('#').Append(ZeroWidthSpace);
                    break;
                case '\\' or '|' or '`' or '*' or '_' or '[' or ']' or '~' or '$':
                    sb.Append('\\').Append(c);
                    break;
                case '\r' or '\n' or '\t':
                    if (sb.Length > 0 && sb[^1] != ' ')
                        sb.Append(' ');
                    break;
                // Bidirectional overrides can make a name read as something else ("Trojan Source").
                case >= '\u202A' and <= '\u202E' or >= '\u2066' and <= '\u2069':
                    break;
                default:
                    sb.Append(char.IsControl(c) ? '\uFFFD' : c);
                    break;
            }
        }
        if (cut)
            sb.Append('…');
        return sb.ToString();
    }

    private const string ZeroWidthSpace = "&#8203;";

    /// <summary>
    /// Whether GitHub would start a link at text[i], the rest of the rule "no links from user data": "://" of a URL
    /// (any scheme), the "." of a "www." host, the digits of "GH-123". A zero-width space before that character breaks
    /// the pattern GitHub's autolinker looks for.
    /// </summary>
    private static bool Autolinks(string text, int i) =>
        text[i] switch
        {
            ':' => i + 2 < text.Length && text[i + 1] == '/' && text[i + 2] == '/',
            '.' => i >= 3
                && text.AsSpan(i - 3, 3).Equals("www", StringComparison.OrdinalIgnoreCase)
                && (i == 3 || !char.IsAsciiLetterOrDigit(text[i - 4])),
            _ => char.IsAsciiDigit(text[i])
                && i >= 3
                && text[i - 1] == '-'
                && text.AsSpan(i - 3, 2).Equals("GH", StringComparison.OrdinalIgnoreCase),
        };

    /// <summary>An inline code span for text we generate ourselves (commit ids); anything odd falls back to
    /// escaping.</summary>
    public static string Code(string text) =>
        text.Length > 0 && text.All(c => char.IsAsciiLetterOrDigit(c) || c is '.' or '_' or '-')
            ? $"`{text}`"
            : Escape(text);

    /// <summary>An http(s) link target that cannot end the markdown link early; null for anything else.</summary>
    public static string? Url(string? url) =>
        Uri.TryCreate(url, UriKind.Absolute, out var uri)
        && (uri.Scheme == Uri.UriSchemeHttps || uri.Scheme == Uri.UriSchemeHttp)
            ? uri
                .AbsoluteUri.Replace("(", "%28", StringComparison.Ordinal)
                .Replace(")", "%29", StringComparison.Ordinal)
            : null;
}
