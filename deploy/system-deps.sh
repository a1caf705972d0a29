#!/usr/bin/env bash
# Installs the Debian packages ultibank needs.
#   system-deps.sh test    what the test suite needs (pcscd + vpcd, socat, Xvfb, ...)
#   system-deps.sh box     what a Raspberry Pi box needs (never vsmartcard-vpcd: it listens on 0.0.0.0)
# Without root (and without sudo) it only lists what is missing.
set -euo pipefail
profile=${1:-test}
case "$profile" in
  test) pkgs=(pcscd libpcsclite-dev vsmartcard-vpcd libusb-1.0-0 socat xvfb xdotool x11-utils imagemagick sox gcc chromium chromium-driver espeak-ng alsa-utils) ;;
  box)  pkgs=(pcscd libpcsclite-dev libusb-1.0-0 gcc python3-venv python3-dev espeak-ng alsa-utils) ;;
  *) echo "usage: $0 test|box" >&2; exit 2 ;;
esac
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo"; else
  echo "missing Debian packages: ${missing[*]} (install them as root)" >&2; exit 1
fi
echo "installing Debian packages: ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
