#!/usr/bin/env ruby
# frozen_string_literal: true

# Generates analysis/runtime/data/puppet_builtins.json: the built-in resource types,
# metaparameters, functions, puppetlabs-stdlib functions and core facts of
# the installed Puppet, by introspecting the loaded Ruby objects (no regexps
# over Ruby sources) so the data stays exact for the Puppet it ran under.
#
# Usage (regenerate for a newer Puppet by running it under that Puppet):
#
#   ruby tools/gen_builtins.rb \
#     --core-modules /usr/share/puppet/modules \
#     --stdlib /usr/share/puppet/modules/stdlib \
#     --facter-schema /usr/lib/ruby/vendor_ruby/schema/facter.yaml \
#     --descriptions tools/builtin_descriptions.tsv \
#     > analysis/runtime/data/puppet_builtins.json
#
# Puppet 8.10 (Debian 13's puppet-agent unpacked under /opt/puppet8/root, see
# install-puppet8.sh in the shared oracle folder), stdlib 9.4.1 (Debian 13's
# puppet-module-puppetlabs-stdlib at /opt/puppet8/stdlib9/stdlib) and Facter
# 4.10.0 (Debian 13's `facter`, which puppet-agent 8.10 depends on, unpacked
# to /tmp/data8-apt/facter: `apt-get download facter` with a private apt state
# for trixie as install-puppet8.sh does, then `dpkg-deb -x facter_*.deb DIR`):
#
#   ruby -I /opt/puppet8/root/usr/lib/ruby/vendor_ruby \
#     -I /tmp/data8-apt/facter/usr/lib/ruby/vendor_ruby \
#     tools/gen_builtins.rb \
#     --core-modules /opt/puppet8/root/usr/share/puppet/vendor_modules \
#     --stdlib /opt/puppet8/stdlib9/stdlib \
#     --facter-schema /tmp/data8-apt/facter/usr/lib/ruby/vendor_ruby/schema/facter.yaml \
#     --descriptions tools/builtin_descriptions.tsv \
#     > analysis/runtime/data/puppet8_builtins.json
#
# The -I directories are passed on to the `puppet describe --list`
# subprocess and quoted, with the arguments, in the output's _comment.
#
# --core-modules: a directory holding the modules Puppet bundles as
#   "vendored core modules" (augeas_core, cron_core, ...); only those whose
#   name is listed in CORE_MODULES are used. Puppet's own vendormoduledir is
#   always searched too. Repeatable.
# --stdlib: the puppetlabs-stdlib module directory.
# --facter-schema: Facter's fact schema (facter.yaml).
# --descriptions: our own one-line descriptions (TSV: kind, key, text).
#
# Only names, types, signatures and allowed values are extracted; no
# documentation prose is copied. Descriptions come from the TSV file.

# The directories given to Ruby with -I (the Puppet and Facter to
# introspect when they are not the system's), read before anything is added
# to the load path: the `puppet describe` subprocess and the command quoted in
# the output's comment use the same ones.
INCLUDE_DIRS = $LOAD_PATH.take_while { |p| p != RbConfig::CONFIG['sitelibdir'] }.freeze
ARGS_GIVEN = ARGV.dup.freeze

require 'json'
require 'yaml'
require 'tmpdir'
require 'optparse'
require 'open3'
require 'fileutils'

# The modules Puppet 7 agents ship in vendor_modules ("core" types moved
# out of Puppet in 6.0), plus mailalias_core which older agents carried.
# Puppet 8.10 (Debian 13's puppet-agent) vendors ten of them, all but
# mailalias_core, under /usr/share/puppet/vendor_modules of its package.
CORE_MODULES = %w[
  augeas_core cron_core host_core mount_core scheduled_task selinux_core
  sshkeys_core yumrepo_core zfs_core zone_core mailalias_core
].freeze

opts = { core_modules: [], descriptions: nil }
OptionParser.new do |o|
  o.on('--core-modules DIR') { |d| opts[:core_modules] << d }
  o.on('--stdlib DIR') { |d| opts[:stdlib] = d }
  o.on('--facter-schema FILE') { |f| opts[:facter_schema] = f }
  o.on('--descriptions FILE') { |f| opts[:descriptions] = f }
