#!/usr/bin/env bash
# Usage: tests/net/openssh.sh BEAMVM
# OpenSSH's client against OTP's ssh daemon (issue 24), loopback only: the daemon runs on erl,
# then on BEAMVM, with ed25519 host and user keys made by ssh-keygen and public-key login; the
# client runs one exec command (an Erlang expression the daemon evaluates) with each of several
# ciphers and key exchanges, and the two daemons' answers must be equal. OpenSSH shares no code
# with OTP, so this checks the daemon's crypto against another implementation's.
# Exit 77 (skipped) when ssh or ssh-keygen is missing.
set -u
[ $# -eq 1 ] || { echo "usage: $0 BEAMVM" >&2; exit 2; }
beamvm=$1
command -v ssh >/dev/null && command -v ssh-keygen >/dev/null || { echo "no OpenSSH client"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/system" "$work/user" "$work/client"
ssh-keygen -q -t ed25519 -N '' -f "$work/system/ssh_host_ed25519_key" || exit 1
ssh-keygen -q -t ed25519 -N '' -f "$work/client/id" || exit 1
cp "$work/client/id.pub" "$work/user/authorized_keys"

# cipher / kex pairs, each a separate connection
algs=("aes256-gcm@openssh.com curve25519-sha256"
      "chacha20-poly1305@openssh.com ecdh-sha2-nistp256"
      "aes128-ctr diffie-hellman-group14-sha256")
cmd='binary:encode_hex(crypto:hash(sha256, [integer_to_list(X) || X <- lists:seq(1, 1000)])).'

# run VM OUT: start a daemon on VM (it stops itself after 60 s), run the client once per pair.
run() {
  local vm=$1 out=$2 pid i port
  rm -f "$work/port"
  timeout -k 5 70 "$vm" -noshell -eval "
      ok = ssh:start(),
      {ok, D} = ssh:daemon({127,0,0,1}, 0, [{system_dir, \"$work/system\"},
                                            {user_dir, \"$work/user\"},
                                            {auth_methods, \"publickey\"}]),
      {ok, Info} = ssh:daemon_info(D),
      ok = file:write_file(\"$work/port.tmp\", integer_to_list(proplists:get_value(port, Info))),
      ok = file:rename(\"$work/port.tmp\", \"$work/port\"),
      timer:sleep(60000)" -s erlang halt >"$out.daemon" 2>&1 </dev/null &
  pid=$!
  for ((i = 0; i < 200; i++)); do [ -s "$work/port" ] && break; sleep 0.1; done
  port=$(cat "$work/port" 2>/dev/null)
  : >"$out"
  for a in "${algs[@]}"; do
    read -r cipher kex <<<"$a"
    echo "$cipher $kex: $(timeout 20 ssh -q -c "$cipher" -o KexAlgorithms="$kex" -i "$work/client/id" \
      -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes \
      -p "${port:-1}" root@127.0.0.1 "$cmd" 2>&1) (exit $?)" >>"$out"
  done
  kill $pid 2>/dev/null
  wait $pid 2>/dev/null
}

run erl "$work/erl"
run "$beamvm" "$work/beamvm"
cat "$work/beamvm"
if ! grep -q '(exit 0)' "$work/erl"; then
  echo "--- the erl daemon did not answer:"; cat "$work/erl" "$work/erl.daemon"; exit 1
fi
if ! cmp -s "$work/erl" "$work/beamvm"; then
  echo "--- beamvm's daemon answered otherwise than erl's (< erl, > beamvm):"
  diff "$work/erl" "$work/beamvm"
  tail -20 "$work/beamvm.daemon"
  exit 1
fi
echo "ok: $(wc -l <"$work/erl") exec commands answered as erl's daemon answers"
