#!/bin/sh
# Install the CJK font the pictures are drawn with: IPAex Gothic and Mincho from Debian
# (bookworm: fonts-ipaexfont 00401-5). The Dockerfile installs the very same packages, so CI and
# the image draw identical pixels. BANMEN_FONT_DIR may point at another copy of the two files.
set -eu
for dir in "${BANMEN_FONT_DIR:-}" /usr/share/fonts/opentype/ipaexfont-gothic; do
  if [ -n "$dir" ] && [ -f "$dir/ipaexg.ttf" ]; then
    if [ -f /usr/share/fonts/opentype/ipaexfont-mincho/ipaexm.ttf ] || [ -f "$dir/ipaexm.ttf" ]; then
      exit 0
    fi
  fi
done
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing the CJK font (fonts-ipaexfont-gothic, fonts-ipaexfont-mincho) with apt-get..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends fonts-ipaexfont-gothic fonts-ipaexfont-mincho >/dev/null
  exit 0
fi
echo "The CJK font is missing. As root run: apt-get install fonts-ipaexfont-gothic fonts-ipaexfont-mincho" >&2
echo "(or set BANMEN_FONT_DIR to a folder holding ipaexg.ttf and ipaexm.ttf)." >&2
exit 1
