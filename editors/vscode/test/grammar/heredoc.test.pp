# SYNTAX TEST "source.puppet" "heredocs"
$text = @("END"/L)
#       ^^ meta.heredoc.interpolated.puppet punctuation.definition.string.begin.puppet
#          ^^^ entity.name.tag.heredoc.puppet
#               ^ constant.character.escape.flags.puppet
  Hello ${name}, port $port
# <-------- string.unquoted.heredoc.interpolated.puppet
#       ^^ punctuation.section.interpolation.begin.puppet
#         ^^^^ variable.other.readwrite.interpolated.puppet
#                     ^^^^^ variable.other.readwrite.interpolated.puppet
  'quotes' and # are text, so are } and /x/
# <------------------------------------------- string.unquoted.heredoc.interpolated.puppet
  | - END
# ^ punctuation.separator.margin.puppet
#   ^ keyword.operator.trim.puppet
#     ^^^ entity.name.tag.heredoc.puppet
$after = 1
# <------ variable.other.readwrite.puppet - meta.heredoc.interpolated.puppet
$raw = @(EOT:json)
#        ^^^ meta.heredoc.literal.puppet entity.name.tag.heredoc.puppet
#            ^^^^ constant.other.language.heredoc.puppet
  { "port": $port, "x": "${y}" }
# <-------------------------------- string.unquoted.heredoc.literal.puppet
#           ^^^^^ - variable.other.readwrite.interpolated.puppet
#                        ^^ - punctuation.section.interpolation.begin.puppet
  EOT
# ^^^ entity.name.tag.heredoc.puppet
file { '/etc/motd':
  content => @("MOTD"), mode => '0644',
#            ^^ punctuation.definition.string.begin.puppet
#               ^^^^ entity.name.tag.heredoc.puppet
#                     ^ punctuation.separator.comma.puppet - string.unquoted.heredoc.interpolated.puppet
#                       ^^^^ entity.other.attribute-name.puppet
#                               ^^^^^^ string.quoted.single.puppet
    Welcome to $facts
# <--------------- string.unquoted.heredoc.interpolated.puppet
#              ^^^^^^ variable.other.readwrite.interpolated.puppet
    END is not the end, MOTD- neither
# <------------------------------------- string.unquoted.heredoc.interpolated.puppet
    |-MOTD
#    ^ keyword.operator.trim.puppet
#     ^^^^ entity.name.tag.heredoc.puppet
  owner => 'root',
# ^^^^^ entity.other.attribute-name.puppet
}
# <- meta.resource.puppet punctuation.section.block.end.puppet
