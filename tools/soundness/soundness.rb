#!/usr/bin/env ruby
# frozen_string_literal: true
#
# soundness.rb - checks the types puppet-ls infers against what Puppet
# computes (see docs/soundness.md).
#
# For each program (an environment directory under tests/soundness/):
# 1. `puppet-ls types` gives the type of every variable reference;
# 2. a copy of the program wraps each reference `$x` as
#    `soundness_probe($x, 'T', 'id')` in place (same scope), where T is the
#    inferred type: the probe returns `$x` and records that it ran and
#    whether `$x =~ T` (probe/soundness_probe);
# 3. the copy is compiled by Puppet for each fact set of
#    CompileOracle::FACT_SETS (Debian 12, RedHat 9, Ubuntu 22.04);
# 4. a probe that saw a value outside its type is an unsound hover; a type
#    Puppet cannot parse (or that names an unknown type) is invalid syntax
#    (every type is parsed by a manifest of its own, evaluated before
#    site.pp, so also those of a program that does not compile).
# Precision is the share of evaluated references (probes that ran) whose
# type is not `Any`, for the modern (`modern_*`) and old-style (`legacy_*`)
# programs.
#
# With --corpus N, only the precision over N random files of the Debian
# corpus (/usr/share/puppet/modules) is measured: no compilation.
#
# The referee is the Puppet `require 'puppet'` loads (as for
# tools/compile_oracle.rb): Debian's Puppet 7.23 with the system Ruby's
# load path, Puppet 8.10 with its library first:
#
#   ruby -I /opt/puppet8/root/usr/lib/ruby/vendor_ruby tools/soundness/soundness.rb ...
#
# Puppet 8 compiles with its own defaults (strict=error,
# strict_variables=true) and without the legacy facts, and puppet-ls is
# asked for the types of the same version (`puppet-ls types
# --puppet-version 7|8`). `--puppet 7|8` checks that this is the Puppet
# loaded. A program that does not compile under Puppet 7 is a failure (the
# programs are written for it); under Puppet 8 it is reported, not a
# failure, when the original program fails with the same error (the old
# style programs read `$::osfamily`, an unknown variable there): the
# probes that ran before the error count.
#
# Usage:
#   ruby [-I PUPPET8_LIB] tools/soundness/soundness.rb [--puppet 7|8]
#        [--puppet-ls BIN] [--json FILE] [--gate-precision] [PROGRAM_DIR...]
#   ruby [-I PUPPET8_LIB] tools/soundness/soundness.rb --corpus N [--seed S]
#        [--puppet 7|8] [--puppet-ls BIN] [--gate-precision]
#
# Exit status 1 on any unsound hover, invalid type syntax, compilation
# error (see above) or instrumentation problem (and, with
# --gate-precision, precision below its target).

require 'json'
require 'open3'
require 'optparse'
require 'set'
require_relative '../compile_oracle'

HERE = File.expand_path(__dir__)
REPO = File.expand_path('../..', HERE)
PROBE_MODULE = File.join(HERE, 'probe', 'soundness_probe')
# The manifest of a program's copy that parses every inferred type.
TYPES_MANIFEST = '0_soundness_check_types.pp'
CORPUS = '/usr/share/puppet/modules'
STDLIB = File.join(CORPUS, 'stdlib')
PUPPET8_LIB = '/opt/puppet8/root/usr/lib/ruby/vendor_ruby'
# The referee: the major version of the Puppet loaded.
PUPPET_MAJOR = CompileOracle.puppet8? ? 8 : 7
# Precision targets (share of references typed other than `Any`).
TARGETS = { 'modern' => 0.85, 'legacy' => 0.40, 'corpus' => 0.40, 'corpus modern' => 0.85 }.freeze

