#!/usr/bin/env bash
# docs/scale.md's Slurm recipes run as written on a real one-node Slurm cluster that this test
# starts on this machine (Debian's munge, slurmctld and slurmd, each with its own key, ports,
# socket and state in the test's temporary folder; the system's services are never used) and
# stops, leaving nothing running:
# - the job array of `simulate --shard` slices and the merge job after it (afterok): the merged
#   report equals one `plateau simulate $run`, but for the time it took;
# - a slice killed mid-array (as when its node dies): the merge job never starts (squeue shows it
#   pending, DependencyNeverSatisfied), `plateau merge` names the missing slice and exits 2 (as a
#   Slurm job: FAILED, exit code 2), and resubmitting that slice alone, as the page says, then the
#   merge, gives the report of one run;
# - the sweep as one task per value and slice, one merge per value after the array; a stale slice
#   of an earlier run left in the folder makes the merge job fail (exit code 2, naming the file);
# - `plateau tune --shards N --runner 'srun ...'` inside an allocation: the same search as in one
#   process.
# The blocks are taken from the page (marked <!-- recipe: slurm-... -->), their run, N and array
# swapped for smaller ones. When the cluster cannot start here, the test says why and is skipped
# (exit 77), never passed.
# Usage: scale_slurm_test.sh <plateau binary> <source dir>
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/scale_lib.sh"
export PATH="$PATH:/usr/sbin:/sbin"
for c in munged mungekey munge unmunge slurmctld slurmd sbatch squeue sinfo scontrol scancel srun python3; do
  command -v "$c" > /dev/null ||
    skip "$c is not installed (tools/bootstrap.sh installs slurmctld, slurmd, slurm-client and munge)"
done

# ---- the cluster: munged, slurmctld, slurmd ------------------------------------------------------
cluster=$work/cluster
mkdir -p "$cluster/munge" "$cluster/state" "$cluster/spool" "$cluster/log" "$work/bin"
chmod 755 "$work" "$cluster" "$cluster/munge"
ln -s "$plateau" "$work/bin/plateau"
export PATH="$work/bin:$PATH"
socket=$cluster/munge/munge.socket
# Every daemon started here carries this mark, and so does each slurmstepd slurmd starts: the
# clean-up ends those processes, and only those.
mark="PLATEAU_SLURM_TEST=$work"

