#!/usr/bin/env ruby
# frozen_string_literal: true
#
# lint_oracle.rb - run the installed puppet-lint (3.0.1) over many manifests
# in one process, with every check enabled (also those off by default), and
# print its answers as compact test data for analysis/lint's parity test
# (no test runs puppet-lint).
#
# Output, tab-separated, sorted by path:
#   a line `=PATH` (PATH relative to ROOT) before the problems of each file,
#   then one line per problem: check, line, column.
# A file puppet-lint cannot read (its lexer or resource scan fails) has a
# single `syntax` line. Problems silenced by control comments are left out,
# as puppet-lint prints them only with --show-ignored.
#
# Each file is linted as `puppet-lint FILE` would (path as given, so that
# autoloader_layout compares the full path). puppet-lint's crash handler
# calls `exit`; such a file is reported as `crash` instead of ending the run.
#
# Usage: ruby tools/lint_oracle.rb ROOT > analysis/lint/test_data/puppet-lint-3-corpus.tsv
#        (every *.pp under ROOT, following symlinks one level, as
#        /usr/share/puppet/modules/* are links)
#
# puppet-lint 4 runs from its source on Ruby 3.1 (its gem is not packaged
# here): ruby -I PUPPET_LINT_4_SOURCE/lib tools/lint_oracle.rb ROOT

require 'puppet-lint'

root = ARGV.fetch(0) { abort 'usage: lint_oracle.rb ROOT' }
files = Dir.glob("#{root}/*/**/*.pp").sort

PuppetLint.configuration.checks.each do |check|
  PuppetLint.configuration.send("enable_#{check}")
end

files.each do |path|
  relative = path.delete_prefix("#{root}/")
  puts "=#{relative}"
  # The lexer keeps pending heredocs in a class-level queue: a file that
  # ends inside one must not leak it into the next file.
  PuppetLint::Lexer.heredoc_queue.clear
  linter = PuppetLint.new
  begin
    linter.file = path
    $stdout.flush
    original_stdout = $stdout
    $stdout = File.open(File::NULL, 'w')
    begin
      linter.run
    ensure
      $stdout.close
      $stdout = original_stdout
    end
  rescue SystemExit
    puts "crash\t0\t0"
    next
  end
  linter.problems
        .reject { |p| p[:kind] == :ignored }
        .sort_by { |p| [p[:line].to_i, p[:column].to_i, p[:check].to_s] }
        .each { |p| puts "#{p[:check]}\t#{p[:line]}\t#{p[:column]}" }
end