# What the probes saw in one compilation (in the compiling process).
module SoundnessProbe
  Types = Puppet::Pops::Types

  # Collects the names of unresolved type references inside a type.
  class UnresolvedFinder
    attr_reader :names

    def initialize
      @names = []
    end

    def visit(type, _guard)
      @names << type.type_string if type.is_a?(Types::PTypeReferenceType)
    end
  end

  class << self
    attr_reader :ran, :failures, :invalid, :types_checked

    def reset
      @ran = Set.new
      @failures = {}
      @invalid = {}
      @types = {}
      @types_checked = false
    end

    # Parses every type (soundness_check_types).
    def check_types(type_strings)
      @types_checked = true
      type_strings.each { |t| parse(t) }
    end

    # Records that probe `id` ran, and the value when it is not of the type.
    def check(value, type_string, id)
      @ran << id
      type = parse(type_string)
      return if type.nil? || type.instance?(value) || @failures.key?(id)

      shown = value.is_a?(Puppet::Pops::Time::TimeData) ? value.to_s : Types::StringConverter.singleton.convert(value, '%p')
      @failures[id] = { 'value' => shorten(shown), 'actual' => shorten(Types::TypeCalculator.infer_set(value).to_s) }
    end

    # The type, or nil (recorded in `invalid`) when Puppet cannot parse it
    # or it names a type that does not exist (Puppet's `Type('Unit')`
    # would silently give a TypeReference).
    def parse(type_string)
      return @types[type_string] if @types.key?(type_string)

      @types[type_string] = begin
        loader = Puppet.lookup(:loaders).private_environment_loader
        type = Types::TypeParser.singleton.parse(type_string, loader)
        finder = UnresolvedFinder.new
        type.accept(finder, nil)
        raise Puppet::Error, "unknown type #{finder.names.uniq.join(', ')}" unless finder.names.empty?

        type
      rescue StandardError => e
        @invalid[type_string] = CompileOracle.first_line(e.message)
        nil
      end
    end

    def shorten(text)
      text.length > 160 ? "#{text[0, 157]}..." : text
    end
  end
end

# A variable reference as puppet-ls reports it, and what became of it.
Reference = Struct.new(:id, :program, :style, :file, :line, :column, :name, :type,
                       :skipped, :ran, :failures, keyword_init: true) do
  def any?
    type.match?(/\AAny\b/)
  end

  def where
    "#{file}:#{line}:#{column}"
  end
end

def parse_options
  options = { puppet_ls: nil, json: nil, gate: false, corpus: nil, seed: 1 }
  OptionParser.new do |o|
    o.banner = 'Usage: soundness.rb [options] [PROGRAM_DIR...]'
    o.on('--puppet MAJOR', Integer, 'the referee: 7 or 8 (default: the Puppet loaded)') do |v|
      abort "soundness: --puppet #{v}: expected 7 or 8" unless [7, 8].include?(v)
      next if v == PUPPET_MAJOR

      run = v == 8 ? "ruby -I #{PUPPET8_LIB} #{$PROGRAM_NAME}" : "ruby #{$PROGRAM_NAME} (no -I #{PUPPET8_LIB})"
      abort "soundness: --puppet #{v}, but Puppet #{Puppet.version} is loaded: run #{run}"
    end
    o.on('--puppet-ls BIN', 'the puppet-ls binary') { |v| options[:puppet_ls] = v }
    o.on('--json FILE', 'also write every reference as JSON') { |v| options[:json] = v }
    o.on('--gate-precision', 'fail when a precision is below its target') { options[:gate] = true }
    o.on('--corpus N', Integer, 'precision over N random corpus files') { |v| options[:corpus] = v }
    o.on('--seed S', Integer, 'seed of the corpus sample (default 1)') { |v| options[:seed] = v }
  end.parse!
  options[:puppet_ls] ||= [ENV['CARGO_TARGET_DIR'], File.join(REPO, 'target')].compact
                          .map { |d| File.join(d, 'debug', 'puppet-ls') }.find { |f| File.executable?(f) }
  abort 'soundness: no puppet-ls binary (build it, or pass --puppet-ls)' unless options[:puppet_ls]
  options