daemon_pids=()
stop_cluster() {
  set +e
  if [ -n "${SLURM_CONF:-}" ] && [ ${#daemon_pids[@]} -gt 1 ]; then
    local jobs
    jobs=$(timeout 20 squeue -h -o %A 2> /dev/null | sort -u)
    [ -z "$jobs" ] || timeout 20 scancel $jobs 2> /dev/null
    for _ in $(seq 1 100); do
      [ -z "$(timeout 20 squeue -h 2> /dev/null)" ] && break
      sleep 0.2
    done
    timeout 20 scontrol shutdown > /dev/null 2>&1
  fi
  # The daemons, then anything else they left (a job's slurmstepd): by process id, marked ones only.
  for sig in TERM KILL; do
    for p in "${daemon_pids[@]}"; do running "$p" && kill -"$sig" "$p" 2> /dev/null; done
    for _ in $(seq 1 50); do
      local alive=0
      for p in "${daemon_pids[@]}"; do running "$p" && alive=1; done
      [ "$alive" = 0 ] && break
      sleep 0.2
    done
  done
  for p in "${daemon_pids[@]}"; do wait "$p" 2> /dev/null; done
  for p in /proc/[0-9]*; do
    [ "${p#/proc/}" != $$ ] && grep -qzxF "$mark" "$p/environ" 2> /dev/null && kill -KILL "${p#/proc/}" 2> /dev/null
  done
  stopped_pids=("${daemon_pids[@]}")
  daemon_pids=()
  return 0
}
trap 'stop_cluster; cleanup' EXIT

# tail_of <file>: the last lines of a daemon's log, for a message.
tail_of() { tail -n 15 "$1" 2> /dev/null | sed 's/^/  | /'; }

# munged, with a key of its own and its socket in the folder (AuthInfo=socket=... below).
mungekey --create --keyfile="$cluster/munge/munge.key" > "$cluster/log/mungekey.txt" 2>&1 ||
  skip "mungekey could not make a key: $(cat "$cluster/log/mungekey.txt")"
env "$mark" munged --foreground --force --socket="$socket" --key-file="$cluster/munge/munge.key" \
  --log-file="$cluster/log/munged.log" --pid-file="$cluster/munge/munged.pid" \
  --seed-file="$cluster/munge/munged.seed" > "$cluster/log/munged.out" 2>&1 &
daemon_pids+=($!)
for _ in $(seq 1 100); do
  munge --socket="$socket" --no-input 2> /dev/null | unmunge --socket="$socket" > /dev/null 2>&1 && break
  running "${daemon_pids[0]}" || break
  sleep 0.2
done
munge --socket="$socket" --no-input 2> /dev/null | unmunge --socket="$socket" > /dev/null 2>&1 ||
  skip "munged did not start on this machine:"$'\n'"$(tail_of "$cluster/log/munged.out")"

# slurm.conf for one node, this machine, with its cores; no cgroups, no accounting database.
ctld_port=$(free_port)
slurmd_port=$(free_port)
while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done
me=$(id -un)
cat > "$cluster/slurm.conf" <<EOF
# Written by tests/cli/scale_slurm_test.sh: a one-node cluster on this machine for the test's time.
ClusterName=plateau-test
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$me
SlurmdUser=$me
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$cluster/state
SlurmdSpoolDir=$cluster/spool
SlurmctldPidFile=$cluster/slurmctld.pid
SlurmdPidFile=$cluster/slurmd.pid
SlurmctldLogFile=$cluster/log/slurmctld.log
SlurmdLogFile=$cluster/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=plateau-node NodeHostname=$(hostname -s) NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=plateau Nodes=plateau-node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$cluster/slurm.conf
env "$mark" slurmctld -D -f "$SLURM_CONF" > "$cluster/log/slurmctld.out" 2>&1 &
daemon_pids+=($!)
env "$mark" slurmd -D -N plateau-node -f "$SLURM_CONF" > "$cluster/log/slurmd.out" 2>&1 &
daemon_pids+=($!)
state=""
for _ in $(seq 1 300); do
  state=$(sinfo -h -n plateau-node -o %T 2> /dev/null || true)
  [ "$state" = idle ] && break
  running "${daemon_pids[1]}" && running "${daemon_pids[2]}" || break
  sleep 0.2
done
[ "$state" = idle ] ||
  skip "the one-node Slurm cluster did not start on this machine (node state '${state:-none}'):
slurmctld:
$(tail_of "$cluster/log/slurmctld.log")
$(tail_of "$cluster/log/slurmctld.out")
slurmd:
$(tail_of "$cluster/log/slurmd.log")
$(tail_of "$cluster/log/slurmd.out")"
echo "a one-node Slurm cluster on this machine: $(nproc) CPUs, slurmctld on port $ctld_port (up at $SECONDS s)"

# settle: waits until every job has ended but those waiting on a dependency that can never be met
# (they wait forever: that is what a user sees).
settle() {
  local q
  for _ in $(seq 1 600); do
    q=$(squeue -h -o '%i %T %r') || fail "squeue: $q"
    [ -n "$q" ] && grep -qv ' PENDING DependencyNeverSatisfied$' <<<"$q" || return 0
    sleep 0.5
  done
  fail "the jobs did not end within 300 s: $q"
}
# job_field <job> <Field>: what scontrol says of the job (JobState, ExitCode...).
job_field() { scontrol -o show job "$1" | grep -o " $2=[^ ]*" | head -1 | cut -d= -f2; }
# logs <folder>: every Slurm log in the folder, for a message.
logs() { for f in "$1"/slurm-*; do echo "== $f"; cat "$f"; done 2> /dev/null; }

# ---- the job array and its merge --------------------------------------------------------------
[ "$(recipe_value slurm-array --array)" = "1-$(recipe_value slurm-array N)" ] ||
  fail "docs/scale.md's shard.sbatch should have --array=1-N for its N"
run="chenilles -n 60 --players 3 --bots heuristic,random"
N=6
mkdir "$work/array"
recipe_with slurm-array run="$run" N=$N --array=1-$N > "$work/array/shard.sbatch"
recipe slurm-array-submit > "$work/array/submit.sh"
(cd "$work/array" && bash -e submit.sh > submit.txt) || fail "the submission failed: $(cat "$work/array/submit.txt")"
settle
[ -s "$work/array/report.txt" ] || fail "the merge job wrote no report: $(logs "$work/array")"
[ "$(ls "$work/array"/shard-*.json | wc -l)" = $N ] && [ "$(ls "$work/array"/slurm-*_*.log | wc -l)" = $N ] ||
  fail "the array should have run $N tasks: $(ls "$work/array")"
# shellcheck disable=SC2086
plateau simulate $run > "$work/one.txt"
same_report "$work/one.txt" "$work/array/report.txt" text "the Slurm array"
echo "the array and its merge job: ok (at $SECONDS s)"

# ---- a slice that dies mid-array, and the rescue --------------------------------------------------
# Slice 3's plateau is killed before it writes anything, as when its node dies or the kernel's
# OOM killer ends it: the task fails, its file stays empty.
mkdir -p "$work/rescue/dying"
cp "$work/array/shard.sbatch" "$work/array/submit.sh" "$work/rescue/"
cat > "$work/rescue/dying/plateau" <<EOF
#!/bin/bash
[[ " \$* " == *" --shard 3/$N "* ]] && kill -KILL \$\$
exec "$plateau" "\$@"
EOF
chmod +x "$work/rescue/dying/plateau"
(cd "$work/rescue" && PATH="$work/rescue/dying:$PATH" bash -e submit.sh > submit.txt) ||
  fail "the submission failed: $(cat "$work/rescue/submit.txt")"
settle
# The array's id, from its tasks' logs (slurm-%A_%a.log).
array=$(cd "$work/rescue" && ls slurm-*_3.log | sed 's/^slurm-//; s/_3.log$//')
waiting=$(squeue -h -o '%i %T %r')
[ "$(wc -l <<<"$waiting")" = 1 ] && grep -q " PENDING DependencyNeverSatisfied$" <<<"$waiting" ||
  fail "the merge job should wait forever on the failed array: $waiting"
[ "$(job_field "${array}_3" JobState)" = FAILED ] || fail "slice 3's task should have FAILED: $(scontrol -o show job "${array}_3")"
[ ! -s "$work/rescue/report.txt" ] || fail "no merge should have run"
scancel "${waiting%% *}"
settle
cd "$work/rescue"
refused "shard 3/$N is missing: the files given are shard-1.json (1), shard-2.json (2), shard-4.json (4), shard-5.json (5), shard-6.json (6); run plateau simulate ... --shard 3/$N --format json for it; shard-3.json is empty" \
  merge shard-*.json
# The same merge as a job: its exit code reaches Slurm.
merge=$(sbatch --parsable --wrap "plateau merge shard-*.json > report.txt")
settle
[ "$(job_field "$merge" JobState)" = FAILED ] && [ "$(job_field "$merge" ExitCode)" = 2:0 ] ||
  fail "a refused merge should end FAILED with exit code 2: $(scontrol -o show job "$merge")"
grep -qF "shard 3/$N is missing" "slurm-$merge.out" || fail "the merge job's log should name the slice: $(cat "slurm-$merge.out")"
# Resubmit only the missing slice, and the merge after it, as the page says.
recipe slurm-array-rescue > rescue.sh
grep -qF -- "--array=3,17 " rescue.sh || fail "the page's rescue block should resubmit --array=3,17: $(cat rescue.sh)"
sed -i 's/--array=3,17 /--array=3 /' rescue.sh
bash -e rescue.sh > /dev/null || fail "the rescue failed"
settle
same_report "$work/one.txt" report.txt text "the Slurm array after resubmitting the missing slice"
echo "a slice killed mid-array, the merge refused (exit code 2 in Slurm), the slice resubmitted: ok (at $SECONDS s)"
cd "$work"

# ---- a sweep: one task per value and slice, one merge per value ----------------------------------
values=$(recipe_value slurm-sweep values)
page_n=$(recipe_value slurm-sweep N)
[ "$(recipe_value slurm-sweep --array)" = "1-$(($(wc -w <<<"$values") * page_n))" ] ||
  fail "docs/scale.md's sweep.sbatch should have --array=1-(values x N)"
run="ecosysteme-savane -n 40 --players 3 --bots greedy,random"
N=2
mkdir "$work/sweep"
recipe_with slurm-sweep run="$run" N=$N --array=1-$(($(wc -w <<<"$values") * N)) > "$work/sweep/sweep.sbatch"
recipe slurm-sweep-submit > "$work/sweep/submit.sh"
(cd "$work/sweep" && bash -e submit.sh > submit.txt) || fail "the sweep's submission failed: $(cat "$work/sweep/submit.txt")"
settle
for v in $values; do
  [ -s "$work/sweep/hand_size-$v.json" ] || fail "the sweep wrote no hand_size-$v.json: $(logs "$work/sweep")"
  # shellcheck disable=SC2086
  plateau simulate $run --set hand_size=$v --format json > "$work/one-$v.json"
  same_report "$work/one-$v.json" "$work/sweep/hand_size-$v.json" json "the Slurm sweep, hand_size=$v"
done
# The same folder again with a slice of an earlier sweep of 4 slices left in it: the merge job
# refuses it by name, and Slurm hears of it.
first=${values%% *}
# shellcheck disable=SC2086
plateau simulate $run --set hand_size=$first --threads 1 --shard 3/4 --format json > "$work/sweep/sweep-$first-3.json"
wrap=$(recipe slurm-sweep-submit | grep -o -- "--wrap '[^']*'" | sed "s/^--wrap '//; s/'$//")
[ -n "$wrap" ] || fail "the sweep's submission should end with a --wrap '...' merge"
merge=$(cd "$work/sweep" && sbatch --parsable --wrap "$wrap")
settle
[ "$(job_field "$merge" JobState)" = FAILED ] && [ "$(job_field "$merge" ExitCode)" = 2:0 ] ||
  fail "the sweep's merge job should fail with exit code 2: $(scontrol -o show job "$merge")"
grep -qF "sweep-$first-3.json is shard 3/4 but sweep-$first-1.json is shard 1/$N" "$work/sweep/slurm-$merge.out" ||
  fail "the sweep's merge job should name the stale slice: $(cat "$work/sweep/slurm-$merge.out")"
echo "the sweep, and its merge job refusing a stale slice: ok (at $SECONDS s)"

# ---- plateau tune with its slices as job steps ---------------------------------------------------
tune="$src/tests/data/games/tune-target --vary a=0..20 --vary b=0..20 --target count:total=16 --target count:gap=2 -n 60 --budget 6 --format json"
mkdir "$work/tune"
recipe_with slurm-tune tune="$tune" --ntasks=2 > "$work/tune/tune.sbatch"
grep -qF -- "--shards" "$work/tune/tune.sbatch" || fail "the page's tune.sbatch should use --shards"
tune_job=$(cd "$work/tune" && sbatch --parsable tune.sbatch)
settle
[ "$(job_field "$tune_job" JobState)" = COMPLETED ] || fail "the tune job: $(scontrol -o show job "$tune_job"): $(logs "$work/tune")"
# shellcheck disable=SC2086
plateau tune $tune > "$work/tune-here.json"
same_search "$work/tune-here.json" "$work/tune/tune.txt" "tune with its slices as Slurm job steps"
echo "plateau tune with srun slices: ok (at $SECONDS s)"

stop_cluster
for p in "${stopped_pids[@]}"; do
  ! running "$p" || fail "daemon $p is still running after the test stopped the cluster"
done
echo "docs/scale.md's Slurm recipes ok on a one-node cluster"
