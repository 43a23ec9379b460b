#!/usr/bin/env bash
# docs/scale.md's GNU parallel --sshlogin recipes run as written against a real ssh server:
# Debian's sshd, started by this test on 127.0.0.1 with a throwaway host key and user key in the
# test's temporary folder, and stopped at the end. It listens on two free ports that stand for two
# machines, big1 and big2, each with its own login folder (sshd's ForceCommand enters it) and
# `plateau` on the PATH of its sessions; the recipes' hosts line becomes 2/big1,2/big2,: (two jobs
# at a time on each, and this machine). Checked: the merged report equals one
# `plateau simulate $run` but for the time it took; every host played slices; --return brought the
# slices back and --cleanup left both login folders empty; with --basefile, a modder's folder
# that only this machine has is copied there and its slices merge with the local ones (the same
# rules fingerprint); `plateau tune --shards 2 --runner 'ssh big{k} {shell_cmd}'` (the page's
# runner for ssh) is the same search as in one process. When sshd cannot start here, the test
# says why and is skipped (exit 77).
# Usage: scale_ssh_test.sh <plateau binary> <source dir>
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/scale_lib.sh"
sshd_bin=/usr/sbin/sshd
[ -x "$sshd_bin" ] || skip "$sshd_bin is not installed (tools/bootstrap.sh installs openssh-server)"
for c in ssh ssh-keygen rsync parallel python3; do
  command -v "$c" > /dev/null || skip "$c is not installed (tools/bootstrap.sh installs it)"
done

mkdir -p "$work/ssh" "$work/bin" "$work/remote-bin" "$work/big1" "$work/big2" "$work/here"
chmod 755 "$work"
ln -s "$plateau" "$work/bin/plateau"
export PATH="$work/bin:$PATH"
# The hosts' plateau notes where each of its jobs ran, then is the same binary.
cat > "$work/remote-bin/plateau" <<EOF
#!/bin/sh
echo "\$PWD \$*" >> "$work/ssh/jobs.log"
exec "$plateau" "\$@"
EOF
chmod +x "$work/remote-bin/plateau"
ssh-keygen -q -t ed25519 -N '' -C plateau-test-host -f "$work/ssh/host_key"
ssh-keygen -q -t ed25519 -N '' -C plateau-test-user -f "$work/ssh/user_key"
cp "$work/ssh/user_key.pub" "$work/ssh/authorized_keys"
port1=$(free_port)
port2=$(free_port)
while [ "$port2" = "$port1" ]; do port2=$(free_port); done

# The server: keys only, nothing of the system's configuration, its sessions' PATH has plateau.
# StrictModes is off because the keys live under /tmp, which others may write to.
cat > "$work/ssh/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $port1
Port $port2
HostKey $work/ssh/host_key
PidFile $work/ssh/sshd.pid
AuthorizedKeysFile $work/ssh/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
LogLevel VERBOSE
AllowUsers $(id -un)
SetEnv PATH=$work/remote-bin:/usr/bin:/bin
Match LocalPort $port1
  ForceCommand cd $work/big1 && eval "\$SSH_ORIGINAL_COMMAND"
Match LocalPort $port2
  ForceCommand cd $work/big2 && eval "\$SSH_ORIGINAL_COMMAND"
EOF
# The client: the two hosts by name, this test's key and known hosts only.
cat > "$work/ssh/ssh_config" <<EOF
Host big1
  Port $port1
Host big2
  Port $port2
Host *
  HostName 127.0.0.1
  User $(id -un)
  IdentityFile $work/ssh/user_key
  IdentitiesOnly yes
  UserKnownHostsFile $work/ssh/known_hosts
  StrictHostKeyChecking accept-new
  BatchMode yes
  LogLevel ERROR
EOF
# GNU parallel's ssh command (and rsync's, through it).
export PARALLEL_SSH="ssh -F $work/ssh/ssh_config"

# sshd run by root needs its privilege separation folder, which Debian's service makes when it
# starts (and this machine's service never does). Made here if missing, removed if made here.
made_privsep=""
if [ "$(id -u)" = 0 ] && [ ! -d /run/sshd ]; then
  mkdir -m 755 /run/sshd && made_privsep=1
fi
sshd_pid=""
stop_sshd() {
  if [ -n "$sshd_pid" ]; then
    kill "$sshd_pid" 2> /dev/null || true
    wait "$sshd_pid" 2> /dev/null || true
  fi
  [ -z "$made_privsep" ] || rmdir /run/sshd 2> /dev/null || true
}
trap 'stop_sshd; cleanup' EXIT

"$sshd_bin" -t -f "$work/ssh/sshd_config" > "$work/ssh/check.txt" 2>&1 ||
  skip "sshd refuses its configuration on this machine: $(cat "$work/ssh/check.txt")"
"$sshd_bin" -D -e -f "$work/ssh/sshd_config" > "$work/ssh/sshd.log" 2>&1 &
sshd_pid=$!
up=""
for _ in $(seq 1 100); do
  if $PARALLEL_SSH big1 true 2> "$work/ssh/login.txt" && $PARALLEL_SSH big2 true 2>> "$work/ssh/login.txt"; then
    up=1
    break
  fi
  running "$sshd_pid" || break
  sleep 0.2
