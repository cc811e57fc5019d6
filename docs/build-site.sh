#!/usr/bin/env bash
# Builds the documentation site with Antora into docs/target/site (open docs/target/site/index.html), and fails on
# any warning: a broken xref, a missing include, attachment or image. Needs Node.js with npm: Antora, its Lunr search
# extension and highlight.js are installed from npm into docs/target/antora on first use.
set -euo pipefail
cd "$(dirname "$0")"
tools=target/antora
if [[ ! -x $tools/node_modules/.bin/antora || ! -d $tools/node_modules/@antora/lunr-extension \
    || ! -d $tools/node_modules/@highlightjs/cdn-assets ]]; then
  npm install --silent --no-audit --no-fund --prefix "$tools" antora@3.1.15 @antora/lunr-extension@1.0.0-alpha.13 \
      @highlightjs/cdn-assets@11.12.0 > /dev/null
fi
# the UI's vendor files, supplemental to docs/ui: highlight.js (its common languages) and a light style
vendor=target/ui-vendor
rm -rf "$vendor"
mkdir -p "$vendor/js/vendor" "$vendor/css/vendor"
cp "$tools/node_modules/@highlightjs/cdn-assets/highlight.min.js" "$vendor/js/vendor/"
cp "$tools/node_modules/@highlightjs/cdn-assets/styles/github.min.css" "$vendor/css/vendor/highlight.css"
"$tools/node_modules/.bin/antora" --stacktrace antora-playbook.yml
echo "site: docs/target/site/index.html"
