type MyMod::Port = Integer[0, 65535]
type MyMod::Str = String
type MyMod::Either = Variant[
  String,
  Integer,
]
