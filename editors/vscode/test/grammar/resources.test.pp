# SYNTAX TEST "source.puppet" "resources, titles, attributes, regex versus division"
file { '/etc/demo.conf':
# <---- meta.resource.puppet entity.name.type.resource.puppet
#    ^ punctuation.section.block.begin.puppet
#      ^^^^^^^^^^^^^^^^ entity.name.section.resource-title.puppet
#                      ^ punctuation.separator.colon.puppet
  ensure  => file,
# ^^^^^^ entity.other.attribute-name.puppet
#         ^^ punctuation.separator.key-value.puppet
  options => { 'a' => 1, 'b' => [2, 3] },
#              ^^^ string.quoted.single.puppet - entity.name.section.resource-title.puppet
  unless  => 'test -f /x',
# ^^^^^^ entity.other.attribute-name.puppet - keyword.control.conditional.puppet
#                     ^^ string.quoted.single.puppet - string.regexp.puppet
  *       => $extra;
# ^ entity.other.attribute-name.splat.puppet
#                  ^ punctuation.terminator.statement.puppet
  "/etc/${name}.d":
# ^^^^^^^^^^^^^^^^ entity.name.section.resource-title.puppet
#         ^^^^ variable.other.readwrite.interpolated.puppet
    ensure => directory;
}
# <- meta.resource.puppet punctuation.section.block.end.puppet
@@nagios_host { $facts['fqdn']: }
# <-- keyword.operator.virtual.puppet
# ^^^^^^^^^^^ entity.name.type.resource.puppet
class { 'apache': default_vhost => false }
# <----- entity.name.type.resource.puppet
#       ^^^^^^^^ entity.name.section.resource-title.puppet
#                 ^^^^^^^^^^^^^ entity.other.attribute-name.puppet
case $facts['os']['family'] {
# <---- keyword.control.conditional.puppet
  'Debian': { }
# ^^^^^^^^ string.quoted.single.puppet - entity.name.section.resource-title.puppet
  /^(RedHat|CentOS)$/: { }
# ^^^^^^^^^^^^^^^^^^^ string.regexp.puppet
  default: { }
# ^^^^^^^ constant.language.default.puppet
}
$half = $total / 2
#              ^ keyword.operator.arithmetic.puppet
#                ^ constant.numeric.integer.puppet
$ratio = ($a + 1)/($b / $c)
#                ^ keyword.operator.arithmetic.puppet - string.regexp.puppet
#                     ^ keyword.operator.arithmetic.puppet - string.regexp.puppet
$per = $list[0] / $n / 4
#               ^ keyword.operator.arithmetic.puppet
#                    ^ keyword.operator.arithmetic.puppet
if $name =~ /^web\/(\d+)$/ and $x !~ /a b/ {
#        ^^ keyword.operator.match.puppet
#           ^^^^^^^^^^^^^^ string.regexp.puppet
#                ^^ constant.character.escape.regexp.puppet
#                                 ^^ keyword.operator.match.puppet
#                                    ^^^^^ string.regexp.puppet
}
$m = $name ? { /^db/ => 'db', default => 'web' }
#              ^^^^^ string.regexp.puppet
$n = [/a/, 10 / 5]
#     ^^^ string.regexp.puppet
#            ^^^ - string.regexp.puppet
#             ^ keyword.operator.arithmetic.puppet
$p = Pattern[/\A[a-z]+\z/]
#            ^^^^^^^^^^^^ string.regexp.puppet
$q = $x/2 + $y /3
#      ^ keyword.operator.arithmetic.puppet
#              ^ keyword.operator.arithmetic.puppet
