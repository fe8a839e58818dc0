#!/bin/sh
# regenerate.sh - re-records the verdicts of every fixture here:
# verdicts.tsv with Puppet 7.23 and verdicts8.tsv with Puppet 8.10
# (tools/compile_oracle.rb; see its header for the modes and the
# `oracle:` description lines).
#
# Needs installed:
# - Ruby and Debian 12's Puppet 7.23 (`puppet-agent`, with facter 4.3),
#   the Puppet that plain `ruby` loads;
# - Puppet 8.10 unpacked at /opt/puppet8 (install-puppet8.sh of the shared
#   oracle folder: Debian 13's `puppet-agent`, library in
#   /opt/puppet8/root/usr/lib/ruby/vendor_ruby, which that script also
#   uses for stdlib 9 at /opt/puppet8/stdlib9/stdlib);
# - for fixtures with `oracle: stdlib=8.5`, Debian 12's
#   puppet-module-puppetlabs-stdlib 8.5 at /usr/share/puppet/modules/stdlib.
#
# Order: the fixtures already listed in verdicts.tsv in its order, then
# the others sorted by name, so a run on unchanged fixtures gives the same
# files. Both files list the fixtures in the same order.
#
# Usage: analysis/test_data/verdicts/regenerate.sh   (from anywhere)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
oracle="$here/../../../tools/compile_oracle.rb"
puppet8_lib=/opt/puppet8/root/usr/lib/ruby/vendor_ruby
cd "$here"

ruby -e 'require "puppet"; exit(Puppet.version.start_with?("7.") ? 0 : 1)' ||
  { echo "regenerate.sh: plain ruby does not load Puppet 7" >&2; exit 1; }
ruby -I "$puppet8_lib" -e 'require "puppet"; exit(Puppet.version.start_with?("8.") ? 0 : 1)' ||
  { echo "regenerate.sh: $puppet8_lib does not hold Puppet 8" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/listed"
if [ -f verdicts.tsv ]; then
  cut -f1 verdicts.tsv | while read -r name; do
    if [ -f "$name.fixture" ]; then echo "$name"; fi
  done > "$tmp/listed"
fi
for f in *.fixture; do
  name=${f%.fixture}
  grep -qxF "$name" "$tmp/listed" || echo "$name"
done | LC_ALL=C sort > "$tmp/new"
cat "$tmp/listed" "$tmp/new" | sed 's/$/.fixture/' > "$tmp/order"

# shellcheck disable=SC2046
ruby "$oracle" $(cat "$tmp/order") > "$tmp/verdicts.tsv"
# shellcheck disable=SC2046
ruby -I "$puppet8_lib" "$oracle" $(cat "$tmp/order") > "$tmp/verdicts8.tsv"
mv "$tmp/verdicts.tsv" verdicts.tsv
mv "$tmp/verdicts8.tsv" verdicts8.tsv
echo "regenerate.sh: $(wc -l < verdicts.tsv) verdicts (Puppet 7), $(wc -l < verdicts8.tsv) (Puppet 8)" >&2
