#!/usr/bin/env bash
# The line-length rule of STYLE.md: at most 2% of the C# lines under src/ may be longer than 120 characters (long
# string literals and URLs are the usual exceptions). Formatting comes from CSharpier (`dotnet csharpier format src`,
# width in .csharpierrc.json); this check keeps what the formatter cannot wrap (comments, literals) in bounds.
#   scripts/line-length.sh [LIMIT_PERCENT]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
limit="${1:-2}"
git ls-files 'src/*.cs' | xargs awk -v limit="$limit" '
  length($0) > 120 { long++; per[FILENAME]++ }
  END {
    share = NR ? 100 * long / NR : 0
    printf "lines: %d of %d C# lines in src/ are over 120 characters (%.2f%%; at most %s%%)\n", long, NR, share, limit
    if (share > limit) {
      print "lines: the files with the most:"
      n = 0
      for (f in per) order[++n] = per[f] " " f
      cmd = "sort -rn | head -10"
      for (i = 1; i <= n; i++) print "  " order[i] | cmd
      close(cmd)
      exit 1
    }
  }'
