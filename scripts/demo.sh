#!/usr/bin/env bash
# The README's main-job command: installs what is missing, then runs the demo until Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh
# shellcheck source=scripts/bootstrap.sh
source scripts/bootstrap.sh
pnpm install --frozen-lockfile
pnpm turbo run build --filter=@warmstart/controller-manager... --output-logs=errors-only
cd e2e && exec node --conditions=@warmstart/source --import tsx src/demo.ts
