#!/usr/bin/env ruby
# frozen_string_literal: true
#
# metadata_oracle.rb - what Puppet 7 makes of modules' metadata.json, as
# test data for puppet-ls's metadata checks (no test runs Puppet).
#
# ranges: reads version ranges (one per line, as written in a dependency's
# `version_requirement`) on stdin and prints, per range, tab-separated:
# the range, `ok` or `error: MESSAGE` (SemanticPuppet::VersionRange.parse,
# what Puppet::Module#unmet_dependencies and `puppet module` use), and the
# versions of PROBES the range includes, comma-separated.
#
#   ruby tools/metadata_oracle.rb ranges < analysis/test_data/metadata/ranges.txt
#
# modules: for each fixture (multi-file format, `#- /ws/modules/NAME/...`
# headers), loads the modules as Puppet's environment does and prints, per
# module, what Puppet says: `loaded`, or the error that made the
# environment drop it (or fail altogether); then the module's unmet
# dependencies as `puppet module list` lists them (reason, name and range).
#
#   ruby tools/metadata_oracle.rb modules FIXTURE...

require 'json'
require 'tmpdir'
require 'fileutils'
require 'puppet'
require_relative 'compile_oracle'

module MetadataOracle
  PROBES = %w[
    0.0.3 0.0.4 0.2.3 0.2.5 0.3.0 0.9.0 1.0.0-rc1 1.0.0 1.2.0 1.2.3 1.2.4
    1.3.0 1.9.9 2.0.0 2.0.1 3.1.0 4.13.1 9.9.9 10.0.0
  ].map { |v| SemanticPuppet::Version.parse(v) }

  def self.ranges(input)
    input.each_line do |line|
      range = line.chomp
      next if range.start_with?('#')
      begin
        parsed = SemanticPuppet::VersionRange.parse(range)
        included = PROBES.select { |v| parsed.include?(v) }.map(&:to_s)
        puts [range, 'ok', included.join(',')].join("\t")
      rescue ArgumentError => e
        puts [range, "error: #{e.message.lines.first.chomp}", ''].join("\t")
      end
    end
  end

  def self.modules(fixtures)
    root = Dir.mktmpdir('puppet-ls-metadata')
    Puppet.initialize_settings(['--confdir', File.join(root, 'conf'), '--vardir', File.join(root, 'var'),
                                '--codedir', File.join(root, 'code')])
    logs = []
    Puppet::Util::Log.newdestination(Puppet::Test::LogCollector.new(logs))
    fixtures.each_with_index do |fixture, i|
      dir = File.join(root, "fixture_#{i}")
      CompileOracle.split_fixture(File.read(fixture)).each do |path, content|
        target = File.join(dir, path.sub(%r{\A/ws/?}, ''))
        FileUtils.mkdir_p(File.dirname(target))
        File.write(target, content)
      end
      modulepath = File.join(dir, 'modules')
      puts "# #{File.basename(fixture)}"
      logs.clear
      env = Puppet::Node::Environment.create(:"fixture_#{i}", [modulepath])
      begin
        loaded = env.modules
      rescue StandardError => e
        puts "environment fails: #{e.class}: #{e.message.lines.first.chomp}"
        next
      end
      logs.each { |m| puts "#{m.level}: #{m.message.lines.first.chomp.gsub(dir, '/ws')}" }
      names = Dir.children(modulepath).sort
      names.each do |name|
        mod = loaded.find { |m| m.name == name }
        unless mod
          puts "#{name}: dropped"
          next
        end
        puts "#{name}: loaded"
        begin
          mod.unmet_dependencies.each do |dep|
            puts "  #{dep[:reason]} #{dep[:name]} (#{dep[:version_constraint]})" \
                 " installed #{dep[:mod_details][:installed_version].inspect}"
          end
        rescue StandardError => e
          puts "  puppet module list fails: #{e.class}: #{e.message.lines.first.chomp}"
        end
      end
    end
  ensure
    FileUtils.rm_rf(root) if root
  end
end

if $PROGRAM_NAME == __FILE__
  require 'puppet/test/test_helper' unless defined?(Puppet::Test::LogCollector)
  case ARGV.shift
  when 'ranges' then MetadataOracle.ranges($stdin)
  when 'modules' then MetadataOracle.modules(ARGV)
  else abort 'usage: metadata_oracle.rb ranges < RANGES | metadata_oracle.rb modules FIXTURE...'
  end
end
