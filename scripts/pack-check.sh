#!/usr/bin/env bash
# Publishing check: every public package packs into a tarball that passes publint, installs with npm into an
# empty project outside the workspace, imports under Node, and type-checks against its shipped types.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=$(mktemp -d /tmp/warmstart-pack-XXXXXX)
trap 'rm -rf "$out"' EXIT
pkgs=()
for dir in packages/* apps/*; do
  [ -f "$dir/package.json" ] || continue
  node -e 'process.exit(require("./'"$dir"'/package.json").private ? 1 : 0)' || continue
  pkgs+=("$dir")
done
overrides="{}"
for dir in "${pkgs[@]}"; do
  name=$(node -p "require('./$dir/package.json').name")
  (cd "$dir" && pnpm exec publint --strict --pack pnpm >&2)
  tgz=$(cd "$dir" && pnpm pack --pack-destination "$out" 2>/dev/null | grep '\.tgz$' | tail -1)
  [ -f "$tgz" ] || tgz="$out/$(basename "$tgz")"
  overrides=$(node -e 'const o=JSON.parse(process.argv[1]); o[process.argv[2]]="file:"+process.argv[3]; console.log(JSON.stringify(o))' "$overrides" "$name" "$tgz")
  echo "packed $name -> $(basename "$tgz")"
done
consumer="$out/consumer"
mkdir -p "$consumer"
node -e '
  const o = JSON.parse(process.argv[1]);
  // The declarations of @kubernetes/client-node import "ws", so a strict consumer needs its types.
  const pkg = { name: "consumer", private: true, type: "module", dependencies: o, devDependencies: { "@types/ws": "^8", "@types/node": "^24" }, overrides: o };
  require("fs").writeFileSync(process.argv[2] + "/package.json", JSON.stringify(pkg, null, 2));
' "$overrides" "$consumer"
(cd "$consumer" && npm install --no-audit --no-fund --silent >&2)
names=()
for dir in "${pkgs[@]}"; do names+=("$(node -p "require('./$dir/package.json').name")"); done
# One module that imports every package and touches each namespace, run as JS and type-checked as TS.
node -e '
  const names = process.argv.slice(2);
  const src = names.map((n, i) => `import * as p${i} from "${n}";`).join("\n") +
    `\nconst counts: number[] = [${names.map((_, i) => `Object.keys(p${i}).length`).join(", ")}];\n` +
    `if (counts.some((c) => c === 0)) throw new Error("a package exports nothing");\nconsole.log("imported", counts);\n`;
  require("fs").writeFileSync("'"$consumer"'/index.ts", src);
  require("fs").writeFileSync("'"$consumer"'/index.mjs", src.replace("const counts: number[]", "const counts"));
' "${names[@]}"
cat > "$consumer/tsconfig.json" <<'JSON'
{ "compilerOptions": { "module": "NodeNext", "moduleResolution": "NodeNext", "target": "ES2024", "strict": true, "noEmit": true, "types": [] }, "files": ["index.ts"] }
JSON
(cd "$consumer" && node index.mjs)
(cd "$consumer" && "$root/node_modules/.bin/tsc" -p tsconfig.json && echo "types resolve for ${#pkgs[@]} packages")
# Each example's sources (tests aside) type-check against the packed packages, as a user's copy would.
for dir in examples/*/; do
  name=$(basename "$dir")
  mkdir -p "$consumer/examples/$name"
  find "$dir/src" -name '*.ts' ! -name '*.test.ts' -exec cp {} "$consumer/examples/$name/" \;
  cat > "$consumer/examples/$name/tsconfig.json" <<'JSON'
{ "compilerOptions": { "module": "NodeNext", "moduleResolution": "NodeNext", "target": "ES2024", "strict": true, "noEmit": true, "types": ["node"] }, "include": ["*.ts"] }
JSON
  (cd "$consumer/examples/$name" && "$root/node_modules/.bin/tsc" -p tsconfig.json && echo "example $name type-checks against the tarballs")
done
