#!/usr/bin/env bash
# A one-node Ceph cluster with its S3 gateway (RGW) on this machine, for the s3 benchmarks (`bench/run.sh s3 ceph`):
# Debian's ceph-mon, ceph-osd and radosgw (Ceph 16, installed with apt-get when missing), one monitor, one OSD on
# BlueStore over a sparse 20 GiB file in DIR (kept: a later start over the same DIR serves the same objects), the gateway on 127.0.0.1:$RGW_PORT
# (default 7480), the monitor on 127.0.0.1:$MON_PORT (default 6789; the OSD takes free ports from 6800 up) and a user
# with the benchmarks' credentials (access key "bench", secret "bench-secret"). No authentication between the
# daemons, no manager: a test and benchmark fixture, not a way to run Ceph. sluice-s3's CephRgwTest starts its own
# cluster with it on free ports (MON_PORT, RGW_PORT), so it runs beside the benchmarks' one on the defaults.
#
#   bench/ceph-rgw.sh start DIR   starts it over DIR (made there on first use); prints "endpoint http://127.0.0.1:PORT"
#   bench/ceph-rgw.sh stop DIR    stops the daemons started over DIR
#
# Unlike S3Mock, RGW keeps each bucket's keys in an index, serves GETs from C++ and honours conditional writes
# (If-None-Match: * and If-Match answer 412 as AWS S3 does), so its costs are those of a real store.
set -euo pipefail
cmd=${1:?usage: $0 start|stop DIR} D=$(realpath -m "${2:?usage: $0 start|stop DIR}")
PORT=${RGW_PORT:-7480}
MON_PORT=${MON_PORT:-6789}
C=(-c "$D/ceph.conf")

stop() {
  for name in client.rgw.bench osd.0 mon.a; do
    local pidf="$D/run/$name.pid"
    [[ -f $pidf ]] || continue
    local pid; pid=$(cat "$pidf")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$pidf"
  done
}

await_gateway() { # the gateway answers once the OSD is up and its pools are made
  for _ in $(seq 240); do
    curl -s -m 2 -o /dev/null "http://127.0.0.1:$PORT/" && return 0
    sleep 0.5
  done
  echo "the gateway did not answer on port $PORT within 2 minutes: see $D/log" >&2
  stop
  exit 1
}

if [[ $cmd == stop ]]; then stop; exit 0; fi
[[ $cmd == start ]] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }

missing=false
for tool in ceph-mon ceph-osd radosgw radosgw-admin ceph monmaptool uuidgen curl; do
  command -v "$tool" >/dev/null || missing=true
done
if $missing; then
  echo "installing Debian's ceph-mon, ceph-osd and radosgw ..." >&2
  SUDO=""; [[ $(id -u) == 0 ]] || SUDO=sudo
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends ceph-mon ceph-osd radosgw \
      ceph-common uuid-runtime curl >&2
fi

[[ -d $D ]] && stop
for port in "$MON_PORT" "$PORT"; do # another cluster's daemon there would take this one's requests
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "port $port on 127.0.0.1 is in use (another Ceph? \`pgrep -fa 'ceph-|radosgw'\`): stop it first" >&2
    exit 1
  fi
done
start_osd() {
  # A new OSD's first command to the monitor (its device class) now and then goes before it has the cluster's fsid,
  # is answered "wrong fsid" and the OSD exits (250) - about one start in three, beside another cluster: again.
  for try in 1 2 3 4 5; do
    ceph-osd "${C[@]}" -i 0 2>>"$D/log/setup.log" && return 0
    echo "ceph-osd exited ($try of 5) - see $D/log/setup.log" >>"$D/log/setup.log"
    sleep 1
  done
  echo "ceph-osd did not start in 5 tries: see $D/log/setup.log" >&2
  stop
  exit 1
}

if [[ -f $D/initialised ]]; then # made by an earlier start: its objects are kept
  # The monitor's address is in its monmap and the gateway's in ceph.conf, both fixed at the first start.
  if ! grep -qxE "mon host = \[?(v1:)?127\.0\.0\.1:$MON_PORT\]?" "$D/ceph.conf" \
      || ! grep -qx "rgw frontends = beast endpoint=127.0.0.1:$PORT" "$D/ceph.conf"; then
    echo "$D was made with other ports ($(grep -E '^(mon host|rgw frontends)' "$D/ceph.conf" | tr '\n' ' ')):" \
        "start it with those MON_PORT and RGW_PORT, or over a new DIR" >&2
    exit 1
  fi
  ceph-mon "${C[@]}" -i a 2>>"$D/log/setup.log"
  start_osd
  radosgw "${C[@]}" -n client.rgw.bench 2>>"$D/log/setup.log"
  await_gateway
  echo "endpoint http://127.0.0.1:$PORT"
  exit 0
fi
rm -rf "$D"
mkdir -p "$D"/{mon,osd0,rgw,run,log}
FSID=$(uuidgen)
cat >"$D/ceph.conf" <<CONF
[global]
fsid = $FSID
mon host = [v1:127.0.0.1:$MON_PORT]
mon initial members = a
auth cluster required = none
auth service required = none
auth client required = none
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon allow pool size one = true
mon warn on pool no redundancy = false
osd objectstore = bluestore
bluestore block path = $D/osd0.block
bluestore block create = true
bluestore block size = 21474836480
bluestore block db create = false
bluestore block wal create = false
osd crush chooseleaf type = 0
ms bind ipv6 = false
run dir = $D/run
pid file = $D/run/\$name.pid
admin socket = $D/run/\$name.asok
log file = $D/log/\$name.log
keyring = /dev/null
[mon.a]
mon data = $D/mon
[osd.0]
osd data = $D/osd0
[client.rgw.bench]
rgw frontends = beast endpoint=127.0.0.1:$PORT
rgw data = $D/rgw
CONF
# v1 (the legacy protocol) as 6789 always got: given another port, monmaptool and the clients assume v2, where
# the gateway's authentication with "auth ... = none" fails (-13) and it never starts.
monmaptool --create --addv a "[v1:127.0.0.1:$MON_PORT]" --fsid "$FSID" "$D/monmap" >/dev/null
ceph-mon "${C[@]}" --mkfs -i a --monmap "$D/monmap" 2>>"$D/log/setup.log"
ceph-mon "${C[@]}" -i a 2>>"$D/log/setup.log"
ceph "${C[@]}" osd create >/dev/null
ceph-osd "${C[@]}" -i 0 --mkfs 2>>"$D/log/setup.log"
start_osd
radosgw "${C[@]}" -n client.rgw.bench 2>>"$D/log/setup.log"
await_gateway
radosgw-admin "${C[@]}" user create --uid=bench --display-name=bench --access-key=bench --secret-key=bench-secret \
    >/dev/null 2>>"$D/log/setup.log"
touch "$D/initialised"
echo "endpoint http://127.0.0.1:$PORT"
