#!/usr/bin/env bash
# Takes the screenshots of the documentation site that the contributing page shows (docs/modules/ROOT/images/site-*.png):
# builds the site (docs/build-site.sh) and renders three pages in headless Chromium: the index, "Your first 429" (code
# blocks: highlighting, copy buttons, long commands) and "How it works" (a diagram). Needs what build-site.sh needs
# and the Debian package chromium (apt-get install chromium).
#
#   docs/screenshot-site.sh
set -euo pipefail
cd "$(dirname "$0")"
# the contributing page shows these screenshots: the first time, a placeholder lets the site build before they exist
for image in site-index.png site-getting-started.png site-diagram.png; do
  [[ -f modules/ROOT/images/$image ]] || cp modules/ROOT/images/race.png "modules/ROOT/images/$image"
done
./build-site.sh > /dev/null
site=$(pwd)/target/site/quarkus-rate-limit/dev
shoot() { # shoot <image> <page> <height>
  chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$(mktemp -d)" --hide-scrollbars \
    --window-size=1400,"$3" --virtual-time-budget=5000 \
    --screenshot="modules/ROOT/images/$1" "file://$site/$2" 2>/dev/null
  echo "docs/modules/ROOT/images/$1"
}
shoot site-index.png index.html 1000
shoot site-getting-started.png getting-started.html 1400
shoot site-diagram.png how-it-works.html 1500
