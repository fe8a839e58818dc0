#!/usr/bin/env ruby
# frozen_string_literal: true

# Generates analysis/runtime/data/legacy_facts.json: Facter 4's legacy
# (Facter 2 era, top-level) fact names and the structured fact each one
# answers, read from Facter's own fact classes.
#
# Usage (from the repository root). With Debian 13's Facter 4.10.0 (the one
# Puppet 8.10's puppet-agent depends on), unpacked to /tmp/data8-apt/facter
# as tools/gen_builtins.rb's header says:
#
#   ruby -I /tmp/data8-apt/facter/usr/lib/ruby/vendor_ruby tools/gen_legacy_facts.rb \
#     > analysis/runtime/data/legacy_facts.json
#
# or with Debian 12's Facter 4.3.0 (the system's, no -I):
#
#   ruby tools/gen_legacy_facts.rb > legacy_facts-4.3.json
#
# --report prints, on standard error, every legacy name per operating system
# with the class and the evidence used (for review).
#
# How it works. Facter 4 answers a fact with a class under Facts::<Os>: its
# FACT_NAME is the structured fact it resolves and its ALIASES the legacy
# names it also answers; classes with TYPE = :legacy answer only a legacy
# name (or a regexp of names, `ipaddress_.*`). For every operating system
# of Facter's OS hierarchy, Facter's own loader (Facter::InternalFactLoader)
# says which class answers which name there (the most specific OS wins). For
# each such class the script reads `call_the_resolver` (and the methods it
# calls) with Ruby's parser and follows, symbolically, the value given to
# every `Facter::ResolvedFact.new(name, value, :legacy)` and to the class's
# structured `Facter::ResolvedFact.new(FACT_NAME, value)`: a legacy value
# that is the structured value, an element of it (`value['major']`), the
# expression stored under a key of a hash literal that the structured value
# is (`{ 'full' => value }`) or an element of the same resolver's data that
# another class of that OS resolves (per-interface facts, `processor0`) maps
# to that path. A legacy value computed from it (`bytes_to_mb(value)`) maps
# to the path with the conversion named; one computed into another kind of
# value (a hash's keys joined by commas, a count) is listed as unmapped,
# derived from that path. The few classes this reading cannot decide are in
# REVIEWED below, each decision made by reading that class's code, with the
# code it relies on, which the script checks is still there (and, for a
# path into a hash literal, that the keys are). A name that operating
# systems answer differently is listed under `conflicts` with each outcome;
# the one kept is the Linux family's. The script fails on any legacy name
# it cannot decide.
#
# Facter 4.3.0 gives the same mappings as 4.10.0 but for `productversion`
# (dmi.product.version), which 4.10 adds.
#
# Only names and paths are extracted; no documentation prose is copied.

require 'json'
require 'set'

REPORT = ARGV.delete('--report')
abort "usage: #{$PROGRAM_NAME} [--report]" unless ARGV.empty?

INCLUDE_DIRS = $LOAD_PATH.take_while { |p| p != RbConfig::CONFIG['sitelibdir'] }.freeze

require 'facter'
FACTER_DIR = File.dirname(Facter.method(:value).source_location[0]).then do |d|
  File.directory?(File.join(d, 'facts')) ? d : File.join(d, 'facter')
end
Dir.glob(File.join(FACTER_DIR, 'facts', '**', '*.rb')).sort.each { |f| require f }

