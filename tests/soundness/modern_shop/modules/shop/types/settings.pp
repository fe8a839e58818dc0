# Settings written into shop.conf.
type Shop::Settings = Hash[String[1], Variant[String, Integer, Boolean]]
