# SYNTAX TEST "source.puppet" "comments, definitions, variables, numbers, keywords"
# a line comment
# <- comment.line.number-sign.puppet punctuation.definition.comment.puppet
/* a block
# <-- comment.block.puppet punctuation.definition.comment.begin.puppet
   comment */ $x = 1
#  ^^^^^^^ comment.block.puppet
#          ^^ comment.block.puppet punctuation.definition.comment.end.puppet
#             ^^ variable.other.readwrite.puppet - comment.block.puppet
class demo::web (
# <----- storage.type.class.puppet
#     ^^^^^^^^^ entity.name.type.class.puppet
  Demo::Port $port = 8080,
# ^^^^^^^^^^ entity.name.type.puppet
#            ^ punctuation.definition.variable.puppet
#            ^^^^^ variable.other.readwrite.puppet
#                  ^ keyword.operator.assignment.puppet
#                    ^^^^ constant.numeric.integer.puppet
  Optional[String[1]] $name = undef,
# ^^^^^^^^ entity.name.type.puppet
#          ^^^^^^ entity.name.type.puppet
#                 ^ constant.numeric.integer.puppet
#                             ^^^^^ constant.language.undef.puppet
) inherits demo::params {
# ^^^^^^^^ storage.modifier.inherits.puppet
#          ^^^^^^^^^^^^ entity.other.inherited-class.puppet
  $size = 0x1F + 0755 + 1.5e3 + $::facts['memory']
#         ^^^^ constant.numeric.hex.puppet
#                ^^^^ constant.numeric.octal.puppet
#                       ^^^^^ constant.numeric.float.puppet
#                               ^^^^^^^^ variable.other.readwrite.puppet
  $fq = $demo::params::root
#       ^^^^^^^^^^^^^^^^^^^ variable.other.readwrite.puppet
  if $port > 1024 and !$x {
# ^^ keyword.control.conditional.puppet
#          ^ keyword.operator.comparison.puppet
#                 ^^^ keyword.operator.logical.puppet
#                     ^ keyword.operator.logical.puppet
    include demo::ssl
#   ^^^^^^^ support.function.statement.puppet
#           ^^^^^^^^^ - entity.name.type.resource.puppet
  } elsif $x in [1, 2] {
#   ^^^^^ keyword.control.conditional.puppet
#            ^^ keyword.operator.in.puppet
  } else {
#   ^^^^ keyword.control.conditional.puppet
#        ^ punctuation.section.block.begin.puppet
    $y = $x ? { true => 1, default => 2 }
#           ^ keyword.operator.selector.puppet
#               ^^^^ constant.language.boolean.puppet
#                    ^^ punctuation.separator.key-value.puppet
#                          ^^^^^^^ constant.language.default.puppet
  }
  $list.each |$i, $v| { notice($v) }
#       ^^^^ entity.name.function.call.puppet
#            ^ punctuation.definition.parameters.puppet
#                       ^^^^^^ support.function.statement.puppet
  $r = lookup('demo::key', String, 'first', 'x').upcase
#      ^^^^^^ entity.name.function.call.puppet
#             ^^^^^^^^^^^ string.quoted.single.puppet
#                                                ^^^^^^ entity.name.function.call.puppet
  Package['nginx'] -> Service['nginx'] ~> Exec['reload']
# ^^^^^^^ entity.name.type.puppet
#                  ^^ keyword.operator.relationship.puppet
#                                      ^^ keyword.operator.relationship.puppet
  User <| title == 'x' |>
#      ^^ keyword.operator.collector.puppet
#               ^^ keyword.operator.comparison.puppet
#                      ^^ keyword.operator.collector.puppet
}
define demo::vhost(String $docroot) { }
# <------ storage.type.define.puppet
#      ^^^^^^^^^^^ entity.name.type.define.puppet
function demo::double(Integer $n) >> Integer { $n * 2 }
# <-------- storage.type.function.puppet
#        ^^^^^^^^^^^^ entity.name.function.puppet
#                                 ^^ keyword.operator.shift.puppet
#                                    ^^^^^^^ entity.name.type.puppet
#                                                 ^ keyword.operator.arithmetic.puppet
type Demo::Port = Integer[1, 65535]
# <---- storage.type.type-alias.puppet
#    ^^^^^^^^^^ entity.name.type.alias.puppet
#               ^ keyword.operator.assignment.puppet
#                            ^^^^^ constant.numeric.integer.puppet
plan demo::deploy(TargetSpec $targets) { }
# <---- storage.type.plan.puppet
#    ^^^^^^^^^^^^ entity.name.function.plan.puppet
node 'web01.example.com', /^db\d+$/ {
# <---- storage.type.node.puppet
#    ^^^^^^^^^^^^^^^^^^^ string.quoted.single.puppet
#                         ^^^^^^^^^ string.regexp.puppet
}
node default { }
#    ^^^^^^^ constant.language.default.puppet - entity.name.type.resource.puppet
