$r = [1].map |$v| >> Integer { $v }
$q = [1].map |Integer $v| >> Array[Integer] { [$v] }
