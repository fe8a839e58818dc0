#!/usr/bin/env ruby
# frozen_string_literal: true
#
# compile_oracle.rb - compile test workspaces with the real Puppet 7 and
# report whether the catalog compiles, so that the verdicts can be recorded
# as test data (no test runs Puppet).
#
# Input: fixture files in the multi-file format of the analysis tests
# (`#- /ws/path` headers; `/ws` is an environment directory with
# `modules/`, `manifests/site.pp`, `data/`, `hiera.yaml`). Lines before the
# first header are ignored (descriptions).
#
# Each fixture is written into its own environment directory and compiled
# for node `test.example.com` with fixed Debian 12 facts, as `puppet apply`
# would compile `manifests/site.pp` (with Hiera's environment and module
# layers). Templates named in `# oracle-epp: mod/x.epp {...}` lines are also
# rendered with `epp()` in the main manifest's context.
#
# Output: one tab-separated line per fixture: name, `ok` or `error`, the
# first line of Puppet's error message.
#
# Usage: ruby tools/compile_oracle.rb FIXTURE... > verdicts.tsv
#        ORACLE_LOG=notice ruby tools/compile_oracle.rb FIXTURE...

require 'json'
require 'tmpdir'
require 'fileutils'
require 'puppet'
require 'puppet/test/test_helper' unless defined?(Puppet::Test::LogCollector)

NODE_NAME = 'test.example.com'
FACTS = {
  'os' => { 'family' => 'Debian', 'name' => 'Debian',
            'release' => { 'major' => '12', 'full' => '12.5' },
            'architecture' => 'amd64' },
  'kernel' => 'Linux',
  'osfamily' => 'Debian',
  'operatingsystem' => 'Debian',
  'operatingsystemmajrelease' => '12',
  'fqdn' => NODE_NAME,
  'hostname' => 'test',
  'domain' => 'example.com',
  'networking' => { 'fqdn' => NODE_NAME, 'hostname' => 'test', 'domain' => 'example.com',
                    'ip' => '192.0.2.10' },
  'ipaddress' => '192.0.2.10',
  'processors' => { 'count' => 2 },
  'memory' => { 'system' => { 'total_bytes' => 4_294_967_296 } },
  'path' => '/usr/sbin:/usr/bin:/sbin:/bin',
}.freeze

def split_fixture(text)
  files = {}
  current = nil
  text.each_line do |line|
    if (m = line.match(%r{\A#- (/\S+)\s*\z}))
      current = m[1]
      files[current] = +''
    elsif current
      files[current] << line
    end
  end
  files
end

def first_line(msg)
  s = msg.to_s
  s = s.encode('UTF-8', invalid: :replace, undef: :replace) unless s.valid_encoding?
  s.lines.first.to_s.chomp
end

root = Dir.mktmpdir('puppet-ls-oracle')
Puppet.initialize_settings(['--certname', NODE_NAME, '--environmentpath', root,
                            '--codedir', root, '--vardir', File.join(root, 'var'),
                            '--hiera_config', File.join(root, 'no-global-hiera.yaml')])
LOGS = []
Puppet::Util::Log.newdestination(Puppet::Test::LogCollector.new(LOGS))
# ORACLE_LOG=notice also prints the messages of each compilation (notices
# and warnings) on stderr.
Puppet::Util::Log.level = (ENV['ORACLE_LOG'] || 'warning').to_sym

# Each fixture compiles in a forked child: Puppet caches Ruby resource
# types per process, and two fixtures may define the same type name.
ARGV.each_with_index do |fixture_path, i|
  pid = Process.fork do
  name = File.basename(fixture_path).sub(/\.[^.]+\z/, '')
  env_name = "fixture_#{i}"
  env_dir = File.join(root, env_name)
  split_fixture(File.read(fixture_path)).each do |path, content|
    rel = path.sub(%r{\A/ws/?}, '')
    target = File.join(env_dir, rel)
    FileUtils.mkdir_p(File.dirname(target))
    File.write(target, content)
  end
  FileUtils.mkdir_p(File.join(env_dir, 'modules'))
  FileUtils.mkdir_p(File.join(env_dir, 'manifests'))
  verdict = 'ok'
  error = ''
  begin
    loader = Puppet::Environments::Directories.new(root, [])
    env = loader.get!(env_name)
    facts = Puppet::Node::Facts.new(NODE_NAME, FACTS.dup)
    node = Puppet::Node.new(NODE_NAME, environment: env, facts: facts)
    node.merge(facts.values)
    node.trusted_data = { 'authenticated' => 'local', 'certname' => NODE_NAME,
                          'domain' => 'example.com', 'hostname' => 'test', 'extensions' => {} }
    Puppet.override({ current_environment: env, environments: loader }, 'compile_oracle') do
      Puppet::Parser::Compiler.compile(node)
    end
  rescue StandardError, ScriptError, SystemStackError => e
    verdict = 'error'
    error = first_line(e.message).gsub(env_dir, '/ws').gsub("\t", ' ')
  end
  LOGS.each { |m| warn "#{name}: #{m.level}: #{first_line(m.message)}" } if ENV['ORACLE_LOG']
  puts [name, verdict, error].join("\t")
  $stdout.flush
  end
  Process.wait(pid)
end
FileUtils.rm_rf(root)
