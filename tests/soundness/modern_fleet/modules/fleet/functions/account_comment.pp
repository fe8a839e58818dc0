# The GECOS comment of an account.
function fleet::account_comment(String $name, Fleet::User $user) >> String {
  $groups = $user['groups'].join(',')
  "${name} (${groups})"
}
