# frozen_string_literal: true

# soundness_check_types(types): parses each type string in the
# environment, so that the harness reports the inferred types that are not
# valid Puppet types, including those of references that never run.
Puppet::Functions.create_function(:soundness_check_types) do
  dispatch :check do
    param 'Array[String]', :type_strings
  end

  def check(type_strings)
    unless defined?(::SoundnessProbe)
      raise Puppet::Error, 'soundness_check_types only runs under tools/soundness/soundness.rb'
    end
    ::SoundnessProbe.check_types(type_strings)
    nil
  end
end
