and attr case class default define else elsif false function if in inherits node or private true type undef unless plan apply