end

# The referee, as the first line of the report.
def referee_line
  settings = if PUPPET_MAJOR >= 8
               'strict=error, strict_variables=true, no legacy facts'
             else
               'strict=warning, strict_variables=false'
             end
  "referee: Puppet #{Puppet.version} (#{settings}); puppet-ls types --puppet-version #{PUPPET_MAJOR}"
end

# `puppet-ls types` for the referee's version: one record per reference.
def run_types(puppet_ls, paths, libraries)
  out, err, status = Open3.capture3(puppet_ls, 'types', '--puppet-version', PUPPET_MAJOR.to_s, *paths,
                                    *libraries.flat_map { |l| ['--library', l] })
  abort "soundness: puppet-ls types failed: #{err}" unless status.success?
  out.lines.map { |l| JSON.parse(l) }
end

# puppet-ls's references in the files under `paths`, by absolute path.
def inferred_types(puppet_ls, paths)
  libraries = File.directory?(STDLIB) ? [STDLIB] : []
  run_types(puppet_ls, paths, libraries).group_by { |r| File.expand_path(r['path']) }
end

# Byte offset of a 1-based line and character column.
def byte_offset(text, line, column)
  lines = text.lines
  lines[0...(line - 1)].sum(&:bytesize) + lines[line - 1].to_s.chars.first(column - 1).join.bytesize
end

def parse_puppet(path, text)
  parser = if path.end_with?('.epp')
             Puppet::Pops::Parser::EvaluatingParser::EvaluatingEppParser.new
           else
             Puppet::Pops::Parser::EvaluatingParser.new
           end
  parser.parse_string(text, path)
end

# A program file as Puppet parses it; a file Puppet rejects stops the run.
def parse_program_file(path, text)
  parse_puppet(path, text)
rescue Puppet::Error => e
  abort "soundness: Puppet cannot parse #{path}: #{CompileOracle.first_line(e.message)}"
end

# Puppet's variable expressions of a file by byte offset, each with the
# classes of its ancestors (nearest last) and whether it is assigned to.
def variable_nodes(model)
  nodes = {}
  model._pcore_all_contents([]) do |o, path|
    next unless o.is_a?(Puppet::Pops::Model::VariableExpression)

    ancestors = path.dup
    assigned = ancestors.each_with_index.any? do |a, i|
      a.is_a?(Puppet::Pops::Model::AssignmentExpression) &&
        [o, *ancestors[(i + 1)..]].any? { |n| n.equal?(a.left_expr) }
    end
    nodes[o.offset] = { node: o, ancestors: ancestors.map(&:class), assigned: assigned }
  end
  nodes
end

# Single-quoted Puppet string.
def quote(text)
  "'#{text.gsub('\\', '\\\\\\\\').gsub("'", "\\\\'")}'"
end

# The probe replacing the reference at `found`, or the reason it is not
# probed: wrapping must not change what the program means.
def probe_text(text, found, ref)
  return [nil, 'assignment target (puppet-ls listed it as a reference)'] if found[:assigned]
  if found[:ancestors].any? { |c| c <= Puppet::Pops::Model::QueryExpression }
    return [nil, 'collector query (no calls allowed)']
  end

  node = found[:node]
  written = text.byteslice(node.offset, node.length)
  variable = written.start_with?('$') ? written : "$#{written}"
  call = "soundness_probe(#{variable}, #{quote(ref.type)}, #{quote(ref.id)})"
  # `"$x"` (short form) becomes `"${soundness_probe(...)}"`; in `"${x}"`
  # and in code the call replaces the variable.
  in_text = found[:ancestors].last <= Puppet::Pops::Model::TextExpression
  braced = text.byteslice(node.offset - 2, 2) == '${'
  [in_text && written.start_with?('$') && !braced ? "${#{call}}" : call, nil]
