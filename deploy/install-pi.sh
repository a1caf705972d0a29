#!/usr/bin/env bash
# Installs ultibank as a service on a Raspberry Pi (Raspberry Pi OS Bookworm, 32 or 64 bit).
#
#   sudo deploy/install-pi.sh              install or update, then (re)start the service
#   sudo deploy/install-pi.sh --no-start   install, enable, but do not start now
#   deploy/install-pi.sh --dry-run         print what would be done, change nothing
#
# Safe to run again: every step checks before it acts, and an existing
# /etc/ultibank/config.toml is never overwritten. Refuses to run where vsmartcard-vpcd is
# installed: that test-only driver listens on the network and has no place on a box.
set -euo pipefail

PREFIX=/opt/ultibank
ETC=/etc/ultibank
SERVICE_USER=ultibank
GROUPS_WANTED=(plugdev dialout gpio i2c audio)
EXTRAS="pi,pcsc,nfc"
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

dry=0
start=1
for arg in "$@"; do
  case "$arg" in
    --dry-run) dry=1 ;;
    --no-start) start=0 ;;
    -h|--help) sed -n '2,11p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "install-pi.sh: unknown option $arg (try --help)" >&2; exit 2 ;;
  esac
done

say() { printf '==> %s\n' "$*"; }
run() {
  if [ "$dry" -eq 1 ]; then printf '+ %s\n' "$*"; else "$@"; fi
}
installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

# --- checks ---------------------------------------------------------------------------------
if installed vsmartcard-vpcd; then
  echo "install-pi.sh: vsmartcard-vpcd is installed. It is a test driver that accepts" \
       "virtual smart cards from the network; remove it first: apt-get purge vsmartcard-vpcd" >&2
  exit 1
fi
if [ "$dry" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
  echo "install-pi.sh: run as root (sudo $0), or with --dry-run to see the steps" >&2
  exit 1
fi
codename=$( (. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}") || true)
if [ "$codename" != "bookworm" ]; then
  say "warning: written for Raspberry Pi OS Bookworm, this is '${codename:-unknown}'"
fi
[ -f "$SRC/pyproject.toml" ] || { echo "install-pi.sh: no pyproject.toml in $SRC" >&2; exit 1; }

# --- system packages ------------------------------------------------------------------------
say "Debian packages"
if [ "$dry" -eq 1 ]; then
  run bash "$SRC/deploy/system-deps.sh" box
else
  bash "$SRC/deploy/system-deps.sh" box
fi
extra=()
for p in i2c-tools swig; do installed "$p" || extra+=("$p"); done
if [ ${#extra[@]} -gt 0 ]; then
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${extra[@]}"
fi

# --- user and groups ------------------------------------------------------------------------
say "user $SERVICE_USER"
for g in "${GROUPS_WANTED[@]}"; do
  getent group "$g" >/dev/null || run groupadd --system "$g"
done
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
  run useradd --system --user-group --home-dir /var/lib/ultibank --no-create-home \
    --shell /usr/sbin/nologin "$SERVICE_USER"
fi
run usermod -a -G "$(IFS=,; echo "${GROUPS_WANTED[*]}")" "$SERVICE_USER"

# --- the program ----------------------------------------------------------------------------
say "ultibank in $PREFIX"
run install -d -m 0755 "$PREFIX"
if [ "$(realpath -m "$SRC")" = "$(realpath -m "$PREFIX/src")" ]; then
  echo "install-pi.sh: run it from a checkout (git clone ...), not from $PREFIX/src" >&2
  exit 1
fi
run rm -rf "$PREFIX/src.new"
run install -d -m 0755 "$PREFIX/src.new"
# Copy the checkout without its venv, caches and git history.
if [ "$dry" -eq 1 ]; then
  printf '+ tar -C %s ... | tar -C %s -x\n' "$SRC" "$PREFIX/src.new"
else
  tar -C "$SRC" --exclude=.git --exclude=.venv --exclude='*.egg-info' \
    --exclude=__pycache__ --exclude=.mypy_cache --exclude=.ruff_cache --exclude=.pytest_cache \
    -cf - . | tar -C "$PREFIX/src.new" -xf -
fi
run rm -rf "$PREFIX/src"
run mv "$PREFIX/src.new" "$PREFIX/src"
[ -x "$PREFIX/venv/bin/python" ] || run python3 -m venv "$PREFIX/venv"
run "$PREFIX/venv/bin/pip" install --quiet --upgrade pip
run "$PREFIX/venv/bin/pip" install --quiet "$PREFIX/src[$EXTRAS]"
# gpiozero's pin factory on Bookworm and the Pi 5; the wheel exists for 64-bit Pi OS.
if ! run "$PREFIX/venv/bin/pip" install --quiet lgpio; then
  say "warning: pip could not install lgpio; try: apt-get install liblgpio-dev swig, then rerun"
fi

# --- configuration, unit, udev, modules -----------------------------------------------------
say "configuration and system files"
run install -d -m 0750 -o root -g "$SERVICE_USER" "$ETC"
if [ -e "$ETC/config.toml" ]; then
  say "keeping the existing $ETC/config.toml"
else
  run install -m 0640 -o root -g "$SERVICE_USER" "$SRC/deploy/config.example.toml" \
    "$ETC/config.toml"
fi
run install -m 0644 "$SRC/deploy/ultibank.service" /etc/systemd/system/ultibank.service
run install -m 0644 "$SRC/deploy/93-ultibank.rules" /etc/udev/rules.d/93-ultibank.rules
run rm -f /etc/udev/rules.d/70-ultibank.rules  # an older name, below 92-libccid
run install -m 0644 "$SRC/deploy/blacklist-ultibank-nfc.conf" \
  /etc/modprobe.d/blacklist-ultibank-nfc.conf
for m in pn533_usb port100 pn533 nfc_digital nfc; do
  if [ -d "/sys/module/$m" ]; then run modprobe -r "$m" || true; fi
done
if command -v udevadm >/dev/null; then
  run udevadm control --reload
  run udevadm trigger --subsystem-match=usb --subsystem-match=tty
fi

# --- I2C for the LCD ------------------------------------------------------------------------
say "I2C"
if command -v raspi-config >/dev/null; then
  run raspi-config nonint do_i2c 0
elif [ -f /boot/firmware/config.txt ] && ! grep -q '^dtparam=i2c_arm=on' /boot/firmware/config.txt; then
  if [ "$dry" -eq 1 ]; then
    printf '+ echo dtparam=i2c_arm=on >> /boot/firmware/config.txt\n'
  else
    echo 'dtparam=i2c_arm=on' >> /boot/firmware/config.txt
  fi
  say "I2C enabled in /boot/firmware/config.txt: reboot once for it to take effect"
elif [ ! -f /boot/firmware/config.txt ]; then
  say "warning: no raspi-config and no /boot/firmware/config.txt: enable I2C by hand"
fi

# --- services -------------------------------------------------------------------------------
say "services"
run systemctl enable --now pcscd.socket
run systemctl daemon-reload
if [ "$start" -eq 0 ]; then
  run systemctl enable ultibank.service
  say "done: systemctl start ultibank starts it"
elif systemctl is-active --quiet ultibank.service 2>/dev/null; then
  run systemctl enable ultibank.service
  run systemctl restart ultibank.service  # pick up the new version
  say "done (restarted): journalctl -u ultibank -f shows the log"
else
  run systemctl enable --now ultibank.service
  say "done: journalctl -u ultibank -f shows the log"
fi
