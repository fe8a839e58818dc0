# A port the shop may listen on (not a privileged one, except 80 and 443).
type Shop::Port = Variant[Integer[1024, 65535], Enum['80', '443'], Integer[80, 80], Integer[443, 443]]