end.parse!(ARGV)

# --- descriptions -----------------------------------------------------------

DESCRIPTIONS = Hash.new { |h, k| h[k] = {} }
if opts[:descriptions]
  File.readlines(opts[:descriptions], chomp: true).each do |line|
    next if line.strip.empty? || line.start_with?('#')
    kind, key, text = line.split("\t", 3)
    DESCRIPTIONS[kind][key] = text if text
  end
end

def desc(kind, key)
  DESCRIPTIONS[kind][key]
end

# --- module path --------------------------------------------------------------

# Build a module path holding only the core modules (modules may be installed
# under their short name, e.g. "mailalias" for puppetlabs-mailalias_core).
TMP_DIRS = []
at_exit { TMP_DIRS.each { |d| FileUtils.rm_rf(d) } }
core_dir = Dir.mktmpdir('puppet-core-modules')
TMP_DIRS << core_dir
found_core = {}
opts[:core_modules].each do |dir|
  Dir.glob(File.join(dir, '*')).sort.each do |mod|
    meta = File.join(mod, 'metadata.json')
    # Puppet 8's vendor_modules (as Debian 13 packages them) have no
    # metadata.json: the directory name is the module's full name there.
    full = if File.file?(meta)
             JSON.parse(File.read(meta))['name'].to_s.split(/[-\/]/, 2).last
           else
             File.basename(mod)
           end
    next unless CORE_MODULES.include?(full)
    next if found_core[full]
    found_core[full] = File.basename(mod)
    File.symlink(File.realpath(mod), File.join(core_dir, File.basename(mod)))
  end
end

require 'puppet'
Puppet.initialize_settings(['--modulepath', core_dir])
vendordir = Puppet[:vendormoduledir]
modulepath = [core_dir]
modulepath << vendordir if vendordir && File.directory?(vendordir)
Puppet[:modulepath] = modulepath.join(File::PATH_SEPARATOR)
env = Puppet::Node::Environment.create(:builtins, modulepath)

# --- resource types -------------------------------------------------------------

def regex_source(r)
  r.is_a?(Regexp) ? r.source : r.to_s
end

# Allowed values of a parameter class: literal values with their aliases, and
# the regexps (as sources).
def value_info(klass)
  return [[], []] unless klass.respond_to?(:value_collection)
  vc = klass.value_collection
  strings = vc.instance_variable_get(:@strings) || []
  regexes = vc.instance_variable_get(:@regexes) || []
  values = strings.map do |v|
    h = { 'name' => v.name.to_s }
    al = v.aliases.map(&:to_s)
    h['aliases'] = al unless al.empty?
    rf = v.required_features
    h['features'] = Array(rf).map(&:to_s) if rf && !Array(rf).empty?
    h
  end
  [values, regexes.map { |r| regex_source(r.name) }]
end

BOOLEAN_WORDS = %w[true false yes no].freeze

# The Puppet type of a parameter's value where introspection tells it.
def value_type(klass, values, regexes)
  if defined?(Puppet::Parameter::Boolean) && klass <= Puppet::Parameter::Boolean
    return 'Boolean'
  end
  if defined?(Puppet::Property::Boolean) && klass <= Puppet::Property::Boolean
    return 'Boolean'
  end
  names = values.flat_map { |v| [v['name']] + (v['aliases'] || []) }
  if regexes.empty? && !names.empty? && (names - BOOLEAN_WORDS).empty? &&
     names.include?('true') && names.include?('false')
    return 'Boolean'
  end
  return 'Array[String]' if defined?(Puppet::Property::List) && klass <= Puppet::Property::List
  return 'Hash' if defined?(Puppet::Property::KeyValue) && klass <= Puppet::Property::KeyValue
  nil
end