done
[ -n "$up" ] || skip "sshd did not start or let this test log in on this machine:
$(sed 's/^/  | /' "$work/ssh/sshd.log" "$work/ssh/login.txt" | tail -n 20)"
[ "$($PARALLEL_SSH big1 pwd)" = "$work/big1" ] && [ "$($PARALLEL_SSH big2 'command -v plateau')" = "$work/remote-bin/plateau" ] ||
  fail "the hosts should log in to their own folders with plateau on the PATH"
echo "sshd on 127.0.0.1, ports $port1 (big1) and $port2 (big2)"

# ran_everywhere <label>: some slices ran on each host, in its login folder, and --cleanup removed
# the slices there; the jobs' log is emptied for the next recipe.
ran_everywhere() {
  for h in big1 big2; do
    grep -q "^$work/$h .*--shard" "$work/ssh/jobs.log" || fail "$1: no slice ran on $h: $(cat "$work/ssh/jobs.log")"
    [ -z "$(ls -A "$work/$h" | grep -v '^mygame$')" ] ||
      fail "$1: --cleanup should remove the slices from $h's login folder: $(ls -A "$work/$h")"
  done
  : > "$work/ssh/jobs.log"
}
: > "$work/ssh/jobs.log"

# The run, with a third of its slices on each "host".
run="chenilles -n 60 --players 3 --bots heuristic,random"
hosts="2/big1,2/big2,:"
N=6
recipe_with parallel-ssh run="$run" N=$N hosts="$hosts" > "$work/ssh.sh"
grep -qF -- '--sshlogin "$hosts"' "$work/ssh.sh" || fail "the page's recipe should send its slices to \$hosts"
(cd "$work/here" && bash -e "$work/ssh.sh" > merged.txt 2> err.txt) ||
  fail "the ssh recipe failed: $(cat "$work/here/err.txt")"
[ "$(ls "$work/here"/shard-*.json | wc -l)" = "$N" ] || fail "--return should bring back all $N slices: $(ls "$work/here")"
# shellcheck disable=SC2086
plateau simulate $run > "$work/one.txt"
same_report "$work/one.txt" "$work/here/merged.txt" text "the ssh recipe"
ran_everywhere "the ssh recipe"

# A modder's folder that only this machine has: --basefile copies it to the hosts.
mkdir "$work/mod"
cp -r "$src/games/chenilles" "$work/mod/mygame"
run="./mygame -n 60 --players 3 --bots heuristic,random"
recipe_with parallel-ssh-basefile run="$run" N=$N hosts="$hosts" > "$work/basefile.sh"
(cd "$work/mod" && bash -e "$work/basefile.sh" > merged.txt 2> err.txt) ||
  fail "the --basefile recipe failed: $(cat "$work/mod/err.txt")"
# shellcheck disable=SC2086
(cd "$work/mod" && plateau simulate $run > one.txt)
same_report "$work/mod/one.txt" "$work/mod/merged.txt" text "the --basefile recipe"
ran_everywhere "the --basefile recipe"
# --cleanup removes files, not folders (GNU parallel runs `rm -f` on each --basefile): the copy of
# the game folder stays in each login folder, as docs/scale.md says.
for h in big1 big2; do
  diff -r "$work/mod/mygame" "$work/$h/mygame" > /dev/null || fail "--basefile should have copied mygame to $h"
done

# plateau tune with each candidate's slices on the two hosts, as the page's ssh runner
# ('ssh node{k} {shell_cmd}', here with this test's ssh configuration): the same search as here.
grep -qF -- "--runner 'ssh node{k} {shell_cmd}'" "$src/docs/scale.md" || fail "docs/scale.md's tune should run ssh node{k} {shell_cmd}"
tune=("$src/tests/data/games/tune-target" --vary a=0..20 --vary b=0..20 --target count:total=16 --target count:gap=2
      -n 60 --budget 6 --format json)
plateau tune "${tune[@]}" > "$work/tune-here.json"
before=$(wc -l < "$work/ssh/sshd.log")
plateau tune "${tune[@]}" --shards 2 --runner "$PARALLEL_SSH big{k} {shell_cmd}" > "$work/tune-ssh.json" 2> "$work/tune-ssh.err" ||
  fail "tune over ssh: $(cat "$work/tune-ssh.err")"
same_search "$work/tune-here.json" "$work/tune-ssh.json" "tune with its slices over ssh"
# The runner starts plateau by its own path, not the hosts' PATH: sshd's log (VERBOSE) tells
# which port, so which host, each connection came to.
# (Into a file first: with pipefail, `tail | grep -q` fails when grep stops reading a long log early.)
tail -n +$((before + 1)) "$work/ssh/sshd.log" > "$work/tune-sshd.log"
for port in "$port1" "$port2"; do
  grep -q "on 127.0.0.1 port $port" "$work/tune-sshd.log" ||
    fail "tune: no slice went to port $port: $(head -20 "$work/tune-sshd.log")"
done
echo "plateau tune --runner 'ssh big{k} {shell_cmd}': ok"

stop_sshd
sshd_pid_was=$sshd_pid
sshd_pid=""
! running "$sshd_pid_was" || fail "sshd is still running after the test stopped it"
echo "docs/scale.md's ssh recipes ok against a real sshd"
