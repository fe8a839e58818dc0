#!/usr/bin/env ruby
# frozen_string_literal: true

# Writes analysis/runtime/data/bolt_functions.json: the functions Bolt's own
# modules (bolt-modules/*: boltlib, ctrl, dir, file, log, out, prompt,
# system) give to plans, read from a Bolt checkout's function files. Only
# each function's name and module are recorded: Bolt loads these modules for
# every plan it runs, so a plan calling `run_task` or `ctrl::sleep` calls a
# function that exists, though no module of the workspace defines it.
#
#   ruby tools/gen_bolt_functions.rb BOLT_CHECKOUT > analysis/runtime/data/bolt_functions.json
#
# The table in the repository was read from the tag 4.0.0 of puppetlabs/bolt.

require 'json'

root = ARGV.fetch(0) { abort "usage: #{$PROGRAM_NAME} BOLT_CHECKOUT" }
version = File.read(File.join(root, 'lib/bolt/version.rb'))[/VERSION\s*=\s*'([^']+)'/, 1]
abort 'no lib/bolt/version.rb in the checkout' unless version

functions = Dir.glob(File.join(root, 'bolt-modules/*/lib/puppet/functions/**/*.rb')).sort.map do |file|
  mod = file[%r{bolt-modules/([^/]+)/}, 1]
  name = File.read(file)[/create_function\(\s*:'?([a-z0-9_:]+)'?/, 1]
  abort "#{file}: no create_function" unless name
  # The autoloader finds a function by its path: the name must match it.
  expected = file.sub(%r{.*/lib/puppet/functions/}, '').delete_suffix('.rb').gsub('/', '::')
  abort "#{file}: defines #{name}, not #{expected}" unless name == expected
  { 'name' => name, 'module' => mod }
end

puts JSON.pretty_generate(
  'bolt_version' => version,
  'count' => functions.size,
  'functions' => functions.sort_by { |f| f['name'] }
)