end

# Instruments one program: its references, and the text of its files with
# every reference wrapped in a probe. Puppet's variables that puppet-ls did
# not list are counted in `missed`.
def instrument(program, style, types)
  references = []
  files = {}
  missed = []
  Dir.glob('**/*.{pp,epp}', base: program).sort.each do |rel|
    path = File.join(program, rel)
    text = File.read(path)
    nodes = variable_nodes(parse_program_file(path, text))
    edits = []
    listed = Set.new
    types.fetch(File.expand_path(path), []).each do |r|
      ref = Reference.new(id: "#{File.basename(program)}/#{rel}:#{r['line']}:#{r['column']}",
                          program: File.basename(program), style: style, file: rel,
                          line: r['line'], column: r['column'], name: r['name'], type: r['type'],
                          ran: [], failures: {})
      references << ref
      offset = byte_offset(text, r['line'], r['column'])
      listed << offset
      found = nodes[offset]
      if found.nil?
        ref.skipped = 'no Puppet variable at this position'
        next
      end
      replacement, ref.skipped = probe_text(text, found, ref)
      edits << [offset, found[:node].length, replacement] if replacement
    end
    nodes.each do |offset, found|
      next if found[:assigned] || listed.include?(offset)

      line = text.byteslice(0, offset).count("\n") + 1
      missed << "#{rel}:#{line}: $#{text.byteslice(offset, found[:node].length).delete_prefix('$')}"
    end
    edits.sort_by { |e| -e[0] }.each do |offset, length, replacement|
      text = text.byteslice(0, offset) + replacement + text.byteslice((offset + length)..)
    end
    files[rel] = text
  end
  [references, files, missed]
end

# Compiles a program for one fact set in a child process; returns what its
# probes saw and its catalog (resources with their parameters), or the
# compilation error.
def compile_probes(root, env_name, fact_set)
  reader, writer = IO.pipe
  pid = fork do
    reader.close
    SoundnessProbe.reset
    result = begin
      catalog = CompileOracle.compile(root, env_name, fact_set)
      resources = catalog.resources.map { |r| "#{r.ref} #{r.to_hash.sort_by { |k, _| k.to_s }.inspect}" }
      { 'error' => nil, 'catalog' => resources.sort }
    rescue StandardError, ScriptError, SystemStackError => e
      { 'error' => e.message.lines.first(3).map(&:strip).join(' ') }
    end
    result.merge!('ran' => SoundnessProbe.ran.to_a, 'failures' => SoundnessProbe.failures,
                  'invalid' => SoundnessProbe.invalid, 'types_checked' => SoundnessProbe.types_checked)
    writer.write(JSON.generate(result))
    writer.close
    exit!(0)
  end
  writer.close
  data = reader.read
  Process.wait(pid)
  JSON.parse(data)
end

def percent(part, whole)
  whole.zero? ? 'n/a' : format('%.1f%%', 100.0 * part / whole)
end

# Share of typed references, printed with its target; returns false when
# below the target.
def precision_line(label, refs)
  typed = refs.count { |r| !r.any? }
  share = refs.empty? ? 1.0 : typed.fdiv(refs.size)
  target = TARGETS.fetch(label)
  puts format('  %-14s %5d / %5d typed = %6s  (target %d%%%s)', label, typed, refs.size,
              percent(typed, refs.size), (target * 100).round, share < target ? ', BELOW' : '')
  share >= target
end