# Hand-written value types for attributes whose type is only enforced by
# validate blocks (not introspectable). Keys are "type.attribute".
VALUE_TYPE_OVERRIDES = {
  'exec.timeout' => 'Variant[Numeric, Pattern[/\A[0-9]+(\.[0-9]+)?\z/]]',
  'exec.tries' => 'Variant[Integer, Pattern[/\A[0-9]+\z/]]',
  'exec.try_sleep' => 'Variant[Numeric, Pattern[/\A[0-9]+(\.[0-9]+)?\z/]]',
  'exec.environment' => 'Variant[String, Array[String]]',
  'exec.path' => 'Variant[String, Array[String]]',
  'exec.command' => 'Variant[String, Array[String]]',
  'exec.unless' => 'Variant[String, Array[Variant[String, Array[String]]]]',
  'exec.onlyif' => 'Variant[String, Array[Variant[String, Array[String]]]]',
  'exec.returns' => 'Variant[Integer, String, Array[Variant[Integer, String]]]',
  'file.mode' => 'Variant[String, Integer]',
  'file.source' => 'Variant[String, Array[String]]',
  'file.content' => 'Variant[String, Sensitive[String], Binary, Deferred]',
  'file.ignore' => 'Variant[String, Array[String]]',
  'file.recurselimit' => 'Variant[Integer, Pattern[/\A[0-9]+\z/]]',
  'file.max_files' => 'Variant[Integer, Pattern[/\A-?[0-9]+\z/]]',
  'file.owner' => 'Variant[String, Integer]',
  'file.group' => 'Variant[String, Integer]',
  'user.uid' => 'Variant[Integer, Pattern[/\A[0-9]+\z/]]',
  'user.gid' => 'Variant[String, Integer]',
  'user.groups' => 'Variant[String, Array[String]]',
  'group.gid' => 'Variant[Integer, Pattern[/\A[0-9]+\z/]]',
  'group.members' => 'Variant[String, Array[String]]',
  'package.install_options' => 'Array[Variant[String, Hash]]',
  'package.uninstall_options' => 'Array[Variant[String, Hash]]',
  'service.restart' => 'String',
  'tidy.age' => 'String',
  'tidy.size' => 'String',
  'tidy.matches' => 'Variant[String, Array[String]]',
  'schedule.repeat' => 'Variant[Integer, Pattern[/\A[0-9]+\z/]]',
  'schedule.range' => 'Variant[String, Array[String]]',
  'schedule.weekday' => 'Variant[String, Integer, Array[Variant[String, Integer]]]',
  'notify.message' => 'Any',
}.freeze

def attribute_entry(type, name, kind)
  klass = type.attrclass(name)
  values, regexes = value_info(klass)
  entry = {
    'name' => name.to_s,
    'kind' => kind,
  }
  entry['namevar'] = true if kind != 'metaparam' && type.key_attributes.include?(name)
  entry['required'] = true if klass.respond_to?(:required?) && klass.required?
  entry['values'] = values unless values.empty?
  entry['regexes'] = regexes unless regexes.empty?
  vt = VALUE_TYPE_OVERRIDES["#{type.name}.#{name}"] || value_type(klass, values, regexes)
  entry['value_type'] = vt if vt
  if kind == 'property' && klass.respond_to?(:array_matching) && klass.array_matching == :all
    entry['array_matching'] = 'all'
  end
  rf = klass.respond_to?(:required_features) ? klass.required_features : nil
  entry['features'] = Array(rf).map(&:to_s) unless rf.nil? || Array(rf).empty?
  d = desc('attribute', "#{type.name}.#{name}")
  entry['desc'] = d if d
  entry
end

Puppet.override(current_environment: env) do
  Puppet::Type.loadall
end

all_types = []
Puppet::Type.eachtype { |t| all_types << t }
all_types.sort_by! { |t| t.name.to_s }

metaparams = Puppet::Type.metaparams.sort_by(&:to_s)

