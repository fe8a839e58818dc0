#!/usr/bin/env ruby
# frozen_string_literal: true
#
# compile_oracle.rb - compile test workspaces with the real Puppet (7 or 8)
# and report whether the catalog compiles, so that the verdicts can be
# recorded as test data (no test runs Puppet).
#
# Input: fixture files in the multi-file format of the analysis tests
# (`#- /ws/path` headers; `/ws` is an environment directory with
# `modules/`, `manifests/site.pp`, `data/`, `hiera.yaml`). Lines before the
# first header are descriptions, ignored except for `oracle:` directives
# (below).
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
# Which Puppet: the one `require 'puppet'` finds. With the system Ruby's
# load path that is Debian's Puppet 7.23 (verdicts.tsv); for Puppet 8.10
# put its library first:
#
#   ruby -I /opt/puppet8/root/usr/lib/ruby/vendor_ruby tools/compile_oracle.rb FIXTURE...
#
# The mode follows `Puppet.version` (major 8 or later = Puppet 8 mode).
# Puppet 8 mode keeps Puppet 8's own defaults (`strict=error`,
# `strict_variables=true`) and gives the node the facts Facter 4 sends
# under Puppet 8 (`include_legacy_facts=false`): the fact set without its
# legacy top-level facts (LEGACY_FACTS: `osfamily`, `fqdn`, ...); the
# structured core facts (`os`, `networking`, `kernel`, `path`, ...) stay.
# Puppet 7 mode is unchanged: Puppet 7's defaults (`strict=warning`,
# `strict_variables=false`) and the legacy facts too.
#
# Other settings and stdlib, for one fixture or for all:
#
#   description line            environment variable        value
#   oracle: strict=V            ORACLE_STRICT=V             off, warning, error
#   oracle: strict_variables=V  ORACLE_STRICT_VARIABLES=V   true, false
#   oracle: stdlib=V            ORACLE_STDLIB=V             corpus, none, 8.5, 9
#
# A fixture's `oracle:` line (several `key=value` may share one line) wins
# over the environment variable; without either, the Puppet version's
# default settings apply, and the module path is `stdlib=corpus`.
#
# The module path: `corpus` (the default, what every fixture got before
# the option existed) is the environment's `modules` followed by Puppet's
# `basemodulepath`, which with Debian's Puppet 7 and 8 ends in
# /usr/share/puppet/modules: all of Debian's modules, puppetlabs-stdlib
# 8.5.0 among them. (No verdict of verdicts.tsv or verdicts8.tsv changes
# without them.) `none` is the environment's `modules` alone; `8.5` adds
# Debian's stdlib 8.5.0 (/usr/share/puppet/modules/stdlib) and `9`
# puppetlabs-stdlib 9.4.1 (/opt/puppet8/stdlib9/stdlib) to it, linked as
# `modules/stdlib` (so only that stdlib: Puppet's autoloader finds 3.x
# functions in every module directory of the path, even a shadowed one).
# A fixture that asks for a stdlib must not have its own `modules/stdlib`.
# These are the oracle's only: puppet-ls, reading the same fixture, sees
# neither the Debian modules nor the stdlib. So the verdict fixtures
# (analysis/test_data/verdicts) use neither `8.5` nor `9`: a fixture about
# stdlib carries a stand-in `modules/stdlib` of its own (its metadata.json
# and only the functions its code reaches, behaving as that stdlib's do)
# and asks for `stdlib=none`. `8.5` and `9` remain for checking such a
# stand-in against the real stdlib.
#
# ORACLE_DEBUG=1 prints, on stderr, the Puppet version, mode and the
# settings, facts and module path each fixture compiles with.
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

  # The top-level facts of FACT_SETS that Facter 4 reports only as legacy
  # facts, which Puppet 8 does not send (`include_legacy_facts=false`).
  # From Facter 4.3's Linux facts (lib/facter/facts/linux, debian, ubuntu):
  # a structured fact declares its legacy name in ALIASES (`os.family` ->
  # `osfamily`, `os.name` -> `operatingsystem`, `os.release` ->
  # `operatingsystemmajrelease`, `networking.fqdn` -> `fqdn`,
  # `networking.hostname` -> `hostname`, `networking.domain` -> `domain`,
  # `networking.ip` -> `ipaddress`, `os.selinux.enabled` -> `selinux`,
  # `os.selinux.current_mode` -> `selinux_current_mode`,
  # `os.distro.codename` -> `lsbdistcodename`); the core facts `kernel`,
  # `path` and `ec2_metadata` have no ALIASES nor `TYPE = :legacy` and stay,
  # as do the structured `os`, `networking`, `processors` and `memory`.
  LEGACY_FACTS = %w[
    osfamily operatingsystem operatingsystemmajrelease operatingsystemrelease
    fqdn hostname domain ipaddress
    selinux selinux_current_mode selinux_config_mode selinux_config_policy
    selinux_enforced selinux_policyversion
    lsbdistcodename lsbdistid lsbdistrelease lsbdistdescription lsbmajdistrelease
    architecture hardwaremodel processorcount memorysize
  ].freeze

  # Puppet 8 mode: the Puppet that `require 'puppet'` loaded is 8 or later.
  def self.puppet8?
    Integer(Puppet.version.split('.').first) >= 8
  end

  # The facts the node gets: in Puppet 8 mode, without the legacy facts.
  def self.node_facts(fact_set)
    facts = fact_set.facts.dup
    LEGACY_FACTS.each { |name| facts.delete(name) } if puppet8?
    facts
  end

  # The stdlib modules a fixture (or ORACLE_STDLIB) may ask for.
  STDLIBS = {
    '8.5' => '/usr/share/puppet/modules/stdlib',
    '9' => '/opt/puppet8/stdlib9/stdlib',
  }.freeze

  # The values each `oracle:` option may take, and its environment variable.
  OPTIONS = {
    'strict' => [%w[off warning error], 'ORACLE_STRICT'],
    'strict_variables' => [%w[true false], 'ORACLE_STRICT_VARIABLES'],
    'stdlib' => [%w[corpus none] + STDLIBS.keys, 'ORACLE_STDLIB'],
  }.freeze

  # The options of a fixture: its `oracle: key=value ...` description
  # lines (before the first `#- ` header), else the environment variables.
  def self.options(text, fixture_path)
    options = {}
    OPTIONS.each { |key, (_, var)| options[key] = ENV[var] if ENV[var] && !ENV[var].empty? }
    text.each_line do |line|
      break if line.start_with?('#- ')
      next unless (m = line.chomp.match(/\Aoracle:\s*(.*)\z/))

      m[1].split.each do |pair|
        key, value = pair.split('=', 2)
        abort "compile_oracle: #{fixture_path}: unknown oracle option #{pair}" unless OPTIONS.key?(key) && value
        options[key] = value
      end
    end
    options.each do |key, value|
      allowed, = OPTIONS.fetch(key)
      abort "compile_oracle: #{fixture_path}: #{key}=#{value} (known: #{allowed.join(', ')})" unless allowed.include?(value)
    end
    options
  end

  # Whether the environment's module path is its `modules` alone (else
  # Puppet's `basemodulepath` follows, see `compile`).
  @own_modules_only = false

  # Applies a fixture's options in the compiling process: the settings,
  # and the module path. `stdlib=corpus` (the default) leaves Puppet's
  # `basemodulepath` after the environment's `modules` (with Debian's
  # Puppet 7 and 8, /usr/share/puppet/modules: the Debian modules, stdlib
  # 8.5 among them); `none`, `8.5` and `9` leave only `modules`, and the
  # last two link that stdlib into it.
  def self.apply_options(options, env_dir, fixture_path)
    Puppet[:strict] = options['strict'].to_sym if options['strict']
    Puppet[:strict_variables] = options['strict_variables'] == 'true' if options['strict_variables']
    return if options.fetch('stdlib', 'corpus') == 'corpus'

    @own_modules_only = true
    stdlib = STDLIBS[options['stdlib']]
    return unless stdlib

    target = File.join(env_dir, 'modules', 'stdlib')
    abort "compile_oracle: #{fixture_path}: asks for stdlib and has modules/stdlib" if File.exist?(target)
    abort "compile_oracle: #{stdlib} is not installed" unless File.directory?(stdlib)
    FileUtils.mkdir_p(File.dirname(target))
    File.symlink(stdlib, target)
  end

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
    # Outside an override, the environment's settings (its module path)
    # come from Puppet's own environments loader, which appends
    # `basemodulepath`; inside, from `loader` (no global module path).
    env = if @own_modules_only
            Puppet.override({ environments: loader }, 'compile_oracle modules') { loader.get!(env_name) }
          else
            loader.get!(env_name)
          end
    facts = Puppet::Node::Facts.new(fact_set.node, node_facts(fact_set))
    node = Puppet::Node.new(fact_set.node, environment: env, facts: facts)
    node.merge(facts.values)
    # As `puppet apply` does (Puppet 7 and 8): `$server_facts` is
    # `{ environment => <the environment's name> }`.
    node.add_server_facts({})
    node.trusted_data = { 'authenticated' => 'local', 'certname' => fact_set.node,
                          'domain' => fact_set.facts['domain'], 'hostname' => fact_set.facts['hostname'],
                          'extensions' => {}, 'external' => {} }
    warn "#{env_name}: modulepath #{env.modulepath.join(':')}" if ENV['ORACLE_DEBUG']
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
    if ENV['ORACLE_DEBUG']
      warn "compile_oracle: Puppet #{Puppet.version} (#{puppet8? ? 'Puppet 8' : 'Puppet 7'} mode) " \
           "from #{$LOADED_FEATURES.grep(%r{/puppet/version\.rb\z}).first}"
    end
    # Each fixture compiles in a forked child: Puppet caches Ruby resource
    # types per process, and two fixtures may define the same type name.
    fixtures.each_with_index do |fixture_path, i|
      text = File.read(fixture_path)
      options = options(text, fixture_path)
      pid = Process.fork do
        name = File.basename(fixture_path).sub(/\.[^.]+\z/, '')
        env_name = "fixture_#{i}"
        env_dir = File.join(root, env_name)
        split_fixture(text).each do |path, content|
          target = File.join(env_dir, path.sub(%r{\A/ws/?}, ''))
          FileUtils.mkdir_p(File.dirname(target))
          File.write(target, content)
        end
        FileUtils.mkdir_p(File.join(env_dir, 'modules'))
        FileUtils.mkdir_p(File.join(env_dir, 'manifests'))
        apply_options(options, env_dir, fixture_path)
        if ENV['ORACLE_DEBUG']
          warn "#{name}: strict=#{Puppet[:strict]} strict_variables=#{Puppet[:strict_variables]} " \
               "stdlib=#{options['stdlib'] || 'corpus'} facts=#{node_facts(fact_set).keys.sort.join(',')}"
        end
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
      abort "compile_oracle: #{fixture_path}: the compiling process failed (#{$?})" unless $?.success?
    end
    FileUtils.rm_rf(root)
  end
end

CompileOracle.main(ARGV) if $PROGRAM_NAME == __FILE__
