# SYNTAX TEST "source.puppet" "strings, escapes and interpolation"
$a = 'it\'s $not ${interpolated}'
#    ^ string.quoted.single.puppet punctuation.definition.string.begin.puppet
#       ^^ string.quoted.single.puppet constant.character.escape.puppet
#           ^^^^ string.quoted.single.puppet - variable.other.readwrite.interpolated.puppet
#                ^^ string.quoted.single.puppet - punctuation.section.interpolation.begin.puppet
$b = "tab\there \$literal $name and $demo::x::y, ${port} ${facts['os']['name']}"
#    ^ string.quoted.double.puppet punctuation.definition.string.begin.puppet
#        ^^ string.quoted.double.puppet constant.character.escape.puppet
#               ^^ constant.character.escape.puppet
#                 ^^^^^^^ string.quoted.double.puppet - variable.other.readwrite.interpolated.puppet
#                         ^^^^^ string.quoted.double.puppet variable.other.readwrite.interpolated.puppet
#                                   ^^^^^^^^^^^ variable.other.readwrite.interpolated.puppet
#                                                ^^ meta.interpolation.puppet punctuation.section.interpolation.begin.puppet
#                                                  ^^^^ variable.other.readwrite.interpolated.puppet
#                                                      ^ punctuation.section.interpolation.end.puppet
#                                                          ^^^^^ variable.other.readwrite.interpolated.puppet
#                                                                ^^^^ meta.interpolation.puppet string.quoted.single.puppet
#                                                                              ^ string.quoted.double.puppet punctuation.definition.string.end.puppet
$c = "${ {'k' => 1}['k'] + $x.length } \u{1F600} \u00e9 after"
#        ^^^ meta.interpolation.puppet
#        ^ punctuation.section.braces.begin.puppet
#                ^^ meta.interpolation.puppet
#                 ^ punctuation.section.braces.end.puppet
#                          ^^ meta.interpolation.puppet variable.other.readwrite.puppet
#                             ^^^^^^ entity.name.function.call.puppet
#                                    ^ meta.interpolation.puppet punctuation.section.interpolation.end.puppet
#                                      ^^^^^^^^^ constant.character.escape.puppet
#                                                ^^^^^^ constant.character.escape.puppet
#                                                       ^^^^^ string.quoted.double.puppet - meta.interpolation.puppet
$d = "a # not a comment"
#       ^^^^^^^^^^^^^^^ string.quoted.double.puppet - comment.line.number-sign.puppet
$e = "unterminated interpolation is still a string
#     ^^^^^^^^^^^^ string.quoted.double.puppet
  across lines"; $f = 1
# ^^^^^^ string.quoted.double.puppet
#                ^^ variable.other.readwrite.puppet - string.quoted.double.puppet
