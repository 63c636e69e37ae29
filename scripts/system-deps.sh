#!/usr/bin/env bash
# Install the Debian packages the full test suite uses, when this machine lets us:
# chromium + chromium-driver (browser tests), postgresql (sessions on PostgreSQL),
# gpgv + gnupg (signed package repositories), tmux (the chat terminal test),
# fdisk + e2fsprogs + dosfstools (small disk images for the image verifier's tests),
# redis-server + haproxy (several replicas behind a load balancer).
# Without root or apt-get it says so in one line; the tests then skip with a line each
# (and fail under CI=true).
set -u
PACKAGES="chromium chromium-driver postgresql gpgv gnupg tmux fdisk e2fsprogs dosfstools redis-server haproxy"
missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "make system-deps: not root or no apt-get; missing:$missing (their tests will skip)" >&2
  exit 0
fi
echo "Installing Debian packages for the tests:$missing"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q --no-install-recommends $missing >/tmp/oic-ai-apt.log 2>&1; then
  apt-get update -q >>/tmp/oic-ai-apt.log 2>&1
  apt-get install -y -q --no-install-recommends $missing >>/tmp/oic-ai-apt.log 2>&1 \
    || echo "make system-deps: apt-get failed (see /tmp/oic-ai-apt.log)" >&2
fi
exit 0