def rel(file)
  file.sub(%r{\A#{Regexp.escape(FACTER_DIR)}/}, '')
end

# --- reading a fact class -----------------------------------------------------------

Node = RubyVM::AbstractSyntaxTree::Node

# Symbolic values:
#   [:path, root, steps]  a value reached from `root` (a resolver call's text,
#                         or an expression's) by `steps`: keys (String),
#                         captures ([:cap, kind]) and conversions ([:t, name])
#   [:hash, pairs]        a hash literal: [[key, value], ...]
#   [:list, elems]        an array literal
#   [:lit, value]         a literal
#   [:name, parts]        an interpolated string (parts: String or symbolic)
class FactClass
  attr_reader :klass, :file, :emissions, :fact_name, :aliases, :type

  METHOD_CALLS = %i[each each_with_index each_pair map flat_map times].freeze
  IDENTITY = %i[to_sym freeze].freeze

  def initialize(klass)
    @klass = klass
    @file = klass.instance_method(:call_the_resolver).source_location[0]
    @src = File.read(@file)
    @fact_name = klass.const_get(:FACT_NAME)
    @aliases = klass.const_defined?(:ALIASES, false) ? [*klass.const_get(:ALIASES)] : []
    @type = klass.const_defined?(:TYPE, false) ? klass.const_get(:TYPE) : :core
    @defs = {}
    collect_defs(RubyVM::AbstractSyntaxTree.parse(@src, keep_script_lines: true))
    @emissions = []
    @walking = []
    walk_method(:call_the_resolver, [])
    @emissions.uniq!
  end

  def source
    @src
  end

  def collect_defs(node)
    return unless node.is_a?(Node)
    if node.type == :DEFN
      @defs[node.children[0]] = node.children[1]
      return
    end
    node.children.each { |c| collect_defs(c) }
  end

  def params(scope)
    args = scope.children[1]
    n = args ? args.children[0].to_i : 0
    scope.children[0].first(n)
  end

  # Walks a method's body with its parameters bound; returns its value.
  def walk_method(name, arg_syms)
    scope = @defs[name]
    return nil unless scope
    return [:path, "call:#{name}", []] if @walking.include?(name)
    @walking.push(name)
    env = {}
    params(scope).each_with_index { |p, i| env[p] = arg_syms[i] || [:path, "param:#{name}:#{p}", []] }
    value = walk(scope.children[2], env)
    @walking.pop
    value
  end

  # Walks statements in order, recording emissions; returns the last value.
  def walk(node, env)
    return [:lit, nil] unless node.is_a?(Node)
    case node.type
    when :BLOCK
      last = nil
      node.children.each { |c| last = walk(c, env) }
      last
    when :LASGN, :DASGN, :DASGN_CURR
      find_emissions(node.children[1], env)
      env[node.children[0]] = ev(node.children[1], env)
    when :ATTRASGN
      find_emissions(node, env)
      recv, mid, args = node.children
      if mid == :[]= && recv && %i[LVAR DVAR].include?(recv.type) && args
        k, v = list(args)
        cur = env[recv.children[0]]
        cur = [:hash, []] unless cur && cur[0] == :hash
        env[recv.children[0]] = [:hash, cur[1] + [[key_of(ev(k, env)), ev(v, env)]]]
      end
      nil
    when :IF, :UNLESS
      find_emissions(node.children[0], env)
      a = walk(node.children[1], env)
      b = walk(node.children[2], env)
      merge_branches(a, b, node)
    when :RETURN
      find_emissions(node.children[0], env)
      ev(node.children[0], env)
    when :ITER
      ev(node, env)
    else
      find_emissions(node, env)
      ev(node, env)
    end
  end

  def nil_lit?(s)
    s.nil? || s == [:lit, nil]
  end

  def list(node)
    return [] unless node.is_a?(Node) && node.type == :LIST
    node.children.compact
  end

  # A block over a collection: binds the block's parameters per element and
  # walks its body.
  def iterate(node, env)
    call, scope = node.children
    names = params(scope)
    recv, mid = %i[CALL QCALL].include?(call.type) ? call.children : [nil, nil]
    unless recv && METHOD_CALLS.include?(mid)
      find_emissions(call, env)
      walk(scope.children[2], env)
      return
    end
    coll = mid == :times ? [:range] : ev(recv, env)
    bindings =
      case coll[0]
      when :hash then coll[1].map { |k, v| [k, v] }
      when :list then coll[1].map { |e| [e] }
      when :range then [[[:cap, :index]]]
      else
        if mid == :each_with_index
          [[index(coll, [:cap, :index]), [:cap, :index]]]
        elsif names.size >= 2
          [[[:cap, :key], index(coll, [:cap, :key])]]
        else
          [[index(coll, [:cap, :elem])]]
        end
      end
    bindings.each do |vals|
      inner = env.dup
      names.each_with_index { |n, i| inner[n] = vals[i] || [:path, "blockvar:#{n}", []] }
      walk(scope.children[2], inner)
      # assignments to the method's variables inside the block persist
      inner.each { |k, v| env[k] = v if env.key?(k) && !names.include?(k) }
    end
  end

  def resolved_fact_new?(node)
    %i[CALL QCALL].include?(node.type) && node.children[1] == :new &&
      node.children[0].is_a?(Node) && norm(node.children[0]) == 'Facter::ResolvedFact'
  end

  # Records every ResolvedFact.new within an expression (not inside blocks,
  # which `iterate` walks) and walks the class's own methods it calls.
  def find_emissions(node, env)
    return unless node.is_a?(Node)
    return iterate(node, env) if node.type == :ITER
    if resolved_fact_new?(node)
      args = list(node.children[2])
      legacy = args[2] && ev(args[2], env) == [:lit, :legacy]
      @emissions << [name_of(args[0], env), ev(args[1], env), legacy ? true : false, norm(node)]
    end
    if %i[FCALL VCALL].include?(node.type) && @defs.key?(node.children[0])
      argv = node.type == :FCALL ? list(node.children[1]).map { |a| ev(a, env) } : []
      walk_method(node.children[0], argv)
    end
    node.children.each { |c| find_emissions(c, env) if c.is_a?(Node) && c.type != :ITER }
    node.children.each { |c| iterate(c, env) if c.is_a?(Node) && c.type == :ITER }
  end

  def name_of(node, env)
    s = ev(node, env)
    case s[0]
    when :lit then [s[1].to_s]
    when :name then s[1]
    when :key then name_of_sym(s[1])
    else [s]
    end
  end

  def name_of_sym(s)
    case s[0]
    when :lit then [s[1].to_s]
    when :name then s[1]
    else [s]
    end
  end

  def key_of(s)
    return s[1].to_s if s[0] == :lit && (s[1].is_a?(String) || s[1].is_a?(Symbol))
    return s[1] if s[0] == :lit && s[1].is_a?(Integer)
    return s if s[0] == :cap
    return s if s[0] == :name # a key built by interpolation
    [:key, s]
  end

  def index(s, k)
    case s[0]
    when :hash
      hit = s[1].find { |kk, _| kk == k }
      hit ? hit[1] : [:path, hash_ref(s), [k]]
    when :list
      (k.is_a?(Integer) && s[1][k]) || [:path, "expr:#{s.inspect}", [k]]
    when :path then [:path, s[1], s[2] + [k]]
    else [:path, "expr:#{s.inspect}", [k]]
    end
  end

  def norm(node)
    node.source.gsub(/\s+/, ' ').gsub(/\(\s+/, '(').gsub(/\s+\)/, ')')
  end

  def const_value(name)
    return [:lit, nil] unless @klass.const_defined?(name)
    v = @klass.const_get(name)
    v.is_a?(Array) ? [:list, v.map { |e| [:lit, e] }] : [:lit, v]
  end

  # Evaluates an expression symbolically.
  def ev(node, env)
    return [:lit, nil] unless node.is_a?(Node)
    c = node.children
    case node.type
    when :STR then [:lit, c[0]]
    when :LIT then [:lit, c[0]]
    when :NIL then [:lit, nil]
    when :TRUE then [:lit, true]
    when :FALSE then [:lit, false]
    when :LVAR, :DVAR then env.fetch(c[0]) { [:path, "var:#{c[0]}", []] }
    when :CONST then const_value(c[0])
    when :VCALL
      @defs.key?(c[0]) ? walk_method(c[0], []) : [:path, "call:#{c[0]}", []]
    when :FCALL
      if @defs.key?(c[0])
        walk_method(c[0], list(c[1]).map { |a| ev(a, env) })
      else
        [:path, "expr:#{norm(node)}", []]
      end
    when :CALL, :QCALL, :OPCALL
      call(node, env)
    when :HASH
      items = list(c[0])
      [:hash, items.each_slice(2).map { |k, v| [key_of(ev(k, env)), ev(v, env)] }]
    when :LIST then [:list, list(node).map { |e| ev(e, env) }]
    when :ZLIST then [:list, []]
    when :DSTR
      parts = [c[0]]
      [c[1], *list(c[2])].compact.each do |p|
        if p.type == :EVSTR
          v = ev(p.children[0], env)
          parts << (v[0] == :lit ? v[1].to_s : v)
        elsif p.type == :STR
          parts << p.children[0]
        else
          parts << ev(p, env)
        end
      end
      parts = parts.reject { |p| p == '' }
      parts.all? { |p| p.is_a?(String) } ? [:lit, parts.join] : [:name, parts]
    when :DOT2, :DOT3 then [:range]
    when :OR then [:path, "or:#{ev(c[0], env).inspect}|#{ev(c[1], env).inspect}", []]
    when :IF, :UNLESS
      merge_branches(ev(c[1], env), ev(c[2], env), node)
    when :BLOCK then ev(c.last, env)
    when :ITER
      call, scope = c
      if %i[CALL QCALL].include?(call.type) && call.children[1] == :tap
        # `{}.tap do |h| h['k'] = v end`: the value the block builds
        var = params(scope).first
        inner = env.dup
        inner[var] = ev(call.children[0], env)
        walk(scope.children[2], inner)
        inner[var]
      else
        iterate(node, env)
        [:path, "expr:#{norm(node)}", []]
      end
    else [:path, "expr:#{norm(node)}", []]
    end
  end

  # The branches of a conditional that are both hash literals: the pairs
  # every branch has alike (the others stay reachable by key, see `index`).
  def merge_branches(a, b, node)
    return a if nil_lit?(b)
    return b if nil_lit?(a)
    if a[0] == :hash && b[0] == :hash
      return [:hash, a[1].select { |pair| b[1].include?(pair) }, "if:#{norm(node)}"]
    end
    [:path, "expr:#{norm(node)}", []]
  end

  def call(node, env)
    recv, mid, args = node.children
    argv = list(args)
    if mid == :[] && argv.size == 1
      return index(ev(recv, env), key_of(ev(argv[0], env)))
    end
    if mid == :dig && !argv.empty?
      return argv.reduce(ev(recv, env)) { |s, a| index(s, key_of(ev(a, env))) }
    end
    if %i[first last].include?(mid) && argv.empty? && recv
      r = ev(recv, env)
      return (mid == :first ? r[1].first : r[1].last) || [:lit, nil] if r[0] == :list
    end
    if recv.is_a?(Node) && %i[CONST COLON2].include?(recv.type)
      return [:path, norm(node), []] if mid == :resolve
      if argv.size == 1 && norm(recv).start_with?('Facter::Util')
        s = ev(argv[0], env)
        return s[0] == :path ? [:path, s[1], s[2] + [[:t, mid.to_s]]] : [:path, "expr:#{norm(node)}", []]
      end
      return [:path, "expr:#{norm(node)}", []]
    end
    if recv && argv.all? { |a| %i[STR LIT].include?(a.type) }
      s = ev(recv, env)
      return s if IDENTITY.include?(mid) && argv.empty?
      conv = argv.empty? ? mid.to_s : "#{mid}(#{argv.map { |a| norm(a) }.join(', ')})"
      return [:path, s[1], s[2] + [[:t, conv]]] if s[0] == :path
      return [:path, "expr:#{norm(node)}", []]
    end
    [:path, "expr:#{norm(node)}", []]
  end

  # The structured emissions (name, value) of this class.
  def structured
    @emissions.reject { |_, v, l, _| l || nil_lit?(v) }.select { |n, _, _, _| n.size == 1 && n[0].is_a?(String) }
  end

  def legacy
    @emissions.select { |_, _, l, _| l }
  end
end

CLASSES = {}
def fact_class(klass)
  CLASSES[klass] ||= FactClass.new(klass)
end

# A hash literal's own root: what `index` gives for a key the symbolic
# value does not hold (a key only some branches of a conditional set).
def hash_ref(sym)
  "hash:#{sym.hash}"
end

# (sub-value, keys) pairs of a structured value: itself, and what a hash
# literal holds under each key.
def expand(sym, prefix = [])
  out = [[sym, prefix]]
  if sym && sym[0] == :hash
    out << [[:path, hash_ref(sym), []], prefix]
    sym[1].each { |k, v| out.concat(expand(v, prefix + [k])) if k.is_a?(String) }
  end
  out
end

# Whether a symbolic value comes from a resolver (the only values compared
# across classes).
def resolver_based?(sym)
  case sym[0]
  when :path then sym[1].start_with?('Facter::Resolvers')
  when :name then sym[1].any? { |p| p.is_a?(Array) && resolver_based?(p) }
  else false
  end
end

# The steps from a structured (sub-)value to a legacy value, or nil.
def steps_from(sub, val)
  return [] if sub == val && !(sub[0] == :lit && [nil, true, false, ''].include?(sub[1]))
  return nil unless sub[0] == :path && val[0] == :path && sub[1] == val[1]
  return nil unless val[2].first(sub[2].size) == sub[2]
  val[2].drop(sub[2].size)
end

# Turns remaining steps into path keys and conversions; nil when a
# conversion is followed by more keys (a computed value, not a path).
def keys_and_conversions(steps)
  keys = []
  conv = []
  steps.each do |s|
    if s.is_a?(Array) && s[0] == :t
      conv << s[1]
    else
      return nil unless conv.empty?
      keys << s
    end
  end
  [keys, conv]
end

def cap?(x)
  x.is_a?(Array) && x[0] == :cap
end

# Legacy name parts -> [exact name or nil, regexp or nil, capture kinds].
def name_shape(parts)
  return [parts[0], nil, []] if parts.size == 1 && parts[0].is_a?(String)
  caps = []
  rx = parts.map do |p|
    if p.is_a?(String)
      Regexp.escape(p)
    elsif cap?(p)
      caps << p[1]
      p[1] == :index ? '([0-9]+)' : '(.+)'
    else
      caps << :complex
      '(.+)'
    end
  end.join
  [nil, "^#{rx}$", caps]
end

# Matches one legacy emission against structured emissions; returns
# candidate mappings [{path:, conversions:, via:}].
def match_emission(name_parts, value, structured_list, cross)
  _, _, caps = name_shape(name_parts)
  found = []
  structured_list.each do |fc, sname, sval|
    expand(sval).each do |sub, prefix|
      next if cross && !resolver_based?(sub)
      steps = steps_from(sub, value)
      next unless steps
      kc = keys_and_conversions(steps)
      next unless kc
      keys, conv = kc
      all = prefix + keys
      next unless all.all? { |k| k.is_a?(String) || k.is_a?(Integer) || cap?(k) }
      ncaps = all.count { |k| cap?(k) }
      next unless ncaps == caps.size && caps.size <= 1 && !caps.include?(:complex)
      path = sname.split('.') + all.map { |k| cap?(k) ? '$1' : k }
      found << { 'path' => path, 'conversions' => conv, 'class' => fc.klass.name, 'file' => rel(fc.file),
                 'via' => cross ? 'same resolver data in another class' : 'same class' }
    end
  end
  found = found.uniq { |f| [f['path'], f['conversions'], f['class']] }
  # A value that is a structured one as it is beats one computed from another
  # (Sles' major is `version.split('.').first`, not `full` converted).
  fewest = found.map { |f| f['conversions'].size }.min
  found.select { |f| f['conversions'].size == fewest }
end

# --- classes the symbolic reading cannot decide, reviewed by hand ------------------
#
# Keyed by class name and legacy name (as Facter loads it). `evidence`: code
# that must be in the class's file (whitespace-normalised) for the decision
# to stand; the script fails if any is missing. `path` maps it; `unmapped`
# gives the reason there is no structured equivalent.

REVIEWED = {}
def reviewed(klass, legacy, evidence:, also: {}, path: nil, unmapped: nil, derived_from: nil, note: nil)
  return unless Object.const_defined?(klass) # a class this Facter lacks (4.3 has no OpenBSD classes)
  REVIEWED[[klass, legacy]] = { 'evidence' => Array(evidence), 'also' => also, 'path' => path, 'unmapped' => unmapped,
                                'derived_from' => derived_from, 'note' => note }
end

# Per-interface DHCP servers: one hash of the primary server (key `system`)
# and each interface's; the structured facts hold them apart.
{ 'Linux' => 'Facter::Resolvers::Linux::Networking', 'Macosx' => 'Facter::Resolvers::Networking',
  'Solaris' => 'Facter::Resolvers::Solaris::Networking', 'Windows' => 'Facter::Resolvers::Windows::Networking' }.each do |os, res|
  reviewed "Facts::#{os}::DhcpServers", 'dhcp_servers',
           evidence: ["#{res}.resolve(:dhcp)", 'servers = { system: ', 'servers[interface_name] = info[:dhcp]'],
           unmapped: 'a hash of the primary DHCP server (key "system", networking.dhcp) and of each ' \
                     "interface's (networking.interfaces.<name>.dhcp)",
           derived_from: [%w[networking dhcp], %w[networking interfaces $1 dhcp]]
end

# ldom_<key>[_<subkey>]: the alias split on "_" after "ldom" is the path dug
# into the structured value.
%w[ldom_domainchassis ldom_domaincontrol ldom_domainname ldom_domainrole_control ldom_domainrole_impl
   ldom_domainrole_io ldom_domainrole_root ldom_domainrole_service ldom_domainuuid].each do |name|
  reviewed 'Facts::Solaris::Ldom', name,
           evidence: ["key = fact_alias.split('_')[1..-1].map!(&:to_sym)", 'Facter::ResolvedFact.new(fact_alias, fact_value.dig(*key), :legacy)'],
           path: ['ldom'] + name.split('_')[1..]
end

# lsbdist* on distributions whose os.distro.* classes read another source:
# the legacy class keeps reading lsb_release, as the Linux class that
# declares the name as the alias of os.distro.* does.
{ 'codename' => :codename, 'id' => :distributor_id, 'description' => :description }.each do |key, arg|
  %w[Debian Rhel Sles Amzn Ol].each do |os|
    klass = "Facts::#{os}::Lsbdist#{key}"
    next unless Object.const_defined?(klass)
    reviewed klass, "lsbdist#{key}",
             evidence: ["FACT_NAME = 'lsbdist#{key}'", "Facter::Resolvers::LsbRelease.resolve(:#{arg})"],
             also: { "linux/os/distro/#{key}.rb" => ["FACT_NAME = 'os.distro.#{key}'", "ALIASES = 'lsbdist#{key}'",
                                                     "Facter::Resolvers::LsbRelease.resolve(:#{arg})"] },
             path: ['os', 'distro', key],
             note: "on #{os}, Facter's os.distro.#{key} reads another source than lsb_release, which the legacy fact " \
                   'still reads (values can differ)'
  end
end

# Ubuntu's lsbdistrelease is a legacy class reading lsb_release; Ubuntu's
# os.distro.release reads os-release's VERSION_ID into both full and major.
reviewed 'Facts::Ubuntu::Lsbdistrelease', 'lsbdistrelease',
         evidence: ['Facter::Resolvers::LsbRelease.resolve(:release)', 'Facter::ResolvedFact.new(FACT_NAME, fact_value, :legacy)'],
         also: { 'ubuntu/os/distro/release.rb' => ["'full' => release", 'Facter::Resolvers::OsRelease.resolve(:version_id)'] },
         path: %w[os distro release full],
         note: "on Ubuntu, os.distro.release.full is os-release's VERSION_ID and the legacy fact lsb_release's release"
reviewed 'Facts::Ubuntu::Lsbdistrelease', 'lsbmajdistrelease',
         evidence: ["Facter::ResolvedFact.new(ALIASES[0], \"\#{version[0]}.\#{version[1]}\", :legacy)"],
         also: { 'ubuntu/os/distro/release.rb' => ["'major' => release"] },
         path: %w[os distro release major],
         note: "on Ubuntu, the legacy fact is the first two parts of lsb_release's release (22.04) and " \
               "os.distro.release.major os-release's whole VERSION_ID"
reviewed 'Facts::Ubuntu::Lsbdistrelease', 'lsbminordistrelease',
         evidence: ['Facter::ResolvedFact.new(ALIASES[1], version[2], :legacy)'],
         also: { 'ubuntu/os/distro/release.rb' => ["'major' => release"] },
         unmapped: "on Ubuntu it is the third part of lsb_release's release (the point release), which " \
                   'os.distro.release (full and major only) does not hold'

reviewed 'Facts::Aix::Serialnumber', 'serialnumber',
         evidence: ["FACT_NAME = 'serialnumber'", 'TYPE = :legacy', 'Facter::Resolvers::Aix::Serialnumber.resolve(:serialnumber)'],
         unmapped: 'AIX resolves the serial number for this legacy name only (no structured fact reads it there)'

# ssh<algorithm>key and sshfp_<algorithm>: each OS's ssh fact keys the same
# resolver's entries by name, with key and fingerprints under it.
%w[Aix Freebsd Linux Macosx Openbsd Solaris Windows].each do |os|
  ssh_file = "#{os.downcase}/ssh.rb"
  resolver = os == 'Windows' ? 'Facter::Resolvers::Windows::Ssh' : 'Facter::Resolvers::Ssh'
  reviewed "Facts::#{os}::Sshalgorithmkey", 'ssh.*key',
           evidence: ["#{resolver}.resolve(:ssh)", "Facter::ResolvedFact.new(\"ssh\#{ssh.name.to_sym}key\", ssh.key, :legacy)"],
           also: { ssh_file => ['ssh.name.to_sym =>', 'key: ssh.key'] },
           path: %w[ssh $1 key]
  reviewed "Facts::#{os}::SshfpAlgorithm", 'sshfp_.*',
           evidence: ["#{resolver}.resolve(:ssh)", "\"sshfp_\#{ssh.name.to_sym}\"",
                      "\"\#{ssh.fingerprint.sha1}\\n\#{ssh.fingerprint.sha256}\""],
           also: { ssh_file => ['sha1: ssh.fingerprint.sha1', 'sha256: ssh.fingerprint.sha256'] },
           unmapped: 'the SHA1 and SHA256 fingerprints joined by a newline (ssh.<algorithm>.fingerprints.sha1 and .sha256)',
           derived_from: [%w[ssh $1 fingerprints sha1], %w[ssh $1 fingerprints sha256]]
end

# Solaris zones: zone_<name>_<key> for seven keys, of which parse_result
# keeps five (iptype renamed ip_type) under the zone's name.
zones_evidence = ["%w[brand iptype name uuid id path status].each do |key|",
                  "Facter::ResolvedFact.new(\"zone_\#{zone[:name]}_\#{key}\", zone[key.to_sym], :legacy)",
                  'result[:name].to_sym => {']
{ 'brand' => 'brand: result[:brand]', 'id' => 'id: result[:id]', 'iptype' => 'ip_type: result[:iptype]',
  'path' => 'path: result[:path]', 'status' => 'status: result[:status]' }.each do |key, code|
  reviewed 'Facts::Solaris::Zones', "zone_.*_#{key}", evidence: zones_evidence + [code],
           path: ['solaris_zones', 'zones', '$1', key == 'iptype' ? 'ip_type' : key]
end
reviewed 'Facts::Solaris::Zones', 'zone_.*_name', evidence: zones_evidence,
         unmapped: 'the zone name itself, which is the key under solaris_zones.zones',
         derived_from: [%w[solaris_zones zones]]
reviewed 'Facts::Solaris::Zones', 'zone_.*_uuid', evidence: zones_evidence,
         unmapped: 'the zone UUID, which solaris_zones.zones does not hold'
reviewed 'Facts::Solaris::Zones', 'zones', evidence: ["Facter::ResolvedFact.new('zones', results.count, :legacy)"],
         unmapped: 'the number of zones (the size of solaris_zones.zones)', derived_from: [%w[solaris_zones zones]]

def check_evidence(fc, entry)
  ([[fc.file, entry['evidence']]] + entry['also'].map { |f, e| [File.join(FACTER_DIR, 'facts', f), e] }).each do |file, ev|
    text = File.exist?(file) ? File.read(file).gsub(/\s+/, ' ') : ''
    ev.each do |e|
      next if text.include?(e.gsub(/\s+/, ' '))
      abort "gen_legacy_facts: #{rel(file)} (for #{fc.klass.name}) no longer contains #{e.inspect}; review it again"
    end
  end
  check_path(fc, entry['path']) if entry['path']
end

# A reviewed path into the class's own structured value must be there when
# that value is a hash literal.
def check_path(fc, path)
  fc.structured.each do |n, v, _, _|
    prefix = n[0].split('.')
    next unless path.first(prefix.size) == prefix
    rest = path.drop(prefix.size)
    while v && v[0] == :hash && !rest.empty? && rest[0] != '$1'
      hit = v[1].find { |k, _| k == rest[0] }
      abort "gen_legacy_facts: #{fc.klass.name} has no #{path.join('.')} in its #{n[0]} value" unless hit
      v = hit[1]
      rest = rest.drop(1)
    end
  end
end

# --- per operating system ------------------------------------------------------------

def flatten_hierarchy(node, out = [])
  case node
  when Array then node.each { |n| flatten_hierarchy(n, out) }
  when Hash then node.each { |k, v| out << k.to_s; flatten_hierarchy(v, out) }
  else out << node.to_s
  end
  out
end

OSES = flatten_hierarchy(Facter::Config::OS_HIERARCHY).uniq
LINUX_FAMILY = Set.new
flatten_hierarchy(Facter::Config::OS_HIERARCHY.find { |n| n.is_a?(Hash) && n.key?('Linux') }).each { |o| LINUX_FAMILY << o }

def legacy_regex?(name)
  name.match?(/[.*\[\]+?]/)
end

results = Hash.new { |h, k| h[k] = [] } # legacy name -> [per-OS result]
core_by_os = {}
unused_reviews = Set.new(REVIEWED.keys)
report = []

OSES.each do |os|
  hierarchy = Facter::OsHierarchy.new.construct_hierarchy(os)
  loaded = Facter::InternalFactLoader.new(hierarchy).facts
  core = loaded.reject { |f| f.type == :legacy }
  core_by_os[os] = core.map(&:name)
  core_structured = core.map { |f| fact_class(f.klass) }.uniq.flat_map do |fc|
    fc.structured.map { |n, v, _, _| [fc, n[0], v] }
  end
  loaded.select { |f| f.type == :legacy }.each do |lf|
    fc = fact_class(lf.klass)
    name = lf.name
    declared_rx = legacy_regex?(name) ? Regexp.new("\\A#{name}\\z") : nil
    emissions = fc.legacy.select do |n, _, _, _|
      exact, = name_shape(n)
      if declared_rx
        sample = n.map { |p| p.is_a?(String) ? p : 'x0' }.join
        declared_rx.match?(sample) && exact.nil?
      else
        exact == name
      end
    end
    entry = { 'os' => os, 'name' => name, 'class' => lf.klass.name, 'file' => rel(fc.file) }
    if (rv = REVIEWED[[lf.klass.name, name]])
      unused_reviews.delete([lf.klass.name, name])
      check_evidence(fc, rv)
      entry['reviewed'] = true
      entry['regex'] = name_shape(emissions.first[0])[1] if declared_rx && !emissions.empty?
      if rv['path']
        entry['mappings'] = [{ 'path' => rv['path'], 'conversions' => [], 'class' => lf.klass.name,
                               'file' => rel(fc.file), 'via' => 'reviewed' }]
      else
        entry['unmapped'] = rv['unmapped']
        entry['derived_from'] = rv['derived_from'] if rv['derived_from']
      end
      entry['note'] = rv['note'] if rv['note']
    elsif emissions.empty?
      entry['error'] = 'declared but no emission found'
    else
      shapes = emissions.map { |n, _, _, _| name_shape(n)[1] }.uniq
      entry['regex'] = shapes.first if declared_rx
      entry['error'] = "several name shapes #{shapes.inspect}" if shapes.size > 1
      own = fc.structured.map { |n, v, _, _| [fc, n[0], v] }
      maps = emissions.flat_map { |n, v, _, _| match_emission(n, v, own, false) }.uniq
      if maps.empty?
        maps = emissions.flat_map { |n, v, _, _| match_emission(n, v, core_structured, true) }.uniq
      end
      entry['mappings'] = maps
      entry['emitted'] = emissions.map { |e| e[3] }.uniq
    end
    results[name] << entry
    report << entry
  end
end

unless unused_reviews.empty?
  abort "gen_legacy_facts: reviewed entries never used: #{unused_reviews.to_a.inspect}"
end

if REPORT
  report.sort_by { |e| [e['name'], e['os']] }.each do |e|
    warn JSON.generate(e)
  end
end

# --- aggregate over operating systems ---------------------------------------------

def structured_on?(path, oses, core_by_os)
  dotted = path.take_while { |k| k != '$1' }.join('.')
  oses.any? do |os|
    core_by_os[os].any? { |f| dotted == f || dotted.start_with?("#{f}.") || f.start_with?("#{dotted}.") }
  end
end

# Conversions that make the legacy value another kind of thing than the
# structured one (a hash's keys joined, a count): such a legacy fact is
# derived from the structured fact, not an alias of it.
DERIVING = /\A(keys|values|join|count|size|length|entries|sort|split|first|last)\b/.freeze

# One OS's outcome for a legacy name: [:map, path, conversions, note] or
# [:unmapped, reason, derived_from, note] or [:ambiguous, options].
def outcome(e)
  return [:unmapped, e['unmapped'], e['derived_from'], e['note']] if e['unmapped']
  maps = (e['mappings'] || []).map { |m| [m['path'], m['conversions']] }.uniq
  return [:none] if maps.empty?
  return [:ambiguous, maps] if maps.size > 1
  path, conv = maps[0]
  if conv.any? { |c| c.match?(DERIVING) }
    return [:unmapped, "computed from #{path.join('.')} (#{conv.join(', ')})", [path], e['note']]
  end
  [:map, path, conv, e['note']]
end

exact = {}
patterns = {}
unmapped = {}
conflicts = []
problems = []
linux_oses = LINUX_FAMILY.to_a & core_by_os.keys

def note_list(es)
  es.group_by { |e| e[:note] }.reject { |n, _| n.nil? }.map { |n, g| { 'note' => n, 'oses' => g.map { |e| e[:os] }.sort } }
end

results.keys.sort.each do |name|
  entries = results[name]
  entries.select { |e| e['error'] }.each { |e| problems << "#{name} on #{e['os']} (#{e['class']}): #{e['error']}" }
  outs = entries.reject { |e| e['error'] }.map { |e| [e, outcome(e)] }
  # key -> entries; key is [:map, path, conv] or [:unmapped, reason, derived_from]
  groups = Hash.new { |h, k| h[k] = [] }
  ambiguous = []
  outs.each do |e, o|
    case o[0]
    when :map then groups[[:map, o[1], o[2]]] << { os: e['os'], class: e['class'], note: o[3] }
    when :unmapped then groups[[:unmapped, o[1], o[2]]] << { os: e['os'], class: e['class'], note: o[3] }
    when :ambiguous then ambiguous << [e, o[1]]
    else problems << "#{name} on #{e['os']} (#{e['class']}): no structured value found (#{e['emitted']&.first})"
    end
  end
  # An OS whose class stores the value under several keys (Windows'
  # os.release full and major) takes the one the other OSes use.
  ambiguous.each do |e, options|
    agreed = options.select { |p, c| groups.key?([:map, p, c]) }
    if agreed.size == 1
      groups[[:map, *agreed[0]]] << { os: e['os'], class: e['class'],
                                     note: "Facter's #{e['class']} gives the same value under " \
                                           "#{options.map { |o| o[0].join('.') }.join(' and ')}" }
    else
      problems << "#{name} on #{e['os']} (#{e['class']}): ambiguous #{options.inspect}"
    end
  end
  next if groups.empty?

  # Outcomes that differ only in wording (a derived value computed with or
  # without sorting) are one: same path, or unmapped from the same facts.
  merged = {}
  groups.sort_by { |_, v| -v.size }.each do |k, v|
    ck = k[0] == :map ? k : [:unmapped, k[2] || k[1]]
    if merged[ck]
      merged[ck][1].concat(v)
    else
      merged[ck] = [k, v.dup]
    end
  end
  groups = merged.values.to_h

  describe = lambda do |key, es|
    h = key[0] == :map ? { 'path' => key[1] } : { 'unmapped' => key[1] }
    h['conversions'] = key[2] if key[0] == :map && !key[2].empty?
    h['derived_from'] = key[2] if key[0] == :unmapped && key[2]
    h['classes'] = es.map { |x| x[:class] }.uniq.sort
    h['oses'] = es.map { |x| x[:os] }.uniq.sort
    h
  end
  if groups.size > 1
    conflicts << { 'legacy' => name, 'outcomes' => groups.map { |k, es| describe.call(k, es) } }
  end
  # The outcome kept: the one most Linux-family systems have, else the most common.
  key, es = groups.max_by { |k, v| [v.count { |x| LINUX_FAMILY.include?(x[:os]) }, v.size, k[0] == :map ? 1 : 0] }
  all_oses = entries.map { |e| e['os'] }.uniq.sort
  rec = describe.call(key, es)
  notes = note_list(es)
  rec['notes'] = notes unless notes.empty?
  rec['oses'] = all_oses if groups.size == 1
  rec['legacy_on_linux'] = all_oses.any? { |o| LINUX_FAMILY.include?(o) }
  if key[0] == :map
    rec['structured_on_linux'] = structured_on?(key[1], linux_oses, core_by_os)
    if legacy_regex?(name)
      regexes = entries.map { |e| e['regex'] }.compact.uniq
      problems << "#{name}: several regexps #{regexes.inspect}" if regexes.size > 1
      problems << "#{name}: no regexp" if regexes.empty?
      patterns[name] = { 'regex' => regexes.first }.merge(rec)
    else
      exact[name] = rec
    end
  else
    rec.delete('unmapped')
    rec = { 'reason' => key[1] }.merge(rec)
    regexes = entries.map { |e| e['regex'] }.compact.uniq
    rec = { 'regex' => regexes.first }.merge(rec) if legacy_regex?(name) && !regexes.empty?
    unmapped[name] = rec
  end
end

unless problems.empty?
  warn "gen_legacy_facts: #{problems.size} undecided:"
  problems.each { |p| warn "  #{p}" }
  exit 1
end

cmd = (['ruby'] + INCLUDE_DIRS.map { |d| "-I #{d}" } + ['tools/gen_legacy_facts.rb', '>',
                                                          'analysis/runtime/data/legacy_facts.json']).join(' ')
out = {
  '_comment' => [
    'Generated by tools/gen_legacy_facts.rb from the fact classes of Facter ' \
    "#{Facter::VERSION} (#{FACTER_DIR}); do not edit. Regenerate with:",
    cmd,
    'exact: legacy name -> path of the structured fact holding the same value (keys). conversions: what Facter ' \
    'applies to the structured value to give the legacy one (bytes_to_mb: megabytes of a byte count). notes: ' \
    'where some operating systems differ (another source for the structured fact, one value under two keys). ' \
    "classes/oses: the Facter classes answering the name and the operating systems of Facter's OS hierarchy where " \
    'they do. structured_on_linux: the structured fact is resolved on Linux or a distribution under it; ' \
    'legacy_on_linux: the same for the legacy name.',
    'patterns: legacy names Facter declares as regexps (ipaddress_.*): regex matches the names it emits and "$1" ' \
    'in path is the captured part (an array index for processors.models). unmapped: legacy names with no ' \
    'structured equivalent: reason, and derived_from the structured paths the value is computed from. ' \
    'conflicts: names that operating systems answer differently, with each outcome (the one kept above is the ' \
    'Linux family\'s, else the most common).',
  ],
  'facter_version' => Facter::VERSION,
  'counts' => {
    'exact' => exact.size,
    'patterns' => patterns.size,
    'unmapped' => unmapped.size,
    'conflicts' => conflicts.size,
  },
  'exact' => exact,
  'patterns' => patterns,
  'unmapped' => unmapped,
  'conflicts' => conflicts,
}
puts JSON.pretty_generate(out)
