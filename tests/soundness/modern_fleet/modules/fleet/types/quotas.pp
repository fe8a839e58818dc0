# Disk quotas in megabytes, by user name.
type Fleet::Quotas = Hash[String[1], Integer[0]]
