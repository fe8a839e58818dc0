# Puppet 7.23 parses this; its validator then rejects it (UNSUPPORTED_EXPRESSION).
type MyMod::Thing inherits MyMod::Base {
}