# A compilation error without what differs between a program's copy and
# its original: the environment's directory and the column (a probe call
# is longer than the variable it wraps; lines are unchanged).
def normalized_error(error, root)
  error&.gsub(%r{#{Regexp.escape(root)}/(program|original)_\d+}, '<env>')&.gsub(/, column: \d+/, '')
end

def check_programs(options, programs)
  root = Dir.mktmpdir('puppet-ls-soundness')
  CompileOracle.setup(root)
  types = inferred_types(options[:puppet_ls], programs)
  all_refs = []
  problems = []
  # Programs that do not compile under Puppet 8, as their originals.
  not_compiling = []
  invalid = {}
  missed = []
  programs.each_with_index do |program, i|
    style = File.basename(program).start_with?('legacy') ? 'legacy' : 'modern'
    refs, files, program_missed = instrument(program, style, types)
    all_refs.concat(refs)
    missed.concat(program_missed.map { |m| "#{File.basename(program)}/#{m}" })
    env_name = "program_#{i}"
    env_dir = File.join(root, env_name)
    FileUtils.cp_r(program, File.join(root, "original_#{i}"))
    FileUtils.cp_r(program, env_dir)
    files.each { |rel, text| File.write(File.join(env_dir, rel), text) }
    FileUtils.mkdir_p(File.join(env_dir, 'modules'))
    FileUtils.cp_r(PROBE_MODULE, File.join(env_dir, 'modules'))
    # Every inferred type is parsed, also those of references that never
    # run: by a manifest of the environment's main manifest directory that
    # sorts before site.pp (Puppet evaluates them in order, after
    # instantiating the definitions of all: site.pp's type aliases too).
    type_list = refs.map(&:type).uniq.sort.map { |t| quote(t) }.join(', ')
    File.write(File.join(env_dir, 'manifests', TYPES_MANIFEST), "soundness_check_types([#{type_list}])\n")
    types_checked = false
    by_id = refs.to_h { |r| [r.id, r] }
    CompileOracle::FACT_SETS.each do |os, fact_set|
      name = "#{File.basename(program)} on #{os}"
      seen = compile_probes(root, env_name, fact_set)
      # The probes must not change what the program computes.
      original = compile_probes(root, "original_#{i}", fact_set)
      if original['error'] && PUPPET_MAJOR >= 8 &&
         normalized_error(seen['error'], root) == normalized_error(original['error'], root)
        not_compiling << "#{name}: #{normalized_error(original['error'], root)}"
      elsif seen['error']
        problems << "#{name}: compilation failed: #{seen['error']}"
      elsif original['error']
        problems << "#{name}: the original fails, the probed copy compiles: #{original['error']}"
      elsif original['catalog'] != seen['catalog']
        diff = ((original['catalog'] || []) - (seen['catalog'] || [])).first.to_s[0, 200]
        problems << "#{name}: the probes changed the catalog: #{diff}"
      end
      types_checked ||= seen['types_checked']
      seen['ran'].each { |id| by_id[id]&.ran&.push(os) }
      seen['failures'].each { |id, f| by_id[id]&.failures&.store(os, f) }
      seen['invalid'].each { |t, message| invalid[t] ||= message }
    end
    next if types_checked

    problems << "#{File.basename(program)}: the types were not checked (manifests/#{TYPES_MANIFEST} did not run)"
  end
  FileUtils.rm_rf(root)
  report(options, all_refs, problems, invalid, missed, not_compiling)
end

def report(options, refs, problems, invalid, missed, not_compiling)
  probed = refs.reject(&:skipped)
  evaluated = probed.reject { |r| r.ran.empty? }
  unsound = evaluated.reject { |r| r.failures.empty? }
  puts referee_line
  puts "soundness: #{refs.size} references listed by puppet-ls, #{probed.size} probed, " \
       "#{evaluated.size} evaluated (ran on at least one of #{CompileOracle::FACT_SETS.keys.join(', ')})"
  refs.select(&:skipped).group_by(&:skipped).each do |reason, rs|
    puts "  not probed (#{reason}): #{rs.size}: #{rs.first(5).map { |r| "#{r.program}/#{r.where}" }.join(', ')}"
  end
  puts "  Puppet variables puppet-ls did not list: #{missed.size}#{missed.empty? ? '' : ": #{missed.first(5).join(', ')}"}"
  unless not_compiling.empty?
    puts "  do not compile under Puppet #{PUPPET_MAJOR} (nor do the originals; the probes that ran before count):"
    not_compiling.each { |n| puts "    #{n}" }
  end
  puts
  puts "unsound hovers: #{unsound.size}"
  unsound.each do |r|
    os, f = r.failures.first
    puts "  #{r.program}/#{r.where}: $#{r.name}: #{r.type}"
    puts "      on #{os}: #{f['value']} (#{f['actual']})"
  end
  puts "invalid type syntax: #{invalid.size}"
  invalid.each do |t, message|
    users = refs.select { |r| r.type == t }
    puts "  #{t}: #{message} (#{users.size} references, e.g. #{users.first(3).map { |r| "#{r.program}/#{r.where}" }.join(', ')})"
  end
  problems.each { |p| puts "error: #{p}" }
  puts
  puts 'precision (evaluated references typed other than Any):'
  met = %w[modern legacy].map { |style| precision_line(style, evaluated.select { |r| r.style == style }) }.all?
  if options[:json]
    File.write(options[:json], JSON.pretty_generate(refs.map(&:to_h)))
  end
  failed = !unsound.empty? || !invalid.empty? || !problems.empty? || (options[:gate] && !met)
  puts
  puts "#{evaluated.size - unsound.size} passed, #{unsound.size + invalid.size + problems.size} failed"
  exit(failed ? 1 : 0)
end

# A corpus file is modern when every class, define and function parameter
# has a data type, and it calls no validate_* function and reads no
# `$::` top-scope variable.
def modern_file?(path)
  model = parse_puppet(path, File.read(path))
  params = []
  legacy = false
  model._pcore_all_contents([]) do |o, ancestors|
    case o
    when Puppet::Pops::Model::Parameter
      params << o unless ancestors.last.is_a?(Puppet::Pops::Model::LambdaExpression)
    when Puppet::Pops::Model::CallNamedFunctionExpression
      legacy ||= o.functor_expr.respond_to?(:value) && o.functor_expr.value.to_s.start_with?('validate_')
    when Puppet::Pops::Model::VariableExpression
      legacy ||= o.expr.respond_to?(:value) && o.expr.value.to_s.start_with?('::')
    end
  end
  !legacy && !params.empty? && params.all?(&:type_expr)
rescue StandardError
  false
end

def check_corpus(options)
  CompileOracle.setup(Dir.mktmpdir('puppet-ls-soundness'))
  files = Dir.glob(File.join(CORPUS, '*', '{manifests,functions,types}', '**', '*.pp')).sort
  abort "soundness: no corpus under #{CORPUS} (../shared/corpus/install-corpus.sh)" if files.empty?
  sample = files.sample(options[:corpus], random: Random.new(options[:seed]))
  by_file = run_types(options[:puppet_ls], sample, [CORPUS]).group_by { |r| r['path'] }
  refs = []
  modern_refs = []
  modern_files = 0
  sample.each do |path|
    rs = by_file.fetch(path, []).map { |r| Reference.new(type: r['type']) }
    refs.concat(rs)
    next unless modern_file?(path)

    modern_files += 1
    modern_refs.concat(rs)
  end
  puts referee_line
  puts "corpus sample: #{sample.size} of #{files.size} files (seed #{options[:seed]}), " \
       "#{refs.size} references; #{modern_files} modern typed files, #{modern_refs.size} references"
  met = [precision_line('corpus', refs), precision_line('corpus modern', modern_refs)].all?
  exit(options[:gate] && !met ? 1 : 0)
end

options = parse_options
if options[:corpus]
  check_corpus(options)
else
  programs = ARGV.map { |p| File.expand_path(p) }
  if programs.empty?
    programs = Dir.glob(File.join(REPO, 'tests', 'soundness', '*', 'manifests', 'site.pp')).sort
                  .map { |site| File.dirname(site, 2) }
  end
  check_programs(options, programs)
end
