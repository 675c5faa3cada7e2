#!/usr/bin/env bash
# Every pending changeset must parse: a front matter of `"@warmstart/<package>": patch|minor|major` lines (either
# quote, blank lines allowed; none for a changeset that releases nothing) between two `---` fences. A markdown
# formatter once turned a closing fence into a heading, and the release (`changeset version`) would then have
# stopped with "could not parse changeset"; nothing else reads changesets before a release.
set -euo pipefail
cd "$(dirname "$0")/.."
bad=0
for f in .changeset/*.md; do
  [ "$(basename "$f")" = README.md ] && continue
  if ! awk 'NR == 1 { if ($0 != "---") exit 1; next }
            /^---$/ { closed = 1; exit }
            /^[ \t]*$/ { next }
            /^["\x27]@warmstart\/[a-z0-9-]+["\x27]: (patch|minor|major)$/ { bumps++; next }
            { exit 1 }
            END { exit closed ? 0 : 1 }' "$f"; then
    echo "bad changeset: $f: expected a front matter of '---', '\"@warmstart/<package>\": patch|minor|major' lines, '---'" >&2
    bad=1
  fi
done
exit "$bad"
