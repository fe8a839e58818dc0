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
# layers). `ORACLE_FACTS=redhat9` (or `ubuntu2204`) compiles with another
# fact set of FACT_SETS instead (node, operating system, SELinux, EC2).
#
# Output: one tab-separated line per fixture: name, `ok` or `error`, the
# first line of Puppet's error message.
#
# Usage: ruby tools/compile_oracle.rb FIXTURE... > verdicts.tsv
#        ORACLE_LOG=notice ruby tools/compile_oracle.rb FIXTURE...
#
# The soundness harness (tools/soundness/) requires this file for
# CompileOracle.setup and CompileOracle.compile.

require 'json'
require 'tmpdir'
require 'fileutils'
require 'puppet'
require 'puppet/test/test_helper' unless defined?(Puppet::Test::LogCollector)

module CompileOracle
  NODE_NAME = 'test.example.com'

  # A fact set: the node's name and the facts Facter would report there.
  FactSet = Struct.new(:node, :facts)

  # What every Linux fact set has, for a node named `node` at `ip`.
  def self.linux_facts(node, ip)
    host, domain = node.split('.', 2)
    {
      'kernel' => 'Linux',
      'fqdn' => node,
      'hostname' => host,
      'domain' => domain,
      'networking' => { 'fqdn' => node, 'hostname' => host, 'domain' => domain, 'ip' => ip },
      'ipaddress' => ip,
      'processors' => { 'count' => 2 },
      'memory' => { 'system' => { 'total_bytes' => 4_294_967_296 } },
      'path' => '/usr/sbin:/usr/bin:/sbin:/bin',
    }
  end

  FACT_SETS = {
    # The verdicts' facts (the default): keep them as they are.
    'debian12' => FactSet.new(NODE_NAME, {
      'os' => { 'family' => 'Debian', 'name' => 'Debian',
                'release' => { 'major' => '12', 'full' => '12.5' },
                'architecture' => 'amd64' },
      'osfamily' => 'Debian',
      'operatingsystem' => 'Debian',
      'operatingsystemmajrelease' => '12',
    }.merge(linux_facts(NODE_NAME, '192.0.2.10')).freeze),
    # A RedHat 9 host on EC2 with SELinux enforcing: facts Debian 12 has
    # not (`os.selinux.current_mode`, `ec2_metadata`) and more processors.
    'redhat9' => FactSet.new('db01.example.com', {
      'os' => { 'family' => 'RedHat', 'name' => 'RedHat',
                'release' => { 'major' => '9', 'minor' => '3', 'full' => '9.3' },
                'architecture' => 'x86_64',
                'selinux' => { 'enabled' => true, 'enforced' => true, 'current_mode' => 'enforcing',
                               'config_mode' => 'enforcing', 'config_policy' => 'targeted',
                               'policy_version' => '33' } },
      'osfamily' => 'RedHat',
      'operatingsystem' => 'RedHat',
      'operatingsystemmajrelease' => '9',
      'selinux' => true,
      'selinux_current_mode' => 'enforcing',
      'ec2_metadata' => { 'instance-id' => 'i-0123456789abcdef0', 'instance-type' => 't3.medium',
                          'placement' => { 'availability-zone' => 'eu-west-1a' } },
    }.merge(linux_facts('db01.example.com', '198.51.100.7'))
     .merge('processors' => { 'count' => 8 }).freeze),
    # An Ubuntu host: SELinux reported but disabled (no current_mode).
    'ubuntu2204' => FactSet.new('web02.example.com', {
      'os' => { 'family' => 'Debian', 'name' => 'Ubuntu',
                'release' => { 'major' => '22.04', 'full' => '22.04' },
                'distro' => { 'codename' => 'jammy', 'id' => 'Ubuntu',
                              'release' => { 'major' => '22.04', 'full' => '22.04' } },
                'architecture' => 'amd64',
                'selinux' => { 'enabled' => false } },
      'osfamily' => 'Debian',
      'operatingsystem' => 'Ubuntu',
      'operatingsystemmajrelease' => '22.04',
      'lsbdistcodename' => 'jammy',
    }.merge(linux_facts('web02.example.com', '203.0.113.5')).freeze),
  }.freeze

  LOGS = []

  # Puppet's settings for environments under `root` (no global Hiera
  # layer); messages at `level` and above are collected in LOGS.
  def self.setup(root, level: :warning)
    Puppet.initialize_settings(['--certname', NODE_NAME, '--environmentpath', root,
                                '--codedir', root, '--vardir', File.join(root, 'var'),
                                '--hiera_config', File.join(root, 'no-global-hiera.yaml')])
    Puppet::Util::Log.newdestination(Puppet::Test::LogCollector.new(LOGS))
    Puppet::Util::Log.level = level
  end

  # Compiles `manifests/site.pp` of the environment `env_name` under
  # `root` for the node of `fact_set`, as `puppet apply` would; raises
  # Puppet's error.
  def self.compile(root, env_name, fact_set)
    loader = Puppet::Environments::Directories.new(root, [])
    env = loader.get!(env_name)
    facts = Puppet::Node::Facts.new(fact_set.node, fact_set.facts.dup)
    node = Puppet::Node.new(fact_set.node, environment: env, facts: facts)
    node.merge(facts.values)
    node.trusted_data = { 'authenticated' => 'local', 'certname' => fact_set.node,
                          'domain' => fact_set.facts['domain'], 'hostname' => fact_set.facts['hostname'],
                          'extensions' => {} }
    Puppet.override({ current_environment: env, environments: loader }, 'compile_oracle') do
      Puppet::Parser::Compiler.compile(node)
    end
  end

  def self.split_fixture(text)
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

  def self.first_line(msg)
    s = msg.to_s
    s = s.encode('UTF-8', invalid: :replace, undef: :replace) unless s.valid_encoding?
    s.lines.first.to_s.chomp
  end

  # Compiles each fixture (see the file's header) and prints its verdict.
  def self.main(fixtures)
    fact_set = FACT_SETS.fetch(ENV['ORACLE_FACTS'] || 'debian12') do |name|
      abort "compile_oracle: unknown ORACLE_FACTS #{name} (known: #{FACT_SETS.keys.join(', ')})"
    end
    root = Dir.mktmpdir('puppet-ls-oracle')
    # ORACLE_LOG=notice also prints the messages of each compilation
    # (notices and warnings) on stderr.
    setup(root, level: (ENV['ORACLE_LOG'] || 'warning').to_sym)
    # Each fixture compiles in a forked child: Puppet caches Ruby resource
    # types per process, and two fixtures may define the same type name.
    fixtures.each_with_index do |fixture_path, i|
      pid = Process.fork do
        name = File.basename(fixture_path).sub(/\.[^.]+\z/, '')
        env_name = "fixture_#{i}"
        env_dir = File.join(root, env_name)
        split_fixture(File.read(fixture_path)).each do |path, content|
          target = File.join(env_dir, path.sub(%r{\A/ws/?}, ''))
          FileUtils.mkdir_p(File.dirname(target))
          File.write(target, content)
        end
        FileUtils.mkdir_p(File.join(env_dir, 'modules'))
        FileUtils.mkdir_p(File.join(env_dir, 'manifests'))
        verdict = 'ok'
        error = ''
        begin
          compile(root, env_name, fact_set)
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
  end
end

CompileOracle.main(ARGV) if $PROGRAM_NAME == __FILE__