# The module a type was loaded from (nil for Puppet's own lib).
def type_origin(type, modulepath)
  puppet_type_file = File.join(File.dirname(Puppet.method(:[]).source_location[0]), 'puppet', 'type', "#{type.name}.rb")
  return nil if File.exist?(puppet_type_file)
  modulepath.each do |dir|
    Dir.glob(File.join(dir, '*', 'lib', 'puppet', 'type', "#{type.name}.rb")).each do |f|
      mod = f.sub(%r{\A#{Regexp.escape(dir)}/}, '').split('/').first
      meta = File.join(dir, mod, 'metadata.json')
      return JSON.parse(File.read(meta))['name'].to_s.split(/[-\/]/, 2).last if File.file?(meta)
      return mod
    end
  end
  'unknown'
end

types_out = all_types.map do |type|
  attrs = []
  properties = type.validproperties
  (type.parameters + properties).uniq.each do |name|
    next if metaparams.include?(name)
    kind = properties.include?(name) ? 'property' : 'parameter'
    attrs << attribute_entry(type, name, kind)
  end
  providers = type.providers.map(&:to_s).sort
  features = type.respond_to?(:features) ? type.features.map(&:to_s).sort : []
  h = {
    'name' => type.name.to_s,
    'module' => type_origin(type, modulepath),
    'namevars' => type.key_attributes.map(&:to_s),
    'isomorphic' => type.isomorphic?,
    'attributes' => attrs,
  }
  h.delete('module') if h['module'].nil?
  h['providers'] = providers unless providers.empty?
  h['features'] = features unless features.empty?
  d = desc('type', type.name.to_s)
  h['desc'] = d if d
  h
end

meta_out = metaparams.map do |name|
  attribute_entry(Puppet::Type.type(:notify), name, 'metaparam').tap do |e|
    e.delete('desc')
    d = desc('metaparam', name.to_s)
    e['desc'] = d if d
  end
end

# `puppet describe --list` with the same module path, as the independent count
# of types (it lists every loaded type except `component`).
# It runs under the same Ruby and load path as this script, so that it is the
# Puppet being introspected (not whichever `puppet` is first on PATH).
describe_cmd = [RbConfig.ruby] + INCLUDE_DIRS.flat_map { |d| ['-I', d] } +
               ['-e', "require 'puppet/util/command_line'; Puppet::Util::CommandLine.new('puppet', ARGV).execute",
                'describe', '--list', '--modulepath', modulepath.join(File::PATH_SEPARATOR)]
describe_out, _st = Open3.capture2e(*describe_cmd)
describe_types = describe_out.lines.map { |l| l[/\A(\S+)\s+- /, 1] }.compact

# --- functions ----------------------------------------------------------------------

# Formats types, expanding function-local aliases (lookup's `NameType`...)
# but keeping `Data` and `RichData` by name (other built-in aliases such as
# `Puppet::LookupKey` are expanded: analyzers know only those two). A
# self-recursive local alias (downcase's `StringData`) is expanded once and
# its inner self-references become `Any`, so the string stands alone.
class LocalAliasExpandingFormatter < Puppet::Pops::Types::TypeFormatter
  def string_PTypeAliasType(t)
    @expanding ||= []
    if %w[Data RichData].include?(t.name)
      @bld << t.name
    elsif @expanding.include?(t.name)
      @bld << 'Any'
    else
      @expanding.push(t.name)
      append_string(t.resolved_type)
      @expanding.pop
    end
  end
end

FORMATTER = LocalAliasExpandingFormatter.new

def tstr(t)
  FORMATTER.string(t)
end

# One dispatch as a signature: each parameter with its type and whether it is
# required, optional or repeated (the Callable's size range tells which).
def signature(d)
  ct = d.type
  tuple = ct.param_types
  types = tuple ? tuple.types : []
  size = tuple ? tuple.size_type : nil
  min = size ? size.from.to_i : types.size
  max = size ? size.to : types.size
  max = nil if max.is_a?(Float) && max.infinite?
  names = d.param_names.map(&:to_s)
  params = types.each_with_index.map do |pt, i|
    kind = if i == types.size - 1 && (max.nil? || max > types.size)
             'repeated'
           elsif i >= min
             'optional'
           else
             'required'
           end
    { 'name' => names[i] || "arg#{i}", 'type' => tstr(pt), 'kind' => kind }
  end
  # The argument count range (max nil = unbounded): a repeated last
  # parameter may be required at least once (`include`) or not (`notice`).
  sig = { 'params' => params, 'min_args' => min, 'max_args' => max }
  if ct.block_type
    bt = ct.block_type
    optional = bt.is_a?(Puppet::Pops::Types::POptionalType)
    sig['block'] = {
      'name' => (d.block_name || 'block').to_s,
      'type' => tstr(optional ? bt.optional_type : bt),
      'optional' => optional,
    }
  end
  sig['return_type'] = tstr(ct.return_type) if ct.return_type
  sig['callable'] = tstr(ct)
  sig
end

STATEMENT_CALLS = Puppet::Pops::Model::Factory::STATEMENT_CALLS.keys

# Removes a signature's first parameter (and one from its argument counts).
def drop_leading_param(sig)
  return if sig['params'].empty?
  sig['params'].shift
  sig['min_args'] = [sig['min_args'] - 1, 0].max
  sig['max_args'] -= 1 if sig['max_args']
  callable = sig['callable'].sub(/\ACallable\[[^,\]]+,?\s*/, 'Callable[')
  # The trailing argument counts (`..., 4]` or `..., 1, 3]`) drop by one.
  sig['callable'] = callable.sub(/(\d+)(?:, (\d+))?\]\z/) do
    counts = [Regexp.last_match(1), Regexp.last_match(2)].compact.map { |n| [n.to_i - 1, 0].max }
    "#{counts.join(', ')}]"
  end
end

# Empty stand-ins for optional libraries a function requires when it is
# defined (eyaml_lookup_key needs hiera-eyaml): only its signature is wanted.
STUB_LIB = Dir.mktmpdir('puppet-stub-libs')
TMP_DIRS << STUB_LIB
$LOAD_PATH.unshift(STUB_LIB)

def load_function(loader, name)
  20.times do
    begin
      return loader.load(:function, name)
    rescue StandardError, LoadError => e
      msgs = []
      c = e
      while c
        msgs << c.message
        c = c.cause
      end
      missing = msgs.map { |m| m[/cannot load such file -- (\S+)/, 1] }.compact.first
      feature = msgs.any? { |m| m.include?('library is present') } && name.include?('eyaml')
      raise unless missing || feature
      Puppet.features.add(:hiera_eyaml) { true } if feature
      if missing
        path = File.join(STUB_LIB, "#{missing}.rb")
        FileUtils.mkdir_p(File.dirname(path))
        File.write(path, '')
      end
    end
  end
  raise "cannot load function #{name}"
end

def function_entry(loader, name, api, kind_key)
  f = load_function(loader, name)
  raise "cannot load function #{name}" unless f
  sigs = f.class.dispatcher.dispatchers.reject(&:argument_mismatch_handler?).map { |d| signature(d) }
  # A function that overrides `call(scope, *args)` passes the scope itself
  # as the first dispatch argument (stdlib's validate_legacy): callers never
  # write it, so it is not part of the signature users see.
  if api == '4x' && f.class.instance_method(:call).parameters.first == [:req, :scope] &&
     f.class.instance_method(:call).owner != Puppet::Pops::Functions::Function
    sigs.each { |s| drop_leading_param(s) }
  end
  h = { 'name' => name, 'api' => api }
  h['statement'] = true if STATEMENT_CALLS.include?(name)
  if api == '3x'
    h['legacy_type'] = Puppet::Parser::Functions.rvalue?(name) ? 'rvalue' : 'statement' rescue nil
  end
  h['signatures'] = sigs
  d = desc(kind_key, name)
  h['desc'] = d if d
  h
end

# Function names defined by Ruby files under `dir`: 4.x files under
# lib/puppet/functions (namespaced by sub-directory) and 3.x files under
# lib/puppet/parser/functions.
def function_files(lib)
  v4 = Dir.glob(File.join(lib, 'puppet', 'functions', '**', '*.rb')).map do |f|
    f.sub(%r{\A#{Regexp.escape(File.join(lib, 'puppet', 'functions'))}/}, '').sub(/\.rb\z/, '').gsub('/', '::')
  end
  v3 = Dir.glob(File.join(lib, 'puppet', 'parser', 'functions', '*.rb')).map { |f| File.basename(f, '.rb') }
  [v4.sort, v3.sort]
end

puppet_lib = File.dirname(File.dirname(Puppet.method(:[]).source_location[0]))
puppet_lib = File.dirname(Puppet.method(:[]).source_location[0]) unless File.directory?(File.join(puppet_lib, 'puppet', 'functions'))
core_v4, core_v3 = function_files(puppet_lib)

# The stdlib environment: core modules + stdlib.
stdlib_dir = opts[:stdlib]
stdlib_env_dir = Dir.mktmpdir('puppet-stdlib')
TMP_DIRS << stdlib_env_dir
File.symlink(File.realpath(stdlib_dir), File.join(stdlib_env_dir, 'stdlib')) if stdlib_dir
stdlib_env = Puppet::Node::Environment.create(:stdlib, [stdlib_env_dir] + modulepath)

functions_out = []
stdlib_out = []
stdlib_v4 = []
stdlib_v3 = []
Puppet.override(current_environment: env, loaders: Puppet::Pops::Loaders.new(env)) do
  loader = Puppet.lookup(:loaders).puppet_system_loader
  core_v4.each { |n| functions_out << function_entry(loader, n, '4x', 'function') }
  (core_v3 - core_v4).each { |n| functions_out << function_entry(loader, n, '3x', 'function') }
end
functions_out.sort_by! { |f| f['name'] }

if stdlib_dir
  stdlib_v4, stdlib_v3 = function_files(File.join(stdlib_dir, 'lib'))
  Puppet.override(current_environment: stdlib_env, loaders: Puppet::Pops::Loaders.new(stdlib_env)) do
    loader = Puppet.lookup(:loaders).private_environment_loader
    stdlib_v4.each { |n| stdlib_out << function_entry(loader, n, '4x', 'stdlib') }
    (stdlib_v3 - stdlib_v4).each { |n| stdlib_out << function_entry(loader, n, '3x', 'stdlib') }
  end
  stdlib_out.each { |f| f['stdlib'] = true }
  stdlib_out.sort_by! { |f| f['name'] }
end

# --- facts -------------------------------------------------------------------------

SCHEMA_TYPES = {
  'integer' => 'Integer', 'double' => 'Float', 'string' => 'String',
  'boolean' => 'Boolean', 'array' => 'Array', 'map' => 'Hash',
  'ip' => 'String', 'ip6' => 'String', 'mac' => 'String',
}.freeze

facts_out = []

# Walks the schema: every entry, nested map elements as dotted paths. Entries
# with a `pattern` stand for any key matching it (`<interface>`).
def walk_schema(entries, prefix, out, hidden_parent)
  entries.each do |name, e|
    next unless e.is_a?(Hash)
    key = e['pattern'] ? "<#{name.delete('<>')}>" : name
    path = prefix ? "#{prefix}.#{key}" : key
    h = { 'path' => path, 'type' => SCHEMA_TYPES.fetch(e['type'].to_s, 'Any') }
    h['pattern'] = e['pattern'] if e['pattern']
    h['format'] = e['type'] if %w[ip ip6 mac].include?(e['type'])
    hidden = hidden_parent || e['hidden'] == true
    h['legacy'] = true if hidden
    out << h
    walk_schema(e['elements'], path, out, hidden) if e['elements'].is_a?(Hash)
  end
end

if opts[:facter_schema]
  schema = YAML.safe_load(File.read(opts[:facter_schema]))
  walk_schema(schema, nil, facts_out, false)
end

# Facter 4's own fact classes: every FACT_NAME / ALIASES they resolve. Facts
# missing from the (Facter 3 era) schema are added with the type of their
# nearest known parent, or Any.
facter_names = []
begin
  require 'facter'
  facter_dir = File.dirname(Facter.method(:value).source_location[0])
  facter_dir = File.join(facter_dir, 'facter') unless File.directory?(File.join(facter_dir, 'facts'))
  Dir.glob(File.join(facter_dir, 'facts', '**', '*.rb')).sort.each do |f|
    begin
      require f
    rescue LoadError, StandardError
      nil
    end
  end
  ObjectSpace.each_object(Class) do |c|
    next unless c.name&.start_with?('Facts::')
    facter_names << [c.const_get(:FACT_NAME), false] if c.const_defined?(:FACT_NAME, false)
    if c.const_defined?(:ALIASES, false)
      Array(c.const_get(:ALIASES)).each { |a| facter_names << [a, true] }
    end
  end
rescue LoadError
  nil
end

known = facts_out.map { |f| f['path'] }
patterns = facts_out.select { |f| f['pattern'] }.map { |f| [f['path'], f] }
facter_names.map { |n, l| [n.to_s, l] }.uniq.sort_by { |n, l| [n, l ? 1 : 0] }.each do |name, legacy|
  next if name.nil? || name.empty?
  next if known.include?(name)
  # Regexp-shaped legacy names (`blockdevice_.*_size`) match schema patterns.
  if name.include?('.*')
    next if facts_out.any? { |f| f['pattern'] && Regexp.new(f['pattern']).match?(name.gsub('.*', 'x')) }
    facts_out << { 'path' => name.gsub('.*', '<name>'), 'type' => 'Any', 'pattern' => "^#{name}$", 'legacy' => true }
    known << facts_out.last['path']
    next
  end
  next if patterns.any? { |p, f| !p.include?('.') && Regexp.new(f['pattern']).match?(name) }
  h = { 'path' => name, 'type' => 'Any' }
  h['legacy'] = true if legacy
  facts_out << h
  known << name
end
facts_out.sort_by! { |f| f['path'] }

# --- output ------------------------------------------------------------------------

attr_count = types_out.sum { |t| t['attributes'].size }
stdlib_meta = stdlib_dir ? JSON.parse(File.read(File.join(stdlib_dir, 'metadata.json'))) : {}

# The command that made this output: Ruby's -I directories, the arguments
# given, and the table it belongs in (puppet_builtins.json for Puppet 7,
# puppet<major>_builtins.json for later ones).
major = Puppet.version.split('.').first.to_i
table = major <= 7 ? 'puppet_builtins.json' : "puppet#{major}_builtins.json"
regenerate_command = (['ruby'] + INCLUDE_DIRS.map { |d| "-I #{d}" } + ['tools/gen_builtins.rb'] + ARGS_GIVEN +
                      ['>', "analysis/runtime/data/#{table}"]).join(' ')

out = {
  '_comment' => [
    'Generated by tools/gen_builtins.rb; do not edit. Regenerate with:',
    regenerate_command,
    'Data only (names, types, signatures, allowed values); descriptions are our own (tools/builtin_descriptions.tsv).',
  ],
  'puppet_version' => Puppet.version,
  'facter_version' => (defined?(Facter) ? Facter.version : nil),
  'stdlib_version' => stdlib_meta['version'],
  'core_modules' => found_core.keys.sort,
  'counts' => {
    'types' => types_out.size,
    'describe_list_types' => describe_types.size,
    'attributes' => attr_count,
    'metaparameters' => meta_out.size,
    'functions' => functions_out.size,
    'function_files_4x' => core_v4.size,
    'function_files_3x' => core_v3.size,
    'stdlib_functions' => stdlib_out.size,
    'stdlib_function_files_4x' => stdlib_v4.size,
    'stdlib_function_files_3x' => stdlib_v3.size,
    'facts' => facts_out.size,
  },
  'metaparameters' => meta_out,
  'types' => types_out,
  'functions' => functions_out,
  'stdlib_functions' => stdlib_out,
  'facts' => facts_out,
}

puts JSON.pretty_generate(out)
