# frozen_string_literal: true

# soundness_probe(value, type, id): returns `value` unchanged, and tells the
# soundness harness (tools/soundness/soundness.rb, which defines
# SoundnessProbe) that probe `id` ran and whether `value` matched the type
# puppet-ls inferred there (Puppet type syntax, as a string). Written in
# Ruby rather than Puppet so that a probe records every run without a
# notice, and an invalid type is reported without stopping the compilation.
Puppet::Functions.create_function(:soundness_probe) do
  dispatch :probe do
    param 'Any', :value
    param 'String', :type_string
    param 'String', :id
  end

  def probe(value, type_string, id)
    unless defined?(::SoundnessProbe)
      raise Puppet::Error, 'soundness_probe only runs under tools/soundness/soundness.rb'
    end
    ::SoundnessProbe.check(value, type_string, id)
    value
  end
end
