#!/usr/bin/env bash
# Renders the diagrams of the docs (docs/diagrams/*.mmd) into docs/modules/ROOT/images/*.png.
# Needs Node.js with npm (mermaid-cli is installed into a temporary folder) and Chromium (Debian: apt-get install
# chromium); mermaid-cli's own browser download is skipped.
set -euo pipefail
cd "$(dirname "$0")"
tools=$(mktemp -d)
trap 'rm -rf "$tools"' EXIT
(cd "$tools" && PUPPETEER_SKIP_DOWNLOAD=1 npm install --silent @mermaid-js/mermaid-cli >/dev/null)
cat > "$tools/puppeteer.json" <<JSON
{"executablePath": "$(command -v chromium)", "args": ["--no-sandbox", "--headless", "--disable-gpu",
 "--disable-background-networking", "--disable-component-update", "--disable-sync"]}
JSON
for diagram in *.mmd; do
  "$tools/node_modules/.bin/mmdc" -p "$tools/puppeteer.json" -b white -w 1400 -i "$diagram" \
    -o "../modules/ROOT/images/${diagram%.mmd}.png"
done
