#!/usr/bin/env bash
# Installs the crib companion on a Raspberry Pi running Raspberry Pi OS Bookworm (64-bit), from this
# checkout, so that it starts at boot:
#
#   sudo bash scripts/install-pi.sh             # install, or bring an installation up to this checkout
#   sudo bash scripts/install-pi.sh --flash     # ... and flash the board's firmware (Nano on USB)
#   sudo bash scripts/install-pi.sh --update    # git pull this checkout first, then the same
#   bash scripts/install-pi.sh --dry-run        # print every step without doing any
#
# Steps: the Debian packages (picamera2 and lgpio from apt, the AVR toolchain and avrdude); the system
# user `crib`; a virtual environment in /opt/crib/venv that sees apt's picamera2 (--system-site-packages);
# the runtime dependencies from deploy/requirements.txt, pinned and checked by hash; the companion's
# wheel, built from this checkout; the settings in /etc/crib/crib.toml (kept if already there); the
# hardened systemd unit; the firmware if asked; then the service is (re)started. Running it again does
# only what is missing and reinstalls the companion, so it is also the update.
set -euo pipefail

SOURCE=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=/opt/crib
VENV=$PREFIX/venv
CONFIG=/etc/crib/crib.toml
UNIT=/etc/systemd/system/crib-companion.service
SERVICE=crib-companion
ACCOUNT=crib
STATE=/var/lib/crib
APT_PACKAGES=(git python3-venv python3-picamera2 python3-lgpio make gcc-avr avr-libc binutils-avr avrdude)

DRY_RUN=0
FLASH=0
UPDATE=0
PORT=/dev/ttyUSB0

usage() {
    sed -n '2,9s/^# \{0,1\}//p' "$0"
    echo "Options: --flash  --port DEVICE (for --flash; default /dev/ttyUSB0)  --update  --dry-run  --help"
}

fail() {
    echo "install-pi: $*" >&2
    exit 2
}

while (($#)); do
    case $1 in
        --dry-run) DRY_RUN=1 ;;
        --flash) FLASH=1 ;;
        --update) UPDATE=1 ;;
        --port)
            (($# > 1)) || fail "--port needs the board's device, for example /dev/ttyUSB0"
            PORT=$2
            shift
            ;;
        -h | --help)
            usage
            exit 0
            ;;
        *) fail "there is no option $1 (see --help)" ;;
    esac
    shift
done

# The lock file's hashes are PyPI's: the piwheels index that Raspberry Pi OS configures for pip serves
# rebuilds of the same releases with other hashes, so pip is told to ignore its configuration files.
export PIP_CONFIG_FILE=/dev/null PIP_DISABLE_PIP_VERSION_CHECK=1
PIP_INDEX=(--index-url https://pypi.org/simple)

VERSION=$(sed -n 's/^__version__ = "\([^"]*\)"$/\1/p' "$SOURCE/companion/__init__.py")
[[ -n $VERSION ]] || fail "$SOURCE does not look like the companion's checkout (no companion/__init__.py)"
WORK=$PREFIX/build
WHEEL=$WORK/crib_companion-$VERSION-py3-none-any.whl

step() {
    printf '\n== %s\n' "$*"
}

note() {
    printf '   %s\n' "$*"
}

# Runs a command, or with --dry-run prints it as it would be typed (words with spaces in quotes).
run() {
    if ((DRY_RUN)); then
        local word line="+"
        for word in "$@"; do
            if [[ $word =~ ^[][A-Za-z0-9_./:=@,+%-]+$ ]]; then
                line+=" $word"
            else
                line+=" '${word//\'/\'\\\'\'}'"
            fi
        done
        printf '%s\n' "$line"
    else
        "$@"
    fi
}

installed() {
    # shellcheck disable=SC2016  # ${Status} is dpkg-query's field, not the shell's
    [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == "install ok installed" ]]
}

# True when a step must be done: always in a dry run (which shows every step), else when the check fails.
needed() {
    ((DRY_RUN)) && return 0
    ! "$@" >/dev/null 2>&1
}

if ((!DRY_RUN)); then
    [[ $(id -u) -eq 0 ]] || fail "run it as root: sudo bash scripts/install-pi.sh (or --dry-run to see the steps)"
    # shellcheck source=/dev/null
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    [[ $codename == bookworm ]] || echo "install-pi: made for Raspberry Pi OS Bookworm; this is '$codename'" >&2
    [[ $(uname -m) == aarch64 ]] || echo "install-pi: made for the 64-bit OS (aarch64); this is $(uname -m)" >&2
fi

if ((UPDATE)); then
    step "Update this checkout ($SOURCE)"
    owner=$(stat -c %U "$SOURCE")
    run runuser -u "$owner" -- git -C "$SOURCE" pull --ff-only
fi

step "Debian packages"
missing=()
for package in "${APT_PACKAGES[@]}"; do
    if needed installed "$package"; then
        missing+=("$package")
    fi
done
if ((${#missing[@]})); then
    run apt-get update
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
else
    note "all installed"
fi

step "The service's user, $ACCOUNT"
if needed id -u "$ACCOUNT"; then
    run useradd --system --user-group --home-dir "$STATE" --shell /usr/sbin/nologin "$ACCOUNT"
else
    note "exists"
fi

step "The virtual environment, $VENV (it sees apt's picamera2)"
if needed test -x "$VENV/bin/python"; then
    run python3 -m venv --system-site-packages "$VENV"
else
    note "exists"
fi

step "The runtime dependencies, pinned and checked by hash (deploy/requirements.txt)"
run "$VENV/bin/python" -m pip install "${PIP_INDEX[@]}" --require-hashes -r "$SOURCE/deploy/requirements.txt"

step "The companion $VERSION, built from this checkout"
# Built from a copy, so the checkout gets no root-owned build folders.
run rm -rf "$WORK"
run mkdir -p "$WORK/source"
run cp -r "$SOURCE/pyproject.toml" "$SOURCE/README.md" "$SOURCE/companion" "$WORK/source/"
run "$VENV/bin/python" -m pip wheel "${PIP_INDEX[@]}" --no-deps --wheel-dir "$WORK" "$WORK/source"
run "$VENV/bin/python" -m pip install --no-deps --force-reinstall "$WHEEL"
run "$VENV/bin/crib" --version
run "$VENV/bin/python" -c 'import picamera2, cv2, numpy; print("picamera2 found; NumPy", numpy.__version__, "OpenCV", cv2.__version__)'

step "The settings, $CONFIG"
if needed test -f "$CONFIG"; then
    run install -D -m 644 "$SOURCE/deploy/crib.toml" "$CONFIG"
else
    note "kept as they are (the example is $SOURCE/deploy/crib.toml)"
fi

step "The systemd unit, $UNIT"
run install -m 644 "$SOURCE/deploy/crib-companion.service" "$UNIT"
run systemctl daemon-reload
run systemctl enable "$SERVICE"

if ((FLASH)); then
    step "The board's firmware, flashed to $PORT"
    # The service holds the board's port while it runs.
    run systemctl stop "$SERVICE"
    run make -C "$SOURCE/firmware" flash PORT="$PORT" BUILD="$WORK/firmware"
fi

step "Start the companion"
run systemctl restart "$SERVICE"
note "its output (the scoreboard's address and PIN): journalctl -u $SERVICE -f"
note "the scoreboard: http://$(hostname).local:8121 (the port is [web] port in $CONFIG)"
